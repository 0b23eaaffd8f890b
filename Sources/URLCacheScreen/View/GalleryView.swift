import BlockArt
import Foundation
import URLCacheKit

/// The gallery drawn in the image area: each tile's thumbnail (in pixels
/// where the picture is shown in pixels, else block art), its title and
/// its date; the chosen tile's title in reverse.
extension ScreenView {
    func drawGallery(_ gallery: Gallery, _ state: ScreenState, _ layout: Layout, _ terminal: Terminal) {
        let grid = GalleryLayout(layout, cellAspect: cellAspect)
        let pixels = state.showPixels && pictureFormat.isPixels
        var drawn = (arts: [Int: (key: ArtKey, grid: CellGrid)](), pictures: [Int: (key: PictureKey, picture: PixelPicture)]())
        for (index, tile) in gallery.tiles.enumerated() {
            guard let origin = grid.origin(of: index, scroll: gallery.scroll) else { continue }
            if let note = thumbnail(index, gallery, grid, at: origin, pixels: pixels, terminal, &drawn) {
                terminal.put(note.clipped(toColumns: grid.tileColumns), row: origin.row + (grid.pictureRows - 1) / 2,
                             column: origin.column + max(0, (grid.tileColumns - note.columns) / 2), style: .dim)
            }
            let selected = index == gallery.selected
            var title = tile.title.terminalSafe.clipped(toColumns: grid.tileColumns)
            if selected { title += String(repeating: " ", count: max(0, grid.tileColumns - title.columns)) }
            terminal.put(title, row: origin.row + grid.pictureRows, column: origin.column, style: selected ? .reverse : .bold)
            terminal.put(tile.dateLine.clipped(toColumns: grid.tileColumns), row: origin.row + grid.pictureRows + 1,
                         column: origin.column, style: .dim)
        }
        // Only what is on screen is kept: a scroll or a resize lets the rest go.
        thumbnails = drawn
    }

    /// Puts a tile's thumbnail; what to write in its box instead, if it has
    /// none. Drawn pictures are kept by tile: two entries of one file each
    /// have a picture (and a kitty id) of their own.
    private func thumbnail(_ index: Int, _ gallery: Gallery, _ grid: GalleryLayout, at origin: (row: Int, column: Int),
                           pixels: Bool, _ terminal: Terminal,
                           _ drawn: inout (arts: [Int: (key: ArtKey, grid: CellGrid)], pictures: [Int: (key: PictureKey, picture: PixelPicture)]))
        -> String? {
        guard let path = gallery.tiles[index].source else { return "no picture yet" }
        guard let thumbnail = gallery.thumbnails[path] else { return "…" }
        guard let image = thumbnail.image else { return "cannot be shown" }
        let identity = ScreenView.identity(image)
        if pixels {
            let cell = terminal.cellPixels
            let placement = PixelPlacement.fit(imageWidth: image.info.width, imageHeight: image.info.height, columns: grid.tileColumns,
                                               rows: grid.pictureRows, cellWidth: cell.width, cellHeight: cell.height, centred: true)
            let key = PictureKey(placement: placement, imageID: identity, format: pictureFormat)
            let cached = thumbnails.pictures[index].flatMap { $0.key == key ? $0.picture : nil }
            guard let picture = cached ?? encode(image.pixmap, placement) else { return "cannot be shown" }
            drawn.pictures[index] = (key, picture)
            terminal.put(picture, row: origin.row + placement.rowOffset, column: origin.column + placement.columnOffset)
            return nil
        }
        let fit = Geometry.fit(width: image.info.width, height: image.info.height, columns: grid.tileColumns,
                               rows: grid.pictureRows, cellAspect: cellAspect)
        let key = ArtKey(columns: fit.columns, rows: fit.rows, imageID: identity, options: renderOptions)
        let art = thumbnails.arts[index].flatMap { $0.key == key ? $0.grid : nil }
            ?? Renderer.render(image.pixmap, columns: fit.columns, rows: fit.rows, options: renderOptions)
        drawn.arts[index] = (key, art)
        terminal.put(art, row: origin.row + (grid.pictureRows - fit.rows) / 2, column: origin.column + (grid.tileColumns - fit.columns) / 2)
        return nil
    }

    /// The title row's name and position: "Gallery · 3 entries", or the
    /// entry's name and "· 5 kept images".
    static func galleryTitle(_ gallery: Gallery, _ state: ScreenState) -> (String, String) {
        let count = gallery.tiles.count
        switch gallery.kind {
        case .entries: return ("Gallery", "  \(count) entr\(count == 1 ? "y" : "ies")")
        case .history: return (state.entry.displayName, "  \(count) kept image\(count == 1 ? "" : "s")")
        }
    }

    /// The status line: where the choice is, the keys, then what happened.
    static func galleryStatus(_ gallery: Gallery, _ status: String) -> String {
        let position = "\(gallery.selected + 1) of \(gallery.tiles.count) · Enter opens · "
        let keys = gallery.kind == .entries ? "r checks · Esc back" : "Esc back"
        return position + keys + (status.isEmpty ? "" : " · " + status)
    }

    /// Under the status line: the chosen tile's date in full.
    static func updatedLine(_ gallery: Gallery) -> String {
        guard gallery.tiles.indices.contains(gallery.selected) else { return "" }
        let tile = gallery.tiles[gallery.selected]
        let label = gallery.kind == .entries ? "Updated: " : "First seen: "
        let never = tile.source != nil ? "never (Bundled image, not yet downloaded)" : "never (not cached)"
        return label + (tile.date.map(UpdatedFormat.string) ?? never)
    }
}

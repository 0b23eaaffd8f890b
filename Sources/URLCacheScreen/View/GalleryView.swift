import BlockArt
import FoundationEssentials
import URLCacheKit

/// The gallery drawn in the image area: each tile's thumbnail (in pixels
/// where the picture is shown in pixels, else block art), its title and
/// its date; the chosen tile's title in reverse.
extension ScreenView {
    func drawGallery(_ gallery: Gallery, _ state: ScreenState, _ layout: Layout, _ terminal: Terminal) {
        let grid = galleryLayout(layout)
        let pixels = showsPixels(state)
        var drawn = Thumbnails()
        for (index, tile) in gallery.tiles.enumerated() {
            guard let origin = grid.origin(of: index, scroll: gallery.scroll) else { continue }
            if let note = thumbnail(index, gallery, grid, at: origin, pixels: pixels, terminal, &drawn) {
                terminal.put(
                    note.clipped(toColumns: grid.tileColumns),
                    row: origin.row + (grid.pictureRows - 1) / 2,
                    column: origin.column + max(0, (grid.tileColumns - note.columns) / 2),
                    style: .dim
                )
            }
            let selected = index == gallery.selected
            var title = tile.title.terminalSafe.clipped(toColumns: grid.tileColumns)
            if selected { title += String(repeating: " ", count: max(0, grid.tileColumns - title.columns)) }
            terminal.put(
                title,
                row: origin.row + grid.pictureRows,
                column: origin.column,
                style: selected ? .reverse : .bold
            )
            terminal.put(
                tile.dateLine.clipped(toColumns: grid.tileColumns),
                row: origin.row + grid.pictureRows + 1,
                column: origin.column,
                style: .dim
            )
        }
        // Only what is on screen is kept: a scroll or a resize lets the rest go.
        drawCache.thumbnails = drawn
    }

    /// The gallery's layout for the screen's: one place, with the view's cell aspect.
    public func galleryLayout(_ layout: Layout) -> GalleryLayout {
        GalleryLayout(layout, cellAspect: cellAspect)
    }

    /// Puts a tile's thumbnail, fitted and centred in its picture box as
    /// the main view fits the picture; what to write in the box instead,
    /// if it has none. Drawn thumbnails are kept by tile: two entries of
    /// one file each have a picture (and a kitty id) of their own.
    private func thumbnail(
        _ index: Int,
        _ gallery: Gallery,
        _ grid: GalleryLayout,
        at origin: (row: Int, column: Int),
        pixels: Bool,
        _ terminal: Terminal,
        _ drawn: inout Thumbnails
    ) -> String? {
        guard let source = gallery.tiles[index].source else { return "no picture yet" }
        guard let thumbnail = gallery.thumbnails[source] else { return "…" }
        guard let image = thumbnail.image else { return "cannot be shown" }
        if pixels {
            guard
                let (picture, placement) = fittedPicture(
                    image,
                    columns: grid.tileColumns,
                    rows: grid.pictureRows,
                    cell: terminal.cellPixels,
                    cache: drawCache.thumbnails.pictures[index]
                )
            else {
                return "cannot be shown"
            }
            drawn.pictures[index] = picture
            terminal.put(
                picture.picture,
                row: origin.row + placement.rowOffset,
                column: origin.column + placement.columnOffset
            )
            return nil
        }
        let art = fittedArt(
            image,
            columns: grid.tileColumns,
            rows: grid.pictureRows,
            cache: drawCache.thumbnails.arts[index]
        )
        drawn.arts[index] = art
        terminal.put(
            art.grid,
            row: origin.row + (grid.pictureRows - art.grid.rows) / 2,
            column: origin.column + (grid.tileColumns - art.grid.columns) / 2
        )
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

    /// The Updated line while the bundled picture stands in.
    static let neverBundled = "never (Bundled image, not yet downloaded)"

    /// Under the status line: the chosen tile's date in full.
    static func updatedLine(_ gallery: Gallery) -> String {
        guard let tile = gallery.selectedTile else { return "" }
        let label = gallery.kind == .entries ? "Updated: " : "First seen: "
        let never = tile.bundled != nil ? neverBundled : "never (not drawCache.cached)"
        return label + (tile.date.map(UpdatedFormat.string) ?? never)
    }
}

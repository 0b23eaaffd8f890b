import BlockArt
import FoundationEssentials
import URLCacheKit

/// The screen's side of the gallery: what the cache holds, read when `g`
/// or `G` is pressed, and the thumbnails asked for and taken in.
extension ScreenApp {
    /// Opens the gallery of every entry, or of the entry's kept images,
    /// with the one on screen chosen. Only the cache's records are read.
    func openGallery(_ kind: Gallery.Kind) {
        let cache = options.controller.cache
        let gallery: Gallery
        switch kind {
        case .entries:
            gallery = Gallery.entries(
                state.entries,
                selected: state.index,
                lookup: { entry in (try? cache.lookup(entry.url)) ?? nil },
                bundled: { BundledImage.bytes(for: $0) != nil }
            )
        case .history:
            let items = state.isBundled ? [] : (try? cache.history(state.entry.url)) ?? []
            gallery = Gallery.history(items, entry: state.entry, selected: state.historyIndex ?? 0)
        }
        services.log.write("gallery of \(kind == .entries ? "the list" : "kept images"): \(gallery.tiles.count) tiles")
        ScreenLogic.openGallery(gallery, &state)
    }

    /// Asks for the thumbnails the tiles need at their size now: those on
    /// screen first, then the rest, so that scrolling finds them ready.
    func requestThumbnails() {
        guard state.gallery != nil, let layout = Layout(columns: terminal.size.columns, rows: terminal.size.rows) else {
            return
        }
        let grid = view.galleryLayout(layout)
        // Opened, or resized: the chosen tile is on screen.
        ScreenLogic.settleGallery(grid, &state)
        guard let gallery = state.gallery else { return }
        let (options, cell) = (self.options, terminal.cellPixels)
        let onScreen = { (index: Int) in grid.origin(of: index, scroll: gallery.scroll) != nil }
        let order = gallery.tiles.indices.filter(onScreen) + gallery.tiles.indices.filter { !onScreen($0) }
        let jobs = order.compactMap { index -> ThumbnailDecoder.Job? in
            let tile = gallery.tiles[index]
            guard let path = tile.source else { return nil }
            let key = Gallery.ThumbnailKey(
                path: path,
                columns: grid.tileColumns,
                rows: grid.pictureRows,
                cellWidth: cell.width,
                cellHeight: cell.height
            )
            guard gallery.thumbnails[path]?.key != key else { return nil }
            let from =
                tile.path.map(ScreenState.PictureSource.file) ?? tile.bundled.map(ScreenState.PictureSource.bundled)
            guard let from else { return nil }
            return ThumbnailDecoder.Job(key: key, source: from) { info in
                ScreenApp.decodeSize(for: info, columns: key.columns, rows: key.rows, options: options, cell: cell)
            }
        }
        if !jobs.isEmpty { services.thumbnails.request(jobs) }
    }

    /// Takes the thumbnails decoded since the last look; whether any was
    /// for the gallery open now.
    func takeThumbnails() -> Bool {
        var changed = false
        for thumbnail in services.thumbnails.take() where ScreenLogic.thumbnailReady(thumbnail, &state) {
            changed = true
        }
        return changed
    }
}

import FoundationEssentials
import URLCacheKit

/// The gallery's keys and clicks, as pure functions of the state and its layout.
extension ScreenLogic {
    /// What `G` says when the entry has nothing kept to show.
    public static let nothingKeptStatus = "No kept images for this entry yet"

    /// The gallery laid out in `grid` (opened, or resized): the chosen
    /// tile is on screen.
    static func settleGallery(_ grid: GalleryLayout, _ state: inout ScreenState) {
        guard let gallery = state.gallery else { return }
        state.gallery = grid.settled(gallery)
    }

    /// A tile's thumbnail was decoded: kept, if the tile is still there;
    /// whether it was.
    static func thumbnailReady(_ thumbnail: Gallery.Thumbnail, _ state: inout ScreenState) -> Bool {
        guard state.gallery?.tiles.contains(where: { $0.source == thumbnail.key.path }) == true else { return false }
        // In place: a copy of the gallery would copy its thumbnails too.
        state.gallery?.thumbnails[thumbnail.key.path] = thumbnail
        return true
    }

    /// The gallery opens: the status line starts afresh (it shows what
    /// happens in the gallery from now on), and the zoom is left as it was.
    public static func openGallery(_ gallery: Gallery, _ state: inout ScreenState) {
        guard !gallery.tiles.isEmpty else {
            state.status = .info(nothingKeptStatus)
            return
        }
        state.gallery = gallery
        state.status = .empty
    }

    /// An event while the gallery is open and no box is over it. The arrows
    /// (and h j k l) move, Enter or a click on the chosen tile opens it, Esc,
    /// `g` or `G` go back, `r` checks the tile's entry, the wheel scrolls.
    static func handleGallery(
        _ event: InputEvent,
        _ state: inout ScreenState,
        layout: GalleryLayout?,
        toolbar: Toolbar,
        toolbarRow: Int?
    ) -> [Effect] {
        guard let layout else {
            // Too small a window to draw it: going back and quitting still work.
            guard case let .key(key) = event else { return [] }
            switch KeyTable.command(for: key, in: .gallery) {
            case .back: state.gallery = nil
            case .quit: return quit(&state)
            default: break
            }
            return []
        }
        guard let shown = state.gallery else { return [] }
        // A resize may have left the scroll where the grid has no row now.
        let gallery = layout.settled(shown)
        state.gallery = gallery
        switch event {
        case let .click(row, column):
            if row == toolbarRow, let button = toolbar.button(at: column) {
                // The toolbar is the main view's: it goes back there first
                // (not for a button a download disables).
                guard state.loading == nil || button == .quit else { return [] }
                state.gallery = nil
                return press(button, &state)
            }
            guard let tile = layout.tile(atRow: row, column: column, scroll: gallery.scroll, count: gallery.tiles.count)
            else { return [] }
            if tile == gallery.selected { return openTile(&state) }
            select(tile, &state, layout)
            return []
        case let .wheel(up, _, _):
            select(gallery.selected + (up ? -layout.across : layout.across), &state, layout)
            return []
        case let .key(key):
            return galleryKey(key, &state, layout)
        default:
            return []
        }
    }

    private static func galleryKey(_ key: Key, _ state: inout ScreenState, _ layout: GalleryLayout) -> [Effect] {
        guard let gallery = state.gallery else { return [] }
        let page = layout.across * layout.rowsShown
        let command = KeyTable.command(for: key, in: .gallery)
        let move: Int? =
            switch command {
            case .moveLeft: -1
            case .moveRight: 1
            case .moveUp: -layout.across
            case .moveDown: layout.across
            case .pageUp: -page
            case .pageDown: page
            default: nil
            }
        if let move {
            select(gallery.selected + move, &state, layout)
            return []
        }
        switch command {
        case .open: return openTile(&state)
        case .back: state.gallery = nil
        case .recheck where gallery.kind == .entries: return checkTile(&state)
        case .help: state.overlay = .help
        case .pixels: togglePixels(&state)
        case .quit: return quit(&state)
        default: break
        }
        return []
    }

    /// Moves the choice to `index` (kept inside the grid) and scrolls it into view.
    private static func select(_ index: Int, _ state: inout ScreenState, _ layout: GalleryLayout) {
        guard var gallery = state.gallery, !gallery.tiles.isEmpty else { return }
        gallery.selected = min(max(0, index), gallery.tiles.count - 1)
        state.gallery = layout.settled(gallery)
    }

    /// Enter: the chosen tile in the normal view, which loads it as moving
    /// to an entry does (from the cache while it is fresh), or shows the
    /// kept image. A person who picks another picture is done with the
    /// download under way: it is cancelled (the cache stays as it was) and
    /// the tile's load follows it.
    private static func openTile(_ state: inout ScreenState) -> [Effect] {
        guard let gallery = state.gallery, let tile = gallery.selectedTile else { return [] }
        switch gallery.kind {
        case .entries:
            state.gallery = nil
            guard tile.target != state.index else { return [] }
            let cancel: [Effect] = state.loading != nil ? [.cancel] : []
            state.index = tile.target
            state.clearImage()
            return cancel + [.display(force: false, asked: false)]
        case .history:
            // A kept image is shown from its file: not while the entry's download runs.
            guard state.loading == nil else { return [] }
            state.gallery = nil
            let step = tile.target - (state.historyIndex ?? 0)
            return step == 0 ? [] : [.history(step: step)]
        }
    }

    /// `r`: the tile's entry becomes the one on screen and is checked now
    /// (a download of another entry is cancelled first); the gallery stays
    /// open and its tile follows what the check brings.
    private static func checkTile(_ state: inout ScreenState) -> [Effect] {
        guard let gallery = state.gallery, let target = gallery.selectedTile?.target else { return [] }
        guard target != state.index || state.loading == nil else { return [] }  // already being checked
        let cancel: [Effect] = state.loading != nil ? [.cancel] : []
        if target != state.index {
            state.index = target
            state.clearImage()
        }
        return cancel + [.display(force: true)]
    }

    /// `f`: pixels or block art, where the terminal has both.
    static func togglePixels(_ state: inout ScreenState) {
        guard state.pixelsAvailable else {
            state.status = .info(noPixelsStatus)
            return
        }
        state.showPixels.toggle()
    }

    /// A check of entry `index` ended while the gallery is open: its tile
    /// shows what the cache holds now, and its thumbnail is made again.
    public static func refreshTile(entry index: Int, copy: CachedCopy?, _ state: inout ScreenState) {
        guard var gallery = state.gallery, gallery.kind == .entries,
            let at = gallery.tiles.firstIndex(where: { $0.target == index })
        else { return }
        if let old = gallery.tiles[at].source { gallery.thumbnails[old] = nil }
        gallery.tiles[at].date = copy?.updated
        gallery.tiles[at].path = copy?.imagePath
        state.gallery = gallery
    }
}

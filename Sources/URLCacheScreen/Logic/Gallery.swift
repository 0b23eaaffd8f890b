import BlockArt
import FoundationEssentials
import URLCacheKit

/// `g` and `G`: a grid of what is cached, as plain data. It fetches
/// nothing: each tile is what the cache holds, and `r` checks one entry.
public struct Gallery: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// `g`: every entry of the list.
        case entries
        /// `G`: the kept images of the entry on screen, newest first.
        case history
    }

    public var kind: Kind
    public var tiles: [Tile]
    /// The tile the arrows move and Enter opens.
    public var selected: Int
    /// The first row of tiles on screen.
    public var scroll = 0
    /// Thumbnails decoded so far, by file.
    public var thumbnails: [String: Thumbnail] = [:]

    public init(kind: Kind, tiles: [Tile], selected: Int) {
        self.kind = kind
        self.tiles = tiles
        self.selected = tiles.isEmpty ? 0 : min(max(0, selected), tiles.count - 1)
    }

    /// The tile the arrows chose; nil in an empty gallery.
    public var selectedTile: Tile? { tiles.indices.contains(selected) ? tiles[selected] : nil }

    /// One picture of the grid.
    public struct Tile: Sendable, Equatable {
        public var title: String
        /// When it was checked last (entries) or first seen (kept images);
        /// nil: nothing is cached.
        public var date: Date?
        /// The cached file; nil when nothing is cached.
        public var path: String?
        /// What Enter opens: the entry's index, or the kept image's.
        public var target: Int
        /// Nothing cached, and the binary carries a picture for this URL
        /// (the first launch's): its thumbnail stands in.
        public var bundled: URL?

        public init(title: String, date: Date?, path: String?, target: Int, bundled: URL? = nil) {
            self.title = title
            self.date = date
            self.path = path
            self.target = target
            self.bundled = bundled
        }

        /// The line under the picture.
        public var dateLine: String {
            date.map(UpdatedFormat.day) ?? (bundled != nil ? "bundled, not yet downloaded" : "not cached")
        }

        /// Where its thumbnail comes from (the key it is kept under): the
        /// cached file, else the bundled picture; nil: it has none.
        public var source: String? { path ?? bundled.map { Tile.bundledPrefix + $0.absoluteString } }

        static let bundledPrefix = "bundled:"
    }

    /// A file's thumbnail, as decoded for a picture box.
    public struct Thumbnail: Sendable, Equatable {
        public var key: ThumbnailKey
        /// nil: the file could not be decoded.
        public var image: DecodedImage?
    }

    /// A file and the picture box (cells, of a size in pixels) it is decoded for.
    public struct ThumbnailKey: Sendable, Hashable {
        public var path: String
        public var columns: Int, rows: Int
        public var cellWidth: Int, cellHeight: Int
    }

    /// The entries of the list, each as its cache holds it (`lookup`
    /// gives an entry's current copy, or nil; `bundled`, whether the binary
    /// carries a picture for a URL).
    public static func entries(
        _ entries: [URLEntry],
        selected: Int,
        lookup: (URLEntry) -> CachedCopy?,
        bundled: (URL) -> Bool = { _ in false }
    ) -> Gallery {
        let tiles = entries.enumerated().map { index, entry in
            let copy = lookup(entry)
            return Tile(
                title: entry.displayName,
                date: copy?.updated,
                path: copy?.imagePath,
                target: index,
                bundled: copy == nil && bundled(entry.url) ? entry.url : nil
            )
        }
        return Gallery(kind: .entries, tiles: tiles, selected: selected)
    }

    /// An entry's kept images, newest first, titled by the feed's words
    /// for each where it gave some.
    public static func history(_ items: [HistoryItem], entry: URLEntry, selected: Int) -> Gallery {
        let tiles = items.enumerated().map { index, item in
            Tile(
                title: item.metadata?.caption.title
                    ?? (index == 0 ? entry.displayName : "\(entry.displayName) (\(index + 1))"),
                date: item.firstSeen,
                path: item.path,
                target: index
            )
        }
        return Gallery(kind: .history, tiles: tiles, selected: selected)
    }
}

/// Where the gallery's tiles go in the image area: a pure function of its
/// size. Tiles are about 24 columns wide, as many as fit across, each a
/// picture box of a 4:3 shape (a picture keeps its own aspect inside it)
/// over its title and date; rows of tiles scroll.
public struct GalleryLayout: Equatable, Sendable {
    /// Tiles in a row.
    public let across: Int
    /// A tile's width, and its picture box's rows.
    public let tileColumns: Int
    public let pictureRows: Int
    /// Rows of tiles on screen at once.
    public let rowsShown: Int
    let top: Int
    static let gap = 2
    static let targetColumns = 24

    public init(_ layout: Layout, cellAspect: Double) {
        let width = layout.columns - 2
        let gap = GalleryLayout.gap
        across = max(1, (width + gap) / (GalleryLayout.targetColumns + gap))
        tileColumns = (width - (across - 1) * gap) / across
        // 4:3 in pixels: a cell is cellAspect as wide as it is tall. Room
        // for the title and date under it, in the smallest area too.
        let fourByThree = Int(Double(tileColumns) * cellAspect * 0.75)
        pictureRows = max(1, min(fourByThree, layout.imageRows - 2))
        rowsShown = max(1, (layout.imageRows + 1) / (pictureRows + 3))
        top = layout.imageTop
    }

    /// A tile's height with the blank row under it.
    var stride: Int { pictureRows + 3 }

    /// The top-left cell of tile `index` with `scroll` rows scrolled
    /// away; nil when it is not on screen.
    public func origin(of index: Int, scroll: Int) -> (row: Int, column: Int)? {
        let row = index / across - scroll
        guard row >= 0, row < rowsShown else { return nil }
        return (top + row * stride, 1 + (index % across) * (tileColumns + GalleryLayout.gap))
    }

    /// The tile under a cell, if any of `count`.
    public func tile(atRow row: Int, column: Int, scroll: Int, count: Int) -> Int? {
        guard row >= top, column >= 1 else { return nil }
        let (tileRow, inRow) = ((row - top) / stride, (row - top) % stride)
        let (tileColumn, inColumn) = (
            (column - 1) / (tileColumns + GalleryLayout.gap), (column - 1) % (tileColumns + GalleryLayout.gap)
        )
        guard tileRow < rowsShown, inRow < stride - 1, tileColumn < across, inColumn < tileColumns else { return nil }
        let index = (tileRow + scroll) * across + tileColumn
        return index < count ? index : nil
    }

    /// The scroll that shows `selected`, moving as little as it can from
    /// `scroll`, and leaves no empty rows below the last of `count` tiles
    /// while there are rows above (after a resize made the grid wider).
    public func scroll(showing selected: Int, from scroll: Int, count: Int) -> Int {
        let lastRow = max(0, (count - 1) / across)
        var scroll = min(max(0, scroll), max(0, lastRow - rowsShown + 1))
        let row = selected / across
        if row < scroll { scroll = row }
        if row >= scroll + rowsShown { scroll = row - rowsShown + 1 }
        return scroll
    }

    /// `gallery` with its scroll settled for this layout: the chosen tile
    /// on screen (on opening, after a resize).
    public func settled(_ gallery: Gallery) -> Gallery {
        var gallery = gallery
        gallery.scroll = scroll(showing: gallery.selected, from: gallery.scroll, count: gallery.tiles.count)
        return gallery
    }
}

import BlockArt
import FoundationEssentials
import URLCacheKit

/// Everything the screen shows, as plain data: the view draws it and the
/// event handling changes it, both without a terminal.
public struct ScreenState: Sendable {
    /// The URL list's images and which one is on screen.
    public var entries: [URLEntry]
    public var index = 0
    /// The status line: one of the original's three, or what went wrong.
    public var status = StatusLine.empty
    /// The cached file's modification time: the last successful check.
    public var updated: Date?
    /// The decoded image, kept so that a resize re-renders without the file.
    public var image: DecodedImage?
    /// Where `image` came from, for a zoomed view's decode.
    public var imageSource: PictureSource?
    /// The animation the image is a frame of (nil for a still).
    public var playback: Playback?
    /// A Display Image asked for while the loader was busy: started when it is done.
    public var queuedLoad: QueuedLoad?
    /// The animation as the shell plays it: the frame made ready ahead,
    /// held and carried frames, timing.
    public var animation = AnimationState()
    /// The part of the image on screen: all of it, or a zoomed region.
    public var viewport = Viewport()
    /// Counts the zoomed views asked for: a decode of an older one is dropped.
    public var viewRequests = 0
    /// The zoomed view's picture (nil at zoom 1): the region scaled up
    /// from the pixels at hand at once, then sharp from the file.
    public var zoomed: ZoomedPicture?
    /// The last sharp view's pixels, decoded with a margin around its
    /// region: a pan that stays inside is cut from them, sharp at once.
    public var viewPixels: ViewPixels?
    /// Where the first button went down on the picture: a drag's start.
    public var dragStart: (row: Int, column: Int)?
    /// The image is the picture the binary carries, not a downloaded one.
    public var isBundled: Bool { imageSource?.isBundled ?? false }
    /// Show the picture in pixels where the terminal can (`f` switches to
    /// block art and back, so people can compare).
    public var showPixels = true
    /// The terminal shows pixels at all (else `f` says it cannot).
    public var pixelsAvailable = false
    /// `g` `G`: the grid of what is cached, over the image area.
    public var gallery: Gallery?
    /// A download in progress.
    public var loading: Loading?
    /// A box over the screen.
    public var overlay: Overlay? {
        didSet { if overlay != oldValue { boxScroll = 0 } }
    }
    /// Lines the box's text is scrolled down (`i` with a long description).
    public var boxScroll = 0
    /// The words a feed gave with the image on screen (title, credit,
    /// description); nil for plain image URLs.
    public var caption: Caption?
    /// How long the copy on screen stays fresh after its check: the fixed
    /// interval, or what the server said (`--freshness server`); nil: the
    /// fixed interval.
    public var freshFor: TimeInterval?
    /// `[` `]`: which of the entry's kept images is on screen (0 the newest);
    /// nil: the current one, as Display Image left it.
    public var historyIndex: Int?
    /// `o`: cached copies only, no request at all (shown on the status line).
    public var offline = false
    /// When a check last failed or was cancelled (so that none by itself
    /// follows at once, nor every tick).
    public var lastFailedCheck: Date?
    /// Until when checks by themselves wait after failures in a row (the
    /// entry's `FailureStreak`).
    public var backOffUntil: Date?
    public var quitting = false
    /// Clear Cache emptied the fields, as the original does: "Updated:"
    /// stays blank rather than saying "never" until the next image.
    public var fieldsCleared = false

    /// The fixed interval between checks (the list's `refreshInterval`).
    public var refreshInterval: TimeInterval

    /// Each entry's freshness rule, decided once at the start.
    public internal(set) var rules: [FreshnessRule]

    /// The rule of the entry on screen (the fixed one when none was given).
    public var rule: FreshnessRule {
        rules.indices.contains(index) ? rules[index] : FreshnessRule(mode: .fixed, refreshInterval: refreshInterval)
    }

    /// `offline` and `pixelsAvailable` as the command line and the
    /// terminal set them at the start.
    public init(
        entries: [URLEntry],
        offline: Bool = false,
        pixelsAvailable: Bool = false,
        refreshInterval: TimeInterval = RefreshPolicy.defaultInterval,
        rules: [FreshnessRule] = []
    ) {
        self.entries = entries
        self.offline = offline
        self.pixelsAvailable = pixelsAvailable
        self.refreshInterval = refreshInterval
        self.rules = rules
    }

    /// How long the copy on screen stays fresh: what the server said, or
    /// the fixed interval.
    public var checkInterval: TimeInterval { freshFor ?? refreshInterval }

    /// The entry on screen.
    public var entry: URLEntry { entries[index] }

    /// Empties the image and its fields: another entry, or a cleared cache.
    mutating func clearImage() {
        image = nil
        imageSource = nil
        resetView()
        updated = nil
        caption = nil
        historyIndex = nil
        freshFor = nil
        backOffUntil = nil
        status = .empty
        fieldsCleared = false
    }

    /// Back to the whole image fitted: a new image, another entry, Clear
    /// Cache, another kept image.
    mutating func resetView() {
        viewport = Viewport()
        zoomed = nil
        viewPixels = nil
        dragStart = nil
    }

    /// What the image area shows: the zoomed view's picture, else the image.
    public var shownImage: DecodedImage? { viewport.isZoomed ? zoomed?.image ?? image : image }

    /// The shown image's sRGB bytes, where a sharp view has them at hand.
    public var shownBytes: PixelImage? { viewport.isZoomed ? zoomed?.bytes : nil }

    /// A zoomed view's picture.
    public struct ZoomedPicture: Sendable, Equatable {
        /// Its pixels, with `info` the region's size, so that it is laid
        /// out as an image of that shape.
        public var image: DecodedImage
        /// The source region it shows.
        public var region: ImageRegion
        /// Decoded from the file for this region (not scaled up from
        /// pixels at hand).
        public var sharp: Bool
        /// A sharp view's sRGB bytes as cut, when cut at the size asked
        /// for: a picture of pixels of that size is sent them as they are,
        /// not made again from `image`'s floats (5 ms a 1280×748 pan).
        public var bytes: PixelImage? = nil
    }

    /// Pixels decoded from the file for a region of the picture (a view
    /// and its margin), at the scale the view asked for: in sRGB bytes,
    /// a quarter of the floats' memory, and exactly what a picture of
    /// pixels cut from them is sent as.
    public struct ViewPixels: Sendable, Equatable {
        public var source: PictureSource
        public var region: ImageRegion
        public var pixels: PixelImage
    }

    /// A Display Image that waits for the loader.
    public struct QueuedLoad: Sendable, Equatable {
        public var force: Bool
        public var automatic: Bool
        public var asked: Bool
    }

    /// Where the image on screen can be decoded again from.
    public enum PictureSource: Sendable, Equatable {
        /// A cached file: the current copy or a kept one.
        case file(String)
        /// The picture the binary carries for this URL.
        case bundled(URL)

        /// The picture the binary carries.
        public var isBundled: Bool { if case .bundled = self { true } else { false } }
    }

    /// What is under way.
    public struct Loading: Sendable, Equatable {
        public var index: Int
        public var started: Date
        public var progress: TransferProgress?
        public var automatic: Bool
        /// A person pressed Display Image or re-check: a failure opens a box.
        public var asked = false
        /// Another urlcache holds the entry: we wait for it (its pid when known).
        public var waiting: Waiting?
        /// The copy on screen is stale but inside its stale-while-revalidate
        /// window: shown while this check goes on.
        public var revalidating = false
    }

    /// Another process is working on the entry.
    public struct Waiting: Sendable, Equatable {
        public var pid: Int32?

        public init(pid: Int32?) { self.pid = pid }
    }

    /// A box over the screen.
    public enum Overlay: Equatable, Sendable {
        /// The original's URLCacheAlert: an error, closed with Enter.
        case alert(String)
        /// "Do you really want to clear the cache?"
        case confirmClear
        /// Every key.
        case help
        /// `i`: the feed's description of the image.
        case about
        /// `a`: the catalogue's sources, source number `chosen` marked.
        case catalogue(chosen: Int)
    }

    /// What a feed said about its image.
    public struct Caption: Sendable, Equatable {
        public var title: String?
        public var credit: String?
        public var description: String?
        public var link: String?
        /// Which of the sizes offered was taken (`TakenSize.summary`).
        public var size: String?

        public init(title: String?, credit: String?, description: String?, link: String?, size: String? = nil) {
            self.title = title
            self.credit = credit
            self.description = description
            self.link = link
            self.size = size
        }

        /// From the cache's record; nil when it holds none of the words.
        init?(_ metadata: CacheRecord?) {
            guard let words = metadata?.caption, words.title != nil || words.credit != nil || words.description != nil
            else { return nil }
            title = words.title
            credit = words.credit
            description = words.description
            link = words.link
            size = metadata?.image.size?.summary
        }
    }
}

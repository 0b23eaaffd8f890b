import FoundationEssentials
import URLCacheSupport

/// One image of the URL list: where it lives and what to call it.
public struct URLEntry: Sendable, Equatable {
    /// The image's address, or for a feed entry the feed's: http or https,
    /// checked when the list is read. The cache keys the entry by it.
    public var url: URL
    /// The name the list gives it, if any.
    public var title: String?
    /// Set when `url` is a feed that announces the image (`feed` in the list).
    public var feed: FeedSpec?
    /// The entry's own freshness rule (`freshness` in its dict), if any.
    public var freshness: FreshnessMode?
    /// The entry's own `onNewImage` program and arguments, if any.
    public var onNewImage: [String]?
    /// Why this entry of the list cannot be used (not a URL, a dict without
    /// one): it is kept in its place so that the others keep their numbers,
    /// and checking it reports this.
    public var problem: ConfigError?

    public init(url: URL, title: String? = nil, feed: FeedSpec? = nil, freshness: FreshnessMode? = nil) {
        self.url = url
        self.title = title
        self.feed = feed
        self.freshness = freshness
    }

    /// Entry `index` of the list, which cannot be used because of `problem`.
    init(unusable index: Int, problem: ConfigError) {
        // Never fetched or cached: the controller stops at `problem`.
        self.url = URL(string: "invalid:entry-\(index)") ?? URL(fileURLWithPath: "/")
        self.title = "Entry \(index) (cannot be used)"
        self.problem = problem
    }

    /// The title, else the URL's host and file name ("host/latest.jpg"),
    /// with control characters made harmless.
    public var displayName: String {
        if let title, !title.isEmpty { return title.terminalSafe }
        let host = url.host ?? url.absoluteString
        let file = url.lastPathComponent
        return (file.isEmpty || file == "/" ? host : "\(host)/\(file)").terminalSafe
    }

    /// The hook for this entry: its own, else the list's.
    public func newImageHook(in settings: ListSettings) -> NewImageHook? {
        (onNewImage ?? settings.onNewImage).map { NewImageHook(command: $0) }
    }
}

/// How a feed entry's image is found in its feed.
public struct FeedSpec: Sendable, Equatable {
    /// A dotted key path into a JSON feed (`hdurl`, `images.0.url`); nil
    /// tries `hdurl`, `url`, `image`, `images.0.url`. Unused for XML and HTML.
    public var select: String?

    public init(select: String? = nil) { self.select = select }
}

/// Settings a URL list may carry beside its images, each also settable on
/// the command line (which wins).
public struct ListSettings: Sendable, Equatable {
    /// Seconds after a successful check during which the cached copy is shown
    /// with no network at all (the original's 24 hours).
    public var refreshInterval: TimeInterval?
    /// Seconds allowed to open a connection.
    public var connectTimeout: TimeInterval?
    /// Seconds a transfer may go without a byte before it is abandoned.
    public var stallTimeout: TimeInterval?
    /// Seconds a whole transfer, or the wait for another process's lock, may take.
    public var maxTime: TimeInterval?
    /// The largest image accepted, in bytes.
    public var maxImageBytes: Int?
    /// The largest feed accepted, in bytes (default 2 MiB).
    public var maxFeedBytes: Int?
    /// The freshness rule for every entry that names none.
    public var freshness: FreshnessMode?
    /// How many distinct images each entry keeps (default 7).
    public var keep: Int?
    /// The whole cache's bound in bytes (default 512 MiB).
    public var maxCacheBytes: Int?
    /// The program and arguments run after a new image is committed, for
    /// every entry that names none of its own.
    public var onNewImage: [String]?
    /// Which size of a picture offered in several to take.
    public var size: SizePolicy?

    public init(
        refreshInterval: TimeInterval? = nil,
        connectTimeout: TimeInterval? = nil,
        stallTimeout: TimeInterval? = nil,
        maxImageBytes: Int? = nil,
        maxFeedBytes: Int? = nil
    ) {
        self.refreshInterval = refreshInterval
        self.connectTimeout = connectTimeout
        self.stallTimeout = stallTimeout
        self.maxImageBytes = maxImageBytes
        self.maxFeedBytes = maxFeedBytes
    }
}

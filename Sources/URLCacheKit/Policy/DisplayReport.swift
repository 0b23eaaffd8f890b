import URLCacheSupport

/// The original's three status lines.
public enum DisplayOutcome: Sendable, Equatable {
    /// The copy was checked within the refresh interval: no network used.
    case previouslyCached
    /// A new image was downloaded and cached.
    case newlyCached
    /// The server confirmed the copy is current.
    case upToDate
    /// `Cache-Control: no-store` under the server's rules: shown, not kept.
    case notStored
    /// `--offline`: the cached copy, whatever its age; no request made.
    case offline
    /// The feed's item today is no picture (APOD's video days): the
    /// previous image stays.
    case notAnImageToday(kind: String, link: String?)
    /// The feed's item today is no picture, and a still of it (APOD's
    /// video thumbnail) is shown in its place; `new` when the still was
    /// downloaded and cached by this check.
    case stillOfToday(kind: String, link: String?, new: Bool)

    /// Whether this check committed a new image to the cache (what the
    /// `onNewImage` hook runs for).
    public var isNewImage: Bool {
        switch self {
        case .newlyCached: return true
        case let .stillOfToday(_, _, new): return new
        default: return false
        }
    }

    /// The status line, in the original's words.
    public var statusLine: String {
        switch self {
        case .previouslyCached: return "Previously cached image"
        case .newlyCached: return "Newly cached image"
        case .upToDate: return "Cached image is up to date"
        case .offline: return "Offline: cached image, no request made"
        case .notStored: return "Not cached: the server said no-store (shown once, nothing written)"
        case let .notAnImageToday(kind, link):
            return
                "Today's item is \(FeedItem.Media.phrase(kind: kind, link: link).terminalSafe); showing the previous image"
        case let .stillOfToday(kind, link, _):
            return
                "Today's item is \(FeedItem.Media.phrase(kind: kind, link: link).terminalSafe) (a still of it is shown)"
        }
    }
}

/// What one Display Image did.
public struct DisplayReport: Sendable, Equatable {
    /// The outcome, or why it failed.
    public var result: Result<DisplayOutcome, FetchError>
    /// The cached copy after the action (the previous one when it failed).
    public var copy: CachedCopy?

    public init(result: Result<DisplayOutcome, FetchError>, copy: CachedCopy?) {
        self.result = result
        self.copy = copy
    }
}

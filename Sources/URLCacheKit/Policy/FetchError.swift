import URLCacheSupport

/// Why Display Image could not show a new or confirmed image. When a cached
/// copy exists it stays as it was, and is still shown.
public enum FetchError: Error, Equatable, CustomStringConvertible {
    /// The network failed (offline, DNS, timeout, TLS, limits, cancel).
    case transport(TransportError)
    /// The server answered with a status other than 200 or 304.
    case httpStatus(status: Int, reason: String, contentType: String?)
    /// The body is not an image we can show (an HTML page, a GIF, empty).
    case notAnImage(what: String, status: Int, contentType: String?)
    /// 304 Not Modified although there is no cached copy to keep.
    case notModifiedWithoutCopy
    /// 304 Not Modified to a request that named no validator: it confirms
    /// nothing, so the copy is not marked checked.
    case unaskedNotModified
    /// A 2xx other than 200 and 203 (206 Partial Content, say) to a plain
    /// GET: the body is not the whole image, whatever it looks like.
    case notTheWholeImage(status: Int, reason: String)
    /// The body looked like an image but did not decode: cut short
    /// (`detail` nil) or damaged, in the decoder's words. Never committed.
    case damagedImage(format: String, bytes: Int64, detail: String?)
    /// The body decodes as an image we will not show (too large), or it
    /// could not be read back to be checked (out of memory, EMFILE).
    case cannotShow(detail: String)
    /// The cache could not be read or written.
    case cache(CacheError)
    /// The feed named no image we can fetch.
    case feed(FeedError)
    /// The image a feed announced could not be fetched.
    indirect case announcedImage(url: String, error: FetchError)
    /// The feed's item is no picture and nothing is cached yet.
    case noImageYet(kind: String, link: String?)
    /// `--offline` with nothing cached for the entry.
    case offlineNothingCached
    /// Under the server's rules, the server's last answer was a 404 or 410
    /// with a lifetime that still stands: nothing was asked.
    case refusalRemembered(Refusal)
    /// A 429 or 503 asked us to wait (Retry-After), and the time has not
    /// come: nothing was asked.
    case askedToWait(Patience)
    /// The check failed, and the stale copy still shown came with
    /// `must-revalidate` or `no-cache` (named in `directive`), under
    /// `--freshness server`: its server requires revalidation.
    indirect case staleRequiresRevalidation(FetchError, directive: String)
    /// The server's error answer came with Retry-After: it is remembered
    /// (`askedToWait` until then), and said with the error.
    indirect case waitAsked(FetchError, Patience)
    /// An automatic check after failures in a row: it waits (`FailureStreak`),
    /// and nothing was asked.
    case backingOff(FailureStreak)
    /// The list's entry cannot be used (not a URL, say): nothing was asked.
    case unusableEntry(ConfigError)

    /// What a status other than 200, 203 or 304 means: a 2xx is not the
    /// whole image (we never send Range), anything else an error status.
    static func status(of head: ResponseHead) -> FetchError {
        (200..<300).contains(head.status)
            ? .notTheWholeImage(status: head.status, reason: head.reason)
            : .httpStatus(status: head.status, reason: head.reason, contentType: head.contentType)
    }

    public var description: String {
        switch self {
        case let .transport(error):
            return error.description
        case let .httpStatus(status, reason, contentType):
            let type = contentType.map { ", \($0.terminalSafe)" } ?? ""
            let phrase = reason.isEmpty ? "" : " \(reason.terminalSafe)"
            return "server answered HTTP \(status)\(phrase)\(type)"
        case let .notAnImage(what, status, contentType):
            let type = contentType.map { ", \($0.terminalSafe)" } ?? ""
            return "server sent \(what.terminalSafe), not an image urlcache decodes (HTTP \(status)\(type))"
        case .notModifiedWithoutCopy:
            return "server answered 304 Not Modified but nothing is cached"
        case .unaskedNotModified:
            return "server answered 304 Not Modified to a request that named no version of the image"
        case let .notTheWholeImage(status, reason):
            let phrase = reason.isEmpty ? "" : " \(reason.terminalSafe)"
            return "server answered HTTP \(status)\(phrase) to a request for the whole image; nothing was kept"
        case let .damagedImage(format, bytes, nil):
            return
                "the server's image is cut short: \(bytes) bytes of \(format.terminalSafe) data end before the picture does"
        case let .cannotShow(detail):
            return "the server's image was not kept: \(detail.terminalSafe)"
        case let .damagedImage(_, bytes, detail?):
            return "the server's image is damaged (\(bytes) bytes received): \(detail.terminalSafe)"
        case let .cache(error):
            return error.description
        case let .feed(error):
            return error.description
        case let .announcedImage(url, error):
            return "image \(url.terminalSafe) (from the feed): \(error.description)"
        case let .noImageYet(kind, link):
            return
                "today's item is \(FeedItem.Media.phrase(kind: kind, link: link).terminalSafe), and no earlier image is cached"
        case let .waitAsked(error, patience):
            return "the server asked to wait until \(UpdatedFormat.time(patience.until, after: patience.at)) (\(error))"
        case let .backingOff(streak):
            let failures = streak.count == 1 ? "a failed check" : "\(streak.count) failed checks in a row"
            return
                "after \(failures), automatic checks wait until \(UpdatedFormat.time(streak.until, after: streak.at)) (fetch --entry N, Display Image and r ask at once)"
        case let .unusableEntry(error):
            return error.description
        case .offlineNothingCached:
            return "nothing cached for this entry (offline: no request made)"
        case let .askedToWait(patience):
            return
                "the server asked to wait until \(UpdatedFormat.time(patience.until, after: patience.at)) (HTTP \(patience.status) at \(UpdatedFormat.time(patience.at))); no request was made"
        case let .refusalRemembered(refusal):
            return
                "the server said \(refusal.status) at \(UpdatedFormat.time(refusal.at)); asking again after \(UpdatedFormat.time(refusal.until, after: refusal.at))"
        case let .staleRequiresRevalidation(error, directive):
            return "\(error.description); the copy shown is stale and its server requires revalidation (\(directive))"
        }
    }

    /// Whether the user asked for it (Esc): not shown as an alert.
    public var isCancellation: Bool {
        if case let .announcedImage(_, error) = self { return error.isCancellation }
        if case let .staleRequiresRevalidation(error, _) = self { return error.isCancellation }
        return self == .transport(.cancelled) || self == .cache(.lockWaitCancelled)
    }
}

import Foundation
internal import CCurlLoader

/// HTTP dates (Last-Modified, Date, Expires), in every form servers send
/// (RFC 1123, RFC 850, asctime), through libcurl's own parser: a pure
/// function, needing no transfer.
public enum HTTPDate {
    /// The date `text` names, or nil when it cannot be read (or libcurl
    /// cannot be loaded).
    public static func parse(_ text: String) -> Date? {
        guard ccurl_load() == 0 else { return nil }
        let seconds = ccurl_getdate(text)
        return seconds < 0 ? nil : Date(timeIntervalSince1970: TimeInterval(seconds))
    }
}

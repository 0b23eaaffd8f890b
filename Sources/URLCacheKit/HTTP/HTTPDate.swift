import Foundation
internal import CCurl

/// HTTP dates (Last-Modified, Date, Expires), in every form servers send
/// (RFC 1123, RFC 850, asctime), through libcurl's own parser: a pure
/// function, needing no transfer.
public enum HTTPDate {
    /// The date `text` names, or nil when it cannot be read.
    public static func parse(_ text: String) -> Date? {
        let seconds = curl_getdate(text, nil)
        return seconds < 0 ? nil : Date(timeIntervalSince1970: TimeInterval(seconds))
    }
}

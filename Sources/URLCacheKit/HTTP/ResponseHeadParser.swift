import FoundationEssentials
import URLCacheSupport

/// Reads response header lines as libcurl hands them over, one per call,
/// every response of a redirect chain in turn, and says when the final
/// response's head is complete: a pure state machine, tested on its own.
struct ResponseHeadParser {
    /// The head of the response whose lines are arriving (each status line
    /// starts anew).
    private(set) var current = ResponseHead()
    private var location: String?
    /// Whether a redirect came before in this chain.
    private var redirected = false
    /// The chain's first response, when it moved the resource for good.
    private var firstHop: RedirectHop?

    /// Takes one line (with or without its CRLF). Returns the head when
    /// this line, the empty one, ended a final response's headers; nil for
    /// every other line, and for the end of an interim (1xx) response or a
    /// redirect that libcurl follows.
    mutating func take(_ line: String) -> ResponseHead? {
        if line.hasPrefix("HTTP/") {
            current = ResponseHead()
            location = nil
            let parts = line.trimming(.whitespacesAndNewlines).split(separator: " ", maxSplits: 2)
            current.status = parts.count > 1 ? Int(parts[1]) ?? 0 : 0
            current.reason = parts.count > 2 ? String(parts[2]) : ""
            return nil
        }
        let trimmed = line.trimming(.scalars("\r\n"))
        if trimmed.isEmpty {
            if (100..<200).contains(current.status) { return nil }
            if (300..<400).contains(current.status), current.status != 304, let location {
                if !redirected, current.status == 301 || current.status == 308 {
                    firstHop = RedirectHop(current, location: location)
                }
                redirected = true
                return nil
            }
            current.permanentRedirect = firstHop
            return current
        }
        guard let colon = trimmed.firstIndex(of: ":") else { return nil }
        let name = trimmed[..<colon].lowercased()
        let value = trimmed[trimmed.index(after: colon)...].trimming(.whitespaces)
        switch name {
        case "etag": current.validators.etag = value
        case "last-modified": current.validators.lastModified = value
        case "content-type": current.contentType = value
        case "content-length": current.contentLength = Int64(value)
        case "location": location = value
        case "cache-control": current.cacheControl = current.cacheControl.map { $0 + ", " + value } ?? value
        // Two Expires lines join into no date at all: already expired (RFC 9111 §5.3).
        case "expires": current.expires = current.expires.map { $0 + ", " + value } ?? value
        case "date": current.date = current.date ?? value
        // The first Age line counts (RFC 9111 §5.1).
        case "age": current.age = current.age ?? value
        case "retry-after": current.retryAfter = current.retryAfter ?? value
        default: break
        }
        return nil
    }
}

/// A permanent redirect (301, 308) a transfer followed, with the headers
/// that say how long it may be remembered.
public struct RedirectHop: Sendable, Equatable {
    public var status: Int
    /// The Location header, as sent (maybe relative).
    public var location: String
    public var cacheControl: String? = nil
    public var expires: String? = nil
    public var date: String? = nil
    public var age: String? = nil

    /// Its own head, for the freshness rules.
    var head: ResponseHead {
        ResponseHead(status: status, cacheControl: cacheControl, expires: expires, date: date, age: age)
    }
}

extension RedirectHop {
    /// The redirect `head` that sent us to `location`.
    init(_ head: ResponseHead, location: String) {
        self.init(
            status: head.status,
            location: location,
            cacheControl: head.cacheControl,
            expires: head.expires,
            date: head.date,
            age: head.age
        )
    }
}

import URLCacheSupport

/// Why a transfer did not produce a response we can use. The descriptions are
/// one line each and name the host or the limit involved.
public enum TransportError: Error, Equatable, CustomStringConvertible {
    /// DNS found no such host.
    case cannotResolve(host: String)
    /// The host did not accept a connection (refused, unreachable).
    case cannotConnect(host: String, detail: String)
    /// The proxy a proxy variable names could not be found or reached: the
    /// image's host was never asked.
    case proxyUnreachable(proxy: String, detail: String)
    /// What answered is no HTTP server (an SSH or SMTP port, say).
    case notHTTP(host: String)
    /// No connection within the connect timeout.
    case connectTimeout(host: String, seconds: Int)
    /// No byte arrived for the stall timeout.
    case stalled(seconds: Int)
    /// The whole transfer took longer than `maxTime` (`--max-time`).
    case timedOut(seconds: Int)
    /// More redirects than allowed (a loop, usually).
    case tooManyRedirects(limit: Int)
    /// A redirect, or the URL, named a scheme other than http or https.
    case disallowedScheme(detail: String)
    /// TLS failed: certificate not trusted, handshake error.
    case tls(detail: String)
    /// The body grew past the size limit.
    case tooLarge(limit: Int64)
    /// A response header line longer than libcurl accepts (100 KB).
    case headerTooLarge
    /// The connection closed before the announced body was complete.
    case truncated(detail: String)
    /// The body's compression could not be undone.
    case badEncoding(detail: String)
    /// Cancelled by the user (Esc on the screen).
    case cancelled
    /// libcurl refused an option the transfer's safety rests on (protocols,
    /// redirects, TLS checks, limits): nothing is asked without it.
    case optionRefused(option: String, detail: String)
    /// Anything else libcurl reports, in its words.
    case other(detail: String)

    public var description: String {
        switch self {
        case let .cannotResolve(host): return "could not resolve host \(host.terminalSafe)"
        case let .cannotConnect(host, detail):
            return "could not connect to \(host.terminalSafe): \(detail.terminalSafe)"
        case let .proxyUnreachable(proxy, detail):
            return "could not reach the proxy \(proxy.terminalSafe): \(detail.terminalSafe)"
        case let .notHTTP(host): return "\(host.terminalSafe) did not answer in HTTP (is it the right host and port?)"
        case let .connectTimeout(host, seconds):
            return "no connection to \(host.terminalSafe) within \(seconds) s (connect timeout)"
        case let .stalled(seconds): return "transfer stalled: no data for \(seconds) s (stall timeout)"
        case let .timedOut(seconds):
            return "gave up after \(seconds) s: the transfer took longer than the time limit (--max-time)"
        case let .tooManyRedirects(limit): return "too many redirects (more than \(limit))"
        case let .disallowedScheme(detail):
            return "redirect or URL to a scheme other than http/https refused: \(detail.terminalSafe)"
        case let .tls(detail): return "TLS error: \(detail.terminalSafe)"
        case let .tooLarge(limit): return "image larger than the \(ByteCount.format(limit)) limit"
        case .headerTooLarge: return "server sent a header line over 100 KB"
        case let .truncated(detail): return "download cut short: \(detail.terminalSafe)"
        case let .badEncoding(detail): return "bad content encoding: \(detail.terminalSafe)"
        case .cancelled: return "download cancelled"
        case let .optionRefused(option, detail):
            return "libcurl refused \(option) (\(detail.terminalSafe)): no transfer without it"
        case let .other(detail): return detail.terminalSafe
        }
    }
}

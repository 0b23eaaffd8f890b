internal import CCurlLoader
import FoundationEssentials
import URLCacheSupport

/// The transport over libcurl: http and https only (redirects included, at
/// most five), TLS verified, bounded in time and size, gzip accepted, proxy
/// variables honoured (libcurl reads them itself). Every transfer of the
/// process runs on one multi handle, so connections are reused across
/// transfers and threads, and HTTP/2 (offered over TLS) carries transfers
/// to one host at once as streams of one connection.
public struct CurlTransport: Transport {
    public let userAgent: String
    /// Certificates to trust instead of the system's, as curl takes them.
    public let trust: TrustedCertificates

    public init(userAgent: String = URLCacheVersion.userAgent) {
        self.userAgent = userAgent
        self.trust = TrustedCertificates(environment: ProcessInfo.processInfo.environment)
    }

    public func perform<R: TransferReceiver>(
        _ request: TransferRequest,
        receiver: R
    ) throws(TransportError) -> TransferOutcome<R.Stop> {
        // libcurl is opened on the first transfer (CCurlLoader says why).
        guard ccurl_load() == 0 else { throw .other(detail: String(cString: ccurl_load_error())) }
        guard let handle = ccurl_easy_init() else { throw .other(detail: "libcurl could not start a transfer") }
        defer { ccurl_easy_cleanup(handle) }
        // The receiver's reason to stop, when it gives one.
        var stop: R.Stop?
        func decide(_ decision: TransferDecision<R.Stop>) -> Bool {
            guard case let .stop(reason) = decision else { return true }
            stop = reason
            return false
        }
        let context = CurlTransferContext(
            limits: request.limits,
            onHead: { decide(receiver.head($0)) },
            onBody: { decide(receiver.body($0)) },
            onProgress: { receiver.progress($0) }
        )
        // What the transfer's safety rests on is checked: a libcurl that
        // refuses one of these would otherwise run with its own default
        // (every protocol, unlimited redirects, no size limit).
        if let refused = CurlTransport.secure(
            handle,
            request,
            timeLeft: request.limits.timeLeft(since: context.started)
        ) {
            throw .optionRefused(option: refused.option, detail: String(cString: ccurl_easy_strerror(refused.code)))
        }
        var errorBuffer = [CChar](repeating: 0, count: Int(ccurl_error_size()) + 1)
        let headers = CurlTransport.headers(request)
        defer { ccurl_slist_free_all(headers) }

        let code: CURLcode = errorBuffer.withUnsafeMutableBufferPointer { buffer in
            ccurl_setopt_pointer(handle, CURLOPT_ERRORBUFFER, buffer.baseAddress)
            transferOptions(handle, request, headers: headers, context: context)
            return ccurl_shared_perform(handle)
        }
        if code == CURLE_OK || (code == CURLE_WRITE_ERROR && stop != nil) {
            return TransferOutcome(head: context.finalHead ?? context.parser.current, stopped: stop)
        }
        throw CurlTransport.error(
            code,
            detail: CurlTransport.detail(errorBuffer, code),
            context: context,
            request: request
        )
    }

    /// What this transfer sends and where its head, body and progress go
    /// (`context`, through the C callbacks), besides `secure`'s safety.
    private func transferOptions(
        _ handle: UnsafeMutableRawPointer,
        _ request: TransferRequest,
        headers: UnsafeMutablePointer<curl_slist>?,
        context: CurlTransferContext
    ) {
        let user = Unmanaged.passUnretained(context).toOpaque()
        ccurl_setopt_string(handle, CURLOPT_URL, request.url.absoluteString)
        ccurl_setopt_string(handle, CURLOPT_ACCEPT_ENCODING, "")
        ccurl_setopt_string(handle, CURLOPT_USERAGENT, userAgent)
        ccurl_setopt_long(handle, CURLOPT_SUPPRESS_CONNECT_HEADERS, 1)
        ccurl_setopt_slist(handle, CURLOPT_HTTPHEADER, headers)
        ccurl_setopt_data_fn(handle, CURLOPT_HEADERFUNCTION, curlHeaderCallback)
        ccurl_setopt_pointer(handle, CURLOPT_HEADERDATA, user)
        ccurl_setopt_data_fn(handle, CURLOPT_WRITEFUNCTION, curlWriteCallback)
        ccurl_setopt_pointer(handle, CURLOPT_WRITEDATA, user)
        ccurl_setopt_xferinfo_fn(handle, curlProgressCallback)
        ccurl_setopt_pointer(handle, CURLOPT_XFERINFODATA, user)
        ccurl_setopt_long(handle, CURLOPT_NOPROGRESS, 0)
        connectionOptions(handle, request)
    }

    /// The request's own header lines, made safe to send; the caller frees the list.
    private static func headers(_ request: TransferRequest) -> UnsafeMutablePointer<curl_slist>? {
        var headers: UnsafeMutablePointer<curl_slist>?
        if let accept = request.accept { headers = ccurl_slist_append(headers, "Accept: \(accept.headerSafe)") }
        if let etag = request.ifNoneMatch { headers = ccurl_slist_append(headers, "If-None-Match: \(etag.headerSafe)") }
        if let since = request.ifModifiedSince {
            headers = ccurl_slist_append(headers, "If-Modified-Since: \(since.headerSafe)")
        }
        return headers
    }

    /// What libcurl wrote in the error buffer, else its words for `code`.
    private static func detail(_ errorBuffer: [CChar], _ code: CURLcode) -> String {
        let message = String(
            decoding: errorBuffer.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) },
            as: UTF8.self
        )
        .trimming(.whitespacesAndNewlines)
        return message.isEmpty ? String(cString: ccurl_easy_strerror(code)) : message
    }

    /// How the transfer shares connections, and whom it trusts.
    private func connectionOptions(_ handle: UnsafeMutableRawPointer, _ request: TransferRequest) {
        // HTTP/2 where TLS offers it (libcurl's default since 7.62, said
        // here). Over TLS, a transfer that starts while another connects
        // to the same host waits to learn whether it can be a stream on
        // that connection; in plain HTTP/1.1 the wait would queue it
        // behind the other transfer instead of opening its own. (Before
        // libcurl 8.8, curl issue 13227, a transfer waiting so sees no
        // timeout and no progress callback, so no cancel, until the other
        // connection is up; that one's connect timeout bounds the wait.)
        ccurl_setopt_long(handle, CURLOPT_HTTP_VERSION, Int(CURL_HTTP_VERSION_2TLS))
        if request.url.scheme?.lowercased() == "https" { ccurl_setopt_long(handle, CURLOPT_PIPEWAIT, 1) }
        if let file = trust.file { ccurl_setopt_string(handle, CURLOPT_CAINFO, file) }
        if let directory = trust.directory { ccurl_setopt_string(handle, CURLOPT_CAPATH, directory) }
    }

    /// Sets the options the transfer's safety rests on; the first libcurl
    /// refuses, by name, or nil when it took them all.
    private static func secure(
        _ handle: UnsafeMutableRawPointer,
        _ request: TransferRequest,
        timeLeft: TimeInterval
    ) -> (option: String, code: CURLcode)? {
        let limits = request.limits
        // At least 1 ms (0 is "no limit" to libcurl), at most a year.
        let total = Int(min(max(timeLeft, 0.001), 31_536_000) * 1000)
        let settings: [(String, () -> CURLcode)] = [
            ("CURLOPT_PROTOCOLS_STR", { ccurl_setopt_string(handle, CURLOPT_PROTOCOLS_STR, "http,https") }),
            ("CURLOPT_REDIR_PROTOCOLS_STR", { ccurl_setopt_string(handle, CURLOPT_REDIR_PROTOCOLS_STR, "http,https") }),
            ("CURLOPT_FOLLOWLOCATION", { ccurl_setopt_long(handle, CURLOPT_FOLLOWLOCATION, 1) }),
            ("CURLOPT_MAXREDIRS", { ccurl_setopt_long(handle, CURLOPT_MAXREDIRS, limits.maxRedirects) }),
            ("CURLOPT_SSL_VERIFYPEER", { ccurl_setopt_long(handle, CURLOPT_SSL_VERIFYPEER, 1) }),
            ("CURLOPT_SSL_VERIFYHOST", { ccurl_setopt_long(handle, CURLOPT_SSL_VERIFYHOST, 2) }),
            (
                "CURLOPT_CONNECTTIMEOUT_MS",
                { ccurl_setopt_long(handle, CURLOPT_CONNECTTIMEOUT_MS, Int(limits.connectTimeout * 1000)) }
            ),
            ("CURLOPT_TIMEOUT_MS", { ccurl_setopt_long(handle, CURLOPT_TIMEOUT_MS, total) }),
            (
                "CURLOPT_MAXFILESIZE_LARGE",
                { ccurl_setopt_off(handle, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(limits.maxBytes)) }
            ),
            // Without it a DNS timeout would raise SIGALRM in a threaded program.
            ("CURLOPT_NOSIGNAL", { ccurl_setopt_long(handle, CURLOPT_NOSIGNAL, 1) }),
        ]
        for (name, set) in settings {
            let code = set()
            if code != CURLE_OK { return (name, code) }
        }
        return nil
    }

    private static func error(
        _ code: CURLcode,
        detail: String,
        context: CurlTransferContext,
        request: TransferRequest
    ) -> TransportError {
        let host = request.url.host ?? request.url.absoluteString
        // Which proxy variable applies, read only where a message names it.
        func proxy() -> ProxyRule? {
            ProxyRule.proxy(for: request.url, environment: ProcessInfo.processInfo.environment)
        }
        switch code {
        case CURLE_COULDNT_RESOLVE_PROXY:
            return .proxyUnreachable(
                proxy: proxy()?.description ?? "set by the environment",
                detail: "could not resolve its host"
            )
        case CURLE_COULDNT_CONNECT:
            // With a proxy, the first connection libcurl makes is to the proxy.
            guard context.finalHead == nil, let proxy = proxy() else {
                return .cannotConnect(host: host, detail: detail)
            }
            return .proxyUnreachable(proxy: proxy.description, detail: detail)
        case CURLE_COULDNT_RESOLVE_HOST: return .cannotResolve(host: host)
        // libcurl's words for a reply that is not HTTP, under either code.
        case CURLE_UNSUPPORTED_PROTOCOL where detail.contains("HTTP/0.9"), CURLE_WEIRD_SERVER_REPLY:
            return .notHTTP(host: request.url.port.map { "\(host):\($0)" } ?? host)
        case CURLE_OPERATION_TIMEDOUT:
            // The whole-transfer limit, unless it struck before a
            // connection could be made within the connect timeout.
            if request.limits.timeLeft(since: context.started) > 0.5 {
                return .connectTimeout(host: host, seconds: Int(request.limits.connectTimeout))
            }
            return .timedOut(seconds: Int(request.limits.maxTime))
        case CURLE_TOO_MANY_REDIRECTS: return .tooManyRedirects(limit: request.limits.maxRedirects)
        case CURLE_UNSUPPORTED_PROTOCOL: return .disallowedScheme(detail: detail)
        case CURLE_FILESIZE_EXCEEDED: return .tooLarge(limit: request.limits.maxBytes)
        case CURLE_WRITE_ERROR:
            if context.tooLarge { return .tooLarge(limit: request.limits.maxBytes) }
            return .other(detail: detail)
        case CURLE_ABORTED_BY_CALLBACK where context.stalled: return .stalled(seconds: Int(request.limits.stallTimeout))
        case CURLE_ABORTED_BY_CALLBACK: return .cancelled
        // libcurl refuses a header line over CURL_MAX_HTTP_HEADER with this
        // code and no message; before the headers ended, that is the cause.
        case CURLE_OUT_OF_MEMORY where context.finalHead == nil: return .headerTooLarge
        case CURLE_PARTIAL_FILE: return .truncated(detail: detail)
        case CURLE_BAD_CONTENT_ENCODING: return .badEncoding(detail: detail)
        case CURLE_GOT_NOTHING: return .other(detail: "\(host) closed the connection without a response")
        case CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CONNECT_ERROR, CURLE_SSL_CERTPROBLEM,
            CURLE_SSL_CIPHER, CURLE_SSL_CACERT_BADFILE, CURLE_SSL_ISSUER_ERROR:
            return .tls(detail: detail)
        default: return .other(detail: detail)
        }
    }
}

extension String {
    /// A header value from the cache must not add header lines.
    fileprivate var headerSafe: String { String(unicodeScalars.filter { $0 != "\r" && $0 != "\n" }) }
}

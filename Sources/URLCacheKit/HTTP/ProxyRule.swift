import FoundationEssentials
import URLCacheSupport

/// Which proxy libcurl uses for a URL, by its own rules for the proxy
/// variables, so that a failure to reach the proxy names the proxy and the
/// variable that set it rather than the image's host.
///
/// libcurl reads the variables itself; this only reads them again to say
/// what went wrong. Its rules: `http_proxy` (lower case only) for http,
/// `https_proxy` or `HTTPS_PROXY` for https, else `all_proxy` or
/// `ALL_PROXY`; none for a host that `no_proxy` or `NO_PROXY` names (`*`
/// all; a name matches itself and its subdomains).
public struct ProxyRule: Equatable, Sendable {
    /// The proxy as the variable gives it, e.g. "http://proxy.lan:3128".
    public var proxy: String
    /// The variable that set it, e.g. "https_proxy".
    public var variable: String

    /// The proxy for `url` under `environment`, or nil for a direct connection.
    public static func proxy(for url: URL, environment: [String: String]) -> ProxyRule? {
        guard let scheme = url.scheme?.lowercased(), let host = url.host?.lowercased() else { return nil }
        if bypasses(host, environment["no_proxy"] ?? environment["NO_PROXY"] ?? "") { return nil }
        let names = (scheme == "https" ? ["https_proxy", "HTTPS_PROXY"] : ["http_proxy"]) + ["all_proxy", "ALL_PROXY"]
        for name in names {
            if let value = environment[name]?.trimming(.whitespaces), !value.isEmpty {
                return ProxyRule(proxy: value, variable: name)
            }
        }
        return nil
    }

    /// Whether `no_proxy`'s list names `host`, as libcurl's
    /// `Curl_check_noproxy` reads it: `*` alone is every host; names are
    /// split at commas and blanks, matched whole or as a domain suffix, a
    /// leading or trailing dot ignored; `a.b.c.d/n` matches an IPv4 range.
    static func bypasses(_ host: String, _ list: String) -> Bool {
        let trimmed = list.trimming(.whitespaces)
        if trimmed == "*" { return true }
        let host = String(
            host.lowercased().trimming(.scalars("[]")).reversed()
                .drop(while: { $0 == "." }).reversed()
        )
        for item in trimmed.split(whereSeparator: { $0 == "," || $0 == " " || $0 == "\t" }) {
            var name = item.lowercased().trimming(.scalars("[]"))
            while name.hasPrefix(".") { name.removeFirst() }
            while name.hasSuffix(".") { name.removeLast() }
            guard !name.isEmpty else { continue }
            if name.contains("/") {
                if inRange(host, name) { return true }
            } else if host == name || host.hasSuffix("." + name) {
                return true
            }
        }
        return false
    }

    /// Whether the IPv4 address `host` lies in `range` ("10.0.0.0/8").
    static func inRange(_ host: String, _ range: String) -> Bool {
        let parts = range.split(separator: "/")
        guard parts.count == 2, let bits = Int(parts[1]), (0...32).contains(bits),
            let address = ipv4(host), let network = ipv4(String(parts[0]))
        else { return false }
        let mask: UInt32 = bits == 0 ? 0 : ~UInt32(0) << UInt32(32 - bits)
        return address & mask == network & mask
    }

    static func ipv4(_ text: String) -> UInt32? {
        let octets = text.split(separator: ".", omittingEmptySubsequences: false).map { UInt8($0) }
        guard octets.count == 4, octets.allSatisfy({ $0 != nil }) else { return nil }
        return octets.reduce(UInt32(0)) { $0 << 8 | UInt32($1 ?? 0) }
    }

    /// "proxy.lan:3128 (https_proxy)", for messages: host and port only,
    /// never a user or password the variable holds.
    public var description: String {
        let shown =
            URL(string: proxy.contains("://") ? proxy : "http://" + proxy)
            .flatMap { url in url.host.map { host in url.port.map { "\(host):\($0)" } ?? host } }
            ?? String(proxy.split(separator: "@").last ?? "")
        return "\(shown) (\(variable))"
    }
}

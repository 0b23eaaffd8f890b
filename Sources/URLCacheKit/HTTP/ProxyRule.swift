import Foundation

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
            if let value = environment[name]?.trimmingCharacters(in: .whitespaces), !value.isEmpty {
                return ProxyRule(proxy: value, variable: name)
            }
        }
        return nil
    }

    /// Whether `no_proxy`'s list names `host`.
    static func bypasses(_ host: String, _ list: String) -> Bool {
        let host = host.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        for item in list.split(separator: ",") {
            var name = item.trimmingCharacters(in: .whitespaces).lowercased()
            if name == "*" { return true }
            if name.hasPrefix(".") { name.removeFirst() }
            name = name.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
            guard !name.isEmpty else { continue }
            if host == name || host.hasSuffix("." + name) { return true }
        }
        return false
    }

    /// "proxy.lan:3128 (https_proxy)", for messages.
    public var description: String {
        let shown = URL(string: proxy.contains("://") ? proxy : "http://" + proxy)
            .flatMap { url in url.host.map { host in url.port.map { "\(host):\($0)" } ?? host } } ?? proxy
        return "\(shown) (\(variable))"
    }
}

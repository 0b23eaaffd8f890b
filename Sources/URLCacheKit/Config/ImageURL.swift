import FoundationEssentials
import URLCacheSupport

/// Checks that a string from outside is an image URL we may fetch.
public enum ImageURL {
    /// Returns the URL when `text` is an absolute http or https URL with a host.
    public static func validate(_ text: String, index: Int, source: String) throws(ConfigError) -> URL {
        let url = URL(string: text.trimming(.whitespacesAndNewlines))
        switch check(url) {
        case let .success(url): return url
        case .failure(.notAURL): throw .badEntry(file: source, index: index, reason: "\"\(text)\" is not a URL")
        case let .failure(.scheme(scheme)):
            throw .badEntry(
                file: source,
                index: index,
                reason: "scheme \"\(scheme)\" is not allowed (http or https only)"
            )
        case .failure(.noHost): throw .badEntry(file: source, index: index, reason: "\"\(text)\" has no host")
        case let .failure(.port(port)):
            throw .badEntry(file: source, index: index, reason: "port \(port) in \"\(text)\" is out of range (1–65535)")
        }
    }

    /// Why a URL may not be fetched: the one rule for the list's entries and
    /// the images feeds announce.
    enum Refusal: Error, Equatable {
        case notAURL
        /// A scheme other than http or https.
        case scheme(String)
        case noHost
        /// A port no TCP connection can use.
        case port(Int)
    }

    /// `url` when it is absolute, http or https, with a host.
    static func check(_ url: URL?) -> Result<URL, Refusal> {
        guard let url, let scheme = url.scheme?.lowercased() else { return .failure(.notAURL) }
        guard scheme == "http" || scheme == "https" else { return .failure(.scheme(scheme)) }
        guard let host = url.host, !host.isEmpty else { return .failure(.noHost) }
        if let port = url.port, !(1...65535).contains(port) { return .failure(.port(port)) }
        return .success(url)
    }
}

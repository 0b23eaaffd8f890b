import Foundation
import URLCacheSupport

/// The list of images to show: the original's URLCache.plist.
///
/// Two shapes are read, in XML or binary plist form: an array whose items
/// are URL strings (the original's) or `{url, title}` dicts (`{feed, select,
/// title}` for an image announced by a feed); or a dict with that array
/// under `images` and settings beside it (`refreshInterval`,
/// `connectTimeout`, `stallTimeout`, `maxTime`, `maxImageBytes`, `maxFeedBytes`,
/// `freshness`, `keep`, `maxCacheBytes`, `onNewImage`). An entry's dict may
/// carry its own `freshness` and `onNewImage`.
public struct URLList: Sendable, Equatable {
    /// The images, in the list's order (never empty).
    public var entries: [URLEntry]
    /// Settings the file carries.
    public var settings: ListSettings
    /// Where the list came from, for messages: a path or "built-in list".
    public var source: String

    public init(entries: [URLEntry], settings: ListSettings = ListSettings(), source: String) {
        self.entries = entries
        self.settings = settings
        self.source = source
    }

    /// Parses plist bytes; `source` names the file in errors.
    public static func parse(_ data: Data, source: String) throws(ConfigError) -> URLList {
        let root: Any
        do {
            root = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
        } catch {
            throw .notAPlist(file: source)
        }
        var settings = ListSettings()
        let items: [Any]
        if let array = root as? [Any] {
            items = array
        } else if let dict = root as? [String: Any] {
            guard let array = dict["images"] as? [Any] else {
                throw .wrongShape(file: source, found: "a dict without an \"images\" array")
            }
            items = array
            settings = try parseSettings(dict, source: source)
        } else {
            throw .wrongShape(file: source, found: describe(root))
        }
        if items.isEmpty { throw .emptyList(file: source) }
        var entries: [URLEntry] = []
        for (offset, item) in items.enumerated() {
            entries.append(try parseEntry(item, index: offset + 1, source: source))
        }
        return URLList(entries: entries, settings: settings, source: source)
    }

    /// A list is a few kilobytes; anything past this is not one.
    static let maxFileBytes = 16 << 20

    /// Reads and parses the file at `path`.
    public static func load(path: String) throws(ConfigError) -> URLList {
        let bytes: [UInt8]
        do { bytes = try Posix.readFile(path, limit: maxFileBytes) } catch {
            throw .unreadable(file: path, errno: error)
        }
        return try parse(Data(bytes), source: path)
    }

    /// The entry with 1-based number `index`.
    public func entry(_ index: Int) throws(ConfigError) -> URLEntry {
        guard index >= 1, index <= entries.count else {
            throw .noSuchEntry(file: source, index: index, count: entries.count)
        }
        return entries[index - 1]
    }

    private static func parseEntry(_ item: Any, index: Int, source: String) throws(ConfigError) -> URLEntry {
        let text: String
        var title: String?
        var feed: FeedSpec?
        var freshness: FreshnessMode?
        var onNewImage: [String]?
        if let string = item as? String {
            text = string
        } else if let dict = item as? [String: Any] {
            func string(_ key: String) throws(ConfigError) -> String? {
                guard let value = dict[key] else { return nil }
                guard let string = value as? String else {
                    throw .badEntry(file: source, index: index, reason: "\"\(key)\" must be a string")
                }
                return string
            }
            switch (try string("url"), try string("feed")) {
            case let (url?, nil): text = url
            case let (nil, feedURL?):
                text = feedURL
                feed = FeedSpec(select: try string("select"))
            case (_?, _?): throw .badEntry(file: source, index: index, reason: "give \"url\" or \"feed\", not both")
            case (nil, nil): throw .badEntry(file: source, index: index, reason: "a dict needs a \"url\" or a \"feed\" string")
            }
            title = try string("title")
            if let mode = try string("freshness") {
                guard let parsed = FreshnessMode(rawValue: mode) else {
                    throw .badEntry(file: source, index: index, reason: "\"freshness\" must be \"fixed\" or \"server\"")
                }
                freshness = parsed
            }
            if let value = dict["onNewImage"] {
                guard let command = command(value) else {
                    throw .badEntry(file: source, index: index, reason: commandRule)
                }
                onNewImage = command
            }
        } else {
            throw .badEntry(file: source, index: index, reason: "expected a URL string or a {url, title} dict, found \(describe(item))")
        }
        var entry = URLEntry(url: try ImageURL.validate(text, index: index, source: source), title: title, feed: feed, freshness: freshness)
        entry.onNewImage = onNewImage
        return entry
    }

    private static func parseSettings(_ dict: [String: Any], source: String) throws(ConfigError) -> ListSettings {
        // `<true/>` is no number; `<integer>1</integer>` is, though Foundation
        // also lets it pass as a Bool.
        func number(_ key: String, _ what: String) throws(ConfigError) -> Double? {
            guard let value = dict[key] else { return nil }
            guard let number = value as? NSNumber, type(of: value) != Bool.self, number.doubleValue > 0,
                  number.doubleValue.isFinite else {
                throw .badSetting(file: source, key: key, reason: "expected a positive number of \(what)")
            }
            return number.doubleValue
        }
        func seconds(_ key: String) throws(ConfigError) -> TimeInterval? { try number(key, "seconds") }
        var settings = ListSettings()
        settings.refreshInterval = try seconds("refreshInterval")
        settings.connectTimeout = try seconds("connectTimeout")
        settings.stallTimeout = try seconds("stallTimeout")
        settings.maxTime = try seconds("maxTime")
        if let bytes = try number("maxImageBytes", "bytes") { settings.maxImageBytes = Int(bytes) }
        if let bytes = try number("maxFeedBytes", "bytes") { settings.maxFeedBytes = Int(bytes) }
        if let bytes = try number("maxCacheBytes", "bytes") { settings.maxCacheBytes = Int(bytes) }
        if let count = try number("keep", "images") { settings.keep = max(1, Int(count)) }
        if let value = dict["freshness"] {
            guard let text = value as? String, let mode = FreshnessMode(rawValue: text) else {
                throw .badSetting(file: source, key: "freshness", reason: "expected \"fixed\" or \"server\"")
            }
            settings.freshness = mode
        }
        if let value = dict["onNewImage"] {
            guard let command = command(value) else { throw .badSetting(file: source, key: "onNewImage", reason: commandRule) }
            settings.onNewImage = command
        }
        return settings
    }

    /// What `onNewImage` must be.
    static let commandRule = "\"onNewImage\" must be an array of strings: the program, then its arguments (no shell)"

    /// `onNewImage`'s value: a non-empty array of strings whose first, the
    /// program, is not empty.
    static func command(_ value: Any) -> [String]? {
        guard let array = value as? [Any], let strings = array as? [String], let program = strings.first, !program.isEmpty,
              strings.count == array.count else { return nil }
        return strings
    }

    static func describe(_ value: Any) -> String {
        switch value {
        case is String: return "a string"
        case is [Any]: return "an array"
        case is [String: Any]: return "a dict"
        case is Data: return "data"
        case is Date: return "a date"
        case is NSNumber: return "a number"
        default: return "a \(type(of: value))"
        }
    }
}

/// Checks that a string from outside is an image URL we may fetch.
public enum ImageURL {
    /// Returns the URL when `text` is an absolute http or https URL with a host.
    public static func validate(_ text: String, index: Int, source: String) throws(ConfigError) -> URL {
        let url = URL(string: text.trimmingCharacters(in: .whitespacesAndNewlines))
        switch check(url) {
        case let .success(url): return url
        case .failure(.notAURL): throw .badEntry(file: source, index: index, reason: "\"\(text)\" is not a URL")
        case let .failure(.scheme(scheme)): throw .badEntry(file: source, index: index, reason: "scheme \"\(scheme)\" is not allowed (http or https only)")
        case .failure(.noHost): throw .badEntry(file: source, index: index, reason: "\"\(text)\" has no host")
        }
    }

    /// Why a URL may not be fetched: the one rule for the list's entries and
    /// the images feeds announce.
    enum Refusal: Error, Equatable {
        case notAURL
        /// A scheme other than http or https.
        case scheme(String)
        case noHost
    }

    /// `url` when it is absolute, http or https, with a host.
    static func check(_ url: URL?) -> Result<URL, Refusal> {
        guard let url, let scheme = url.scheme?.lowercased() else { return .failure(.notAURL) }
        guard scheme == "http" || scheme == "https" else { return .failure(.scheme(scheme)) }
        guard let host = url.host, !host.isEmpty else { return .failure(.noHost) }
        return .success(url)
    }
}

import FoundationEssentials
import URLCacheSupport

/// Reads a URL list's settings and entries from the parsed plist, keeping
/// what a person should hear about but that need not stop the list.
struct ListReader {
    /// Names the file in every message.
    let source: String
    /// One line each: keys the list does not know. (An unusable entry is
    /// reported where it is used: `list`, `fetch`, the screen.)
    var warnings: [String] = []

    init(source: String) { self.source = source }

    /// The keys a list's top-level dict may hold.
    static let settingKeys = [
        "images", "refreshInterval", "connectTimeout", "stallTimeout", "maxTime", "maxImageBytes",
        "maxFeedBytes", "freshness", "keep", "maxCacheBytes", "onNewImage", "size",
    ]
    /// The keys an entry's dict may hold.
    static let entryKeys = ["url", "feed", "select", "title", "freshness", "onNewImage"]

    /// Warns of each key of `dict` not in `known`, with the known key it was
    /// probably meant to be: a misspelt key is otherwise silently ignored.
    mutating func warnUnknownKeys(_ dict: [String: Any], known: [String], place: String) {
        for key in dict.keys.sorted() where !known.contains(key) {
            let near = Suggestion.nearest(to: key, among: known).map { "; did you mean \"\($0)\"?" } ?? " (ignored)"
            warnings.append("URL list \(source), \(place): unknown key \"\(key)\"\(near)")
        }
    }

    /// The entry numbered `index`; an entry that cannot be used carries its
    /// `problem`, so that the rest of the list still works.
    mutating func readEntry(_ item: Any, index: Int) -> URLEntry {
        do {
            return try entry(item, index: index)
        } catch {
            return URLEntry(unusable: index, problem: error)
        }
    }

    private mutating func entry(_ item: Any, index: Int) throws(ConfigError) -> URLEntry {
        if let string = item as? String {
            return URLEntry(url: try ImageURL.validate(string, index: index, source: source))
        }
        guard let dict = item as? [String: Any] else {
            throw .badEntry(
                file: source,
                index: index,
                reason: "expected a URL string or a {url, title} dict, found \(URLList.describe(item))"
            )
        }
        warnUnknownKeys(dict, known: Self.entryKeys, place: "entry \(index)")
        let source = self.source
        func string(_ key: String) throws(ConfigError) -> String? {
            guard let value = dict[key] else { return nil }
            guard let string = value as? String else {
                throw .badEntry(file: source, index: index, reason: "\"\(key)\" must be a string")
            }
            return string
        }
        let text: String
        var feed: FeedSpec?
        switch (try string("url"), try string("feed")) {
        case let (url?, nil): text = url
        case let (nil, feedURL?):
            text = feedURL
            feed = FeedSpec(select: try string("select"))
        case (_?, _?): throw .badEntry(file: source, index: index, reason: "give \"url\" or \"feed\", not both")
        case (nil, nil):
            throw .badEntry(file: source, index: index, reason: "a dict needs a \"url\" or a \"feed\" string")
        }
        var freshness: FreshnessMode?
        if let mode = try string("freshness") {
            guard let parsed = FreshnessMode(rawValue: mode) else {
                throw .badEntry(file: source, index: index, reason: "\"freshness\" must be \"fixed\" or \"server\"")
            }
            freshness = parsed
        }
        var entry = URLEntry(
            url: try ImageURL.validate(text, index: index, source: source),
            title: try string("title"),
            feed: feed,
            freshness: freshness
        )
        if let value = dict["onNewImage"] {
            guard let command = Self.command(value) else {
                throw .badEntry(file: source, index: index, reason: Self.commandRule)
            }
            entry.onNewImage = command
        }
        return entry
    }

    /// The settings beside the images. A bad value stops the list: it
    /// applies to every entry.
    mutating func readSettings(_ dict: [String: Any]) throws(ConfigError) -> ListSettings {
        warnUnknownKeys(dict, known: Self.settingKeys, place: "settings")
        let source = self.source
        // `<true/>` is no number.
        func number(_ key: String, _ what: String) throws(ConfigError) -> Double? {
            guard let value = dict[key] else { return nil }
            let number = (value as? Int).map(Double.init) ?? (value as? Double)
            guard let number, number > 0, number.isFinite else {
                throw .badSetting(file: source, key: key, reason: "expected a positive number of \(what)")
            }
            return number
        }
        func seconds(_ key: String) throws(ConfigError) -> TimeInterval? { try number(key, "seconds") }
        func count(_ key: String, _ what: String) throws(ConfigError) -> Int? {
            guard let value = try number(key, what) else { return nil }
            guard value < Double(Int.max) else { throw .badSetting(file: source, key: key, reason: "out of range") }
            return Int(value)
        }
        var settings = ListSettings()
        settings.refreshInterval = try seconds("refreshInterval")
        settings.connectTimeout = try seconds("connectTimeout")
        settings.stallTimeout = try seconds("stallTimeout")
        settings.maxTime = try seconds("maxTime")
        settings.maxImageBytes = try count("maxImageBytes", "bytes")
        settings.maxFeedBytes = try count("maxFeedBytes", "bytes")
        settings.maxCacheBytes = try count("maxCacheBytes", "bytes")
        settings.keep = try count("keep", "images").map { max(1, $0) }
        if let value = dict["freshness"] {
            guard let text = value as? String, let mode = FreshnessMode(rawValue: text) else {
                throw .badSetting(file: source, key: "freshness", reason: "expected \"fixed\" or \"server\"")
            }
            settings.freshness = mode
        }
        if let value = dict["size"] {
            guard let text = value as? String, let policy = SizePolicy(rawValue: text) else {
                throw .badSetting(file: source, key: "size", reason: "expected \"largest\" or \"screen\"")
            }
            settings.size = policy
        }
        if let value = dict["onNewImage"] {
            guard let command = Self.command(value) else {
                throw .badSetting(file: source, key: "onNewImage", reason: Self.commandRule)
            }
            settings.onNewImage = command
        }
        return settings
    }

    /// What `onNewImage` must be.
    static let commandRule = "\"onNewImage\" must be an array of strings: the program, then its arguments (no shell)"

    /// `onNewImage`'s value: a non-empty array of strings whose first, the
    /// program, is not empty.
    static func command(_ value: Any) -> [String]? {
        guard let array = value as? [Any], let strings = array as? [String], let program = strings.first,
            !program.isEmpty,
            strings.count == array.count
        else { return nil }
        return strings
    }
}

import FoundationEssentials
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
    /// What a person should fix but that does not stop the list, one line
    /// each: keys it does not know ("did you mean …?"). Shown once per run.
    public var warnings: [String] = []

    public init(entries: [URLEntry], settings: ListSettings = ListSettings(), source: String) {
        self.entries = entries
        self.settings = settings
        self.source = source
    }

    /// Parses plist bytes; `source` names the file in errors. One entry
    /// that cannot be used does not stop the others: it is kept with its
    /// `problem`, and only asking for that entry fails.
    public static func parse(_ data: Data, source: String) throws(ConfigError) -> URLList {
        let root: Any
        do {
            root = try AnyTree.plist(data).root
        } catch {
            if let fault = PlistDiagnosis.find(in: Array(data)) {
                throw .malformed(file: source, line: fault.line, column: fault.column, reason: fault.reason)
            }
            throw .notAPlist(file: source)
        }
        var reader = ListReader(source: source)
        var settings = ListSettings()
        let items: [Any]
        if let array = root as? [Any] {
            items = array
        } else if let dict = root as? [String: Any] {
            guard let array = dict["images"] as? [Any] else {
                throw .wrongShape(file: source, found: "a dict without an \"images\" array")
            }
            items = array
            settings = try reader.readSettings(dict)
        } else {
            throw .wrongShape(file: source, found: describe(root))
        }
        if items.isEmpty { throw .emptyList(file: source) }
        let entries = items.enumerated().map { reader.readEntry($0.element, index: $0.offset + 1) }
        var list = URLList(entries: entries, settings: settings, source: source)
        list.warnings = reader.warnings
        return list
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
        if let problem = entries[index - 1].problem { throw problem }
        return entries[index - 1]
    }

    static func describe(_ value: Any) -> String {
        switch value {
        case is String: return "a string"
        case is [Any]: return "an array"
        case is [String: Any]: return "a dict"
        case is Data: return "data"
        case is Date: return "a date"
        case is Bool, is Int, is Double: return "a number"
        default: return "a \(type(of: value))"
        }
    }
}

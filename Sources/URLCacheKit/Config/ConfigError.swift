import URLCacheSupport

/// Why a URL list could not be used. Each names the file, so that a person
/// knows which file to fix; the command line exits with status 2.
public enum ConfigError: Error, Equatable, CustomStringConvertible {
    /// The file could not be read at all (missing, a directory, no
    /// permission, larger than any list): the errno says which.
    case unreadable(file: String, errno: Errno)
    /// The bytes are not an XML or binary property list.
    case notAPlist(file: String)
    /// An XML list that does not parse, with the first fault's place.
    case malformed(file: String, line: Int, column: Int, reason: String)
    /// A property list, but neither an array of images nor a dict holding one.
    case wrongShape(file: String, found: String)
    /// Entry `index` (1-based) is not a usable image URL.
    case badEntry(file: String, index: Int, reason: String)
    /// The list holds no images.
    case emptyList(file: String)
    /// A setting beside the images has a value that cannot be used.
    case badSetting(file: String, key: String, reason: String)
    /// An entry number outside the list was asked for.
    case noSuchEntry(file: String, index: Int, count: Int)
    /// The list could not be written (`add`, `remove`): the file is as it was.
    case unwritable(file: String, reason: String)

    public var description: String {
        switch self {
        case let .unreadable(file, errno):
            return "cannot read URL list \(file.terminalSafe): \(errno)"
        case let .notAPlist(file):
            return "URL list \(file.terminalSafe) is not a property list (XML or binary plist expected)"
        case let .malformed(file, line, column, reason):
            return "URL list \(file.terminalSafe), line \(line), column \(column): \(reason.terminalSafe)"
        case let .wrongShape(file, found):
            return "URL list \(file.terminalSafe) must be an array of URLs or of {url, title} dicts, found \(found)"
        case let .badEntry(file, index, reason):
            return "URL list \(file.terminalSafe), entry \(index): \(reason.terminalSafe)"
        case let .emptyList(file):
            return "URL list \(file.terminalSafe) holds no images"
        case let .badSetting(file, key, reason):
            return "URL list \(file.terminalSafe), setting \(key.terminalSafe): \(reason)"
        case let .noSuchEntry(file, index, count):
            return "URL list \(file.terminalSafe) has \(count) entr\(count == 1 ? "y" : "ies"), no entry \(index)"
        case let .unwritable(file, reason):
            return "cannot write URL list \(file.terminalSafe): \(reason.terminalSafe); it is as it was"
        }
    }
}

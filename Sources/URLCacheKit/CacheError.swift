/// Why the on-disk cache could not do what was asked. The previous image is
/// never touched by a failed write.
public enum CacheError: Error, Equatable, CustomStringConvertible {
    /// The cache directory could not be created.
    case cannotCreateDirectory(path: String, reason: String)
    /// The cache path exists but is not a directory.
    case notADirectory(path: String)
    /// A file in the cache could not be written (the reason says why, e.g.
    /// "no space left on device").
    case writeFailed(path: String, reason: String)
    /// A cached file could not be read.
    case readFailed(path: String, reason: String)
    /// A cached file could not be removed.
    case removeFailed(path: String, reason: String)
    /// Another process's lock on the entry could not be taken.
    case lockFailed(path: String, reason: String)

    public var description: String {
        switch self {
        case let .cannotCreateDirectory(path, reason):
            return "cannot create cache directory \(path.terminalSafe): \(reason)"
        case let .notADirectory(path):
            return "cache directory \(path.terminalSafe) is not a directory"
        case let .writeFailed(path, reason):
            return "cannot write \(path.terminalSafe): \(reason)"
        case let .readFailed(path, reason):
            return "cannot read \(path.terminalSafe): \(reason)"
        case let .removeFailed(path, reason):
            return "cannot remove \(path.terminalSafe): \(reason)"
        case let .lockFailed(path, reason):
            return "cannot lock \(path.terminalSafe): \(reason)"
        }
    }
}

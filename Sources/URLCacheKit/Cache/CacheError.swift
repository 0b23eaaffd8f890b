import URLCacheSupport

/// Why the on-disk cache could not do what was asked. The previous image is
/// never touched by a failed write. Each case keeps the errno, so a caller
/// can tell a full disk (`.noSpace`) from a denied permission.
public enum CacheError: Error, Equatable, CustomStringConvertible {
    /// The cache directory could not be created.
    case cannotCreateDirectory(path: String, errno: Errno)
    /// The cache path exists but is not a directory.
    case notADirectory(path: String)
    /// A file in the cache could not be written ("no space left on device").
    case writeFailed(path: String, errno: Errno)
    /// A cached file or the directory could not be read.
    case readFailed(path: String, errno: Errno)
    /// A cached file could not be removed.
    case removeFailed(path: String, errno: Errno)
    /// The entry's lock could not be taken.
    case lockFailed(path: String, errno: Errno)

    public var description: String {
        switch self {
        case let .cannotCreateDirectory(path, errno):
            return "cannot create cache directory \(path.terminalSafe): \(errno)"
        case let .notADirectory(path):
            return "cache directory \(path.terminalSafe) is not a directory"
        case let .writeFailed(path, errno):
            return "cannot write \(path.terminalSafe): \(errno)"
        case let .readFailed(path, errno):
            return "cannot read \(path.terminalSafe): \(errno)"
        case let .removeFailed(path, errno):
            return "cannot remove \(path.terminalSafe): \(errno)"
        case let .lockFailed(path, errno):
            return "cannot lock \(path.terminalSafe): \(errno)"
        }
    }
}

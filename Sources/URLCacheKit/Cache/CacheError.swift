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
    /// Another process held the entry's lock for longer than the time
    /// limit (a download that hangs): the copy there is kept.
    case busy(pid: Int32?, seconds: Int)
    /// The wait for another process's lock was cancelled (Esc, Ctrl-C).
    case lockWaitCancelled
    /// A symbolic link where the cache keeps a file of its own: never
    /// followed (someone else may have planted it).
    case symbolicLink(path: String)
    /// The cache directory can be written by someone else, or belongs to
    /// another user: refused, as ssh refuses such a `~/.ssh`.
    case unsafeDirectory(path: String, reason: String)
    /// The cache cannot be written (a read-only file system or
    /// permissions): what is there is shown, nothing can be updated.
    case readOnly(path: String)

    /// A failed call on a file of the cache: `.symbolicLink` when
    /// `O_NOFOLLOW` met a link there, else what `otherwise` makes of it.
    static func failed(_ errno: Errno, at path: String, else otherwise: (String, Errno) -> CacheError) -> CacheError {
        errno == .tooManyLinks ? .symbolicLink(path: path) : otherwise(path, errno)
    }

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
        case let .busy(pid?, seconds):
            return "another urlcache (pid \(pid)) is still working on this image; gave up waiting after \(seconds) s"
        case let .busy(nil, seconds):
            return "another urlcache is still working on this image; gave up waiting after \(seconds) s"
        case .lockWaitCancelled:
            return "cancelled while waiting for another urlcache"
        case let .symbolicLink(path):
            return "\(path.terminalSafe) is a symbolic link: urlcache never follows links in its cache"
        case let .unsafeDirectory(path, reason):
            return "refusing cache directory \(path.terminalSafe): \(reason.terminalSafe)"
        case let .readOnly(path):
            return "read-only cache \(path.terminalSafe): showing what is there, nothing can be updated"
        }
    }
}

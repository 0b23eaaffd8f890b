import URLCacheSupport

/// Why a copy could not be saved. The cache is only read: a failed save
/// never touches the cached image, and leaves no partial file behind.
public enum SaveError: Error, Equatable, CustomStringConvertible {
    /// Nothing is cached for the entry (or only the bundled picture shows).
    case nothingCached(entry: String)
    /// The cache could not be looked in (its own error says why).
    case cache(CacheError)
    /// The cached image could not be read.
    case readFailed(path: String, errno: Errno)
    /// The folder could not be created.
    case cannotCreateFolder(path: String, errno: Errno)
    /// The folder's path names something that is not a folder.
    case notAFolder(path: String)
    /// The copy could not be written there (a full disk, a read-only
    /// folder, no permission).
    case writeFailed(path: String, errno: Errno)
    /// Every numbered name up to the limit is taken already.
    case namesExhausted(folder: String)

    public var description: String {
        switch self {
        case let .nothingCached(entry):
            return "\(entry.terminalSafe): nothing cached to save yet"
        case let .cache(error):
            return error.description
        case let .readFailed(path, errno):
            return "cannot read the cached image \(path.terminalSafe): \(errno)"
        case let .cannotCreateFolder(path, errno):
            return "cannot create \(path.terminalSafe): \(errno)"
        case let .notAFolder(path):
            return "cannot save into \(path.terminalSafe): it is not a folder"
        case let .writeFailed(path, errno):
            return "cannot save to \(path.terminalSafe): \(errno)"
        case let .namesExhausted(folder):
            return "cannot save into \(folder.terminalSafe): 99 copies of this name are there already"
        }
    }
}

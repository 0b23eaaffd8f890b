import BlockArt
import FoundationEssentials
import URLCacheSupport

#if canImport(Glibc)
import Glibc
#endif

/// A copy of a cached image in a folder of the user's, written as the
/// cache writes: to a temporary file in the folder, fsynced, then given its
/// name, so the name never holds half a picture. The name is given with
/// `link`, which fails rather than replace a file: an existing file of the
/// same name is never overwritten, the copy takes the next " (2)" instead.
/// The copies are the user's: nothing in the cache's code removes them.
public enum SavedCopy {
    /// What saving did.
    public enum Outcome: Equatable, Sendable {
        /// Written under this path.
        case saved(String)
        /// A file of this name and the same bytes was there already.
        case alreadyThere(String)

        /// The copy's path, either way.
        public var path: String {
            switch self {
            case let .saved(path), let .alreadyThere(path): return path
            }
        }
    }

    /// Copies the kept image `item` of `entry` into `folder` (created if
    /// missing), named by `SaveName` from the day it was first seen, its
    /// title and the format its bytes show.
    public static func save(_ item: HistoryItem, of entry: URLEntry, to folder: String) throws(SaveError) -> Outcome {
        let bytes: [UInt8]
        do { bytes = try Posix.readFile(item.path, limit: Int.max - 1) } catch {
            throw .readFailed(path: item.path, errno: error)
        }
        let name = SaveName.make(
            date: item.firstSeen,
            title: SaveName.title(item, of: entry),
            extension: ImageFormat.sniff(bytes).fileExtension
        )
        return try save(bytes, to: folder, name: name)
    }

    /// Writes `bytes` into `folder` as `name`, one path component (`SaveName`
    /// makes it so; it is cleaned again here, so the copy stays in the folder
    /// whoever calls).
    static func save(_ bytes: [UInt8], to folder: String, name: String) throws(SaveError) -> Outcome {
        let cleaned = SaveName.clean(name)
        let name = cleaned.isEmpty ? "image" : cleaned
        try makeFolder(folder)
        let staged = try stage(bytes, in: folder)
        do {
            return try give(staged, bytes, name: name, in: folder)
        } catch let .writeFailed(_, errno) where errno.rawValue == EINVAL && SaveName.portable(name) != name {
            // FAT and exFAT refuse : * ? " < > | in names: the portable name instead.
            return try give(staged, bytes, name: SaveName.portable(name), in: folder)
        }
    }

    /// The staged copy under `name`, or the first " (n)" of it that is
    /// free; a file of the same bytes there already is the copy.
    private static func give(
        _ staged: StagedFile,
        _ bytes: [UInt8],
        name: String,
        in folder: String
    ) throws(SaveError) -> Outcome {
        for number in 1...99 {
            let path = folder + "/" + SaveName.numbered(name, number)
            // Only a file of the same size is read and compared.
            if Posix.regularFileSize(path) == Int64(bytes.count),
                (try? Posix.readFile(path, limit: bytes.count, followLinks: false)) == bytes
            {
                return .alreadyThere(path)
            }
            do {
                try place(staged.path, at: path)
                Posix.syncDirectory(folder)
                return .saved(path)
            } catch  where error == .exists {
                continue
            } catch {
                throw .writeFailed(path: path, errno: error)
            }
        }
        throw .namesExhausted(folder: folder)
    }

    private static func makeFolder(_ folder: String) throws(SaveError) {
        let isFolder: Bool
        do { isFolder = try Posix.ensureDirectory(folder, mode: 0o755) } catch {
            throw .cannotCreateFolder(path: folder, errno: error)
        }
        guard isFolder else { throw .notAFolder(path: folder) }
    }

    /// The whole copy in a new file of the folder, on disk before it gets
    /// a name; the file removes itself when dropped (`StagedFile`).
    private static func stage(_ bytes: [UInt8], in folder: String) throws(SaveError) -> StagedFile {
        do {
            // 0o666 under the umask: a picture of the user's, like any other.
            let staged = try StagedFile.create(prefix: folder + "/.urlcache-save.", suffix: ".tmp", mode: 0o666)
            try staged.append(bytes)
            try staged.sync()
            return staged
        } catch {
            throw .writeFailed(path: folder, errno: error)
        }
    }

    /// Gives the written file the name `path` unless it is taken (EEXIST).
    /// A file system without hard links (FAT on a stick) gets the name
    /// reserved by an exclusive create and then replaced by `rename`.
    private static func place(_ temporary: String, at path: String) throws(Errno) {
        do {
            try Posix.link(temporary, path)
        } catch  where [EPERM, EOPNOTSUPP, ENOSYS, EMLINK].contains(error.rawValue) {
            let reserved = try Posix.open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0o666)
            close(reserved)
            do { try Posix.rename(temporary, path) } catch {
                try? Posix.unlinkIfPresent(path)
                throw error
            }
        }
    }
}

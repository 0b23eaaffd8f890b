import FoundationEssentials
import URLCacheSupport

#if canImport(Glibc)
import Glibc
#endif

/// A temporary file in the cache directory that a download is written to
/// (or in a folder of the user's, for a saved copy).
/// It becomes the cached image only through `DiskCache.commit`; dropped
/// without that, it closes and removes itself, so no failure path can forget
/// to. It lives and dies on the thread that downloads (not Sendable).
final class StagedFile {
    /// The temporary file's path.
    let path: String
    private var fd: Int32
    /// Renamed into place: no longer ours to remove.
    private var placed = false

    init(path: String, fd: Int32) {
        self.path = path
        self.fd = fd
    }

    /// A new file of this process's alone: `prefix`, the pid and a random
    /// number, then `suffix`; never one that is there (O_EXCL) or a link.
    static func create(prefix: String, suffix: String = "", mode: mode_t) throws(Errno) -> StagedFile {
        let path = prefix + "\(getpid()).\(UInt32.random(in: 0...UInt32.max))" + suffix
        return StagedFile(path: path, fd: try Posix.open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, mode))
    }

    deinit {
        if fd >= 0 { close(fd) }
        if !placed { unlink(path) }
    }

    /// Appends bytes.
    func append(_ bytes: UnsafeRawBufferPointer) throws(Errno) {
        try writeAll(fd, bytes)
    }

    func append(_ bytes: [UInt8]) throws(Errno) {
        var failure: Errno?
        bytes.withUnsafeBytes { raw in
            do throws(Errno) { try append(raw) } catch { failure = error }
        }
        if let failure { throw failure }
    }

    /// Flushes to disk and closes: the file stays where it is, still
    /// removed when dropped (a saved copy is linked to its name meanwhile).
    func sync() throws(Errno) {
        try Posix.fsync(fd)
        let result = close(fd)
        fd = -1
        try Posix.check(result)
    }

    /// Flushes to disk, closes, sets the modification time if given, and
    /// renames the file to `destination` in one atomic step.
    func place(at destination: String, updated: Date?) throws(Errno) {
        if let updated { try Posix.setTimes(fd: fd, updated) }
        try sync()
        try Posix.rename(path, destination)
        placed = true
    }
}

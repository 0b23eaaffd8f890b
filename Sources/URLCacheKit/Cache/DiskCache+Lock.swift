import FoundationEssentials
import URLCacheSupport

#if canImport(Glibc)
import Glibc
#endif

/// How long to wait for a lock that another process holds, and whom to
/// tell that we wait: cron's second `fetch` must neither wait silently nor
/// wait forever behind one that hangs.
public struct LockWait: Sendable {
    /// Seconds to wait at most (the transfer's `maxTime`).
    public var limit: TimeInterval
    /// Called once when the lock is found held, with the holder's pid when
    /// its lock file names one.
    public var onWait: @Sendable (Int32?) -> Void
    /// Checked while waiting: true gives up (Esc, Ctrl-C).
    public var isCancelled: @Sendable () -> Bool

    public init(
        limit: TimeInterval,
        onWait: @escaping @Sendable (Int32?) -> Void = { _ in },
        isCancelled: @escaping @Sendable () -> Bool = { false }
    ) {
        self.limit = limit
        self.onWait = onWait
        self.isCancelled = isCancelled
    }

    /// Waits as long as it takes: for the whole cache's lock, which is only
    /// ever held for a rename and a directory scan.
    public static let patient = LockWait(limit: .infinity)
}

/// The cache's locks: an exclusive `flock` on a lock file that names its
/// holder's pid. A lock file may be removed by its holder (an entry that
/// has no image keeps no lock file); whoever then holds a lock on the
/// removed file finds that the name now leads elsewhere and starts again.
extension DiskCache {
    /// Runs `body` holding an exclusive lock on the file at `path` (made if
    /// missing, never through a symbolic link), released when `body` returns.
    func holding<T>(
        _ path: String,
        wait: LockWait = .patient,
        _ body: () throws(CacheError) -> T
    ) throws(CacheError) -> T {
        let fd = try acquire(path, wait: wait)
        defer { close(fd) }
        return try body()
    }

    /// Opens and locks `path`, waiting as `wait` says; the descriptor holds the lock.
    func acquire(_ path: String, wait: LockWait) throws(CacheError) -> Int32 {
        var told = false
        // From 1 ms to 100 ms: the whole cache's lock is held for a rename
        // (other threads of one `fetch --all` wait for it), an entry's for
        // a whole check (another process's, 100 ms is soon enough).
        var pause = GrowingPause(first: 1000, cap: 100_000)
        let deadline = ContinuousClock.now.advanced(by: .milliseconds(Int(min(wait.limit, 31_536_000) * 1000)))
        while true {
            let fd: Int32
            do { fd = try Posix.open(path, O_RDWR | O_CREAT | O_NOFOLLOW, 0o600) } catch {
                throw .failed(error, at: path, else: CacheError.lockFailed)
            }
            do throws(CacheError) {
                while try !DiskCache.tryLock(fd, path) {
                    if !told {
                        wait.onWait(DiskCache.holder(fd))
                        told = true
                    }
                    if wait.isCancelled() { throw CacheError.lockWaitCancelled }
                    if ContinuousClock.now >= deadline {
                        throw CacheError.busy(pid: DiskCache.holder(fd), seconds: Int(wait.limit))
                    }
                    pause.sleep()
                }
            } catch {
                close(fd)
                throw error
            }
            // Locked: it counts only if the name still leads to this file.
            if Posix.sameFile(fd, path) {
                DiskCache.name(holder: fd)
                return fd
            }
            close(fd)
        }
    }

    private static func tryLock(_ fd: Int32, _ path: String) throws(CacheError) -> Bool {
        do { return try Posix.tryLockExclusive(fd) } catch { throw .lockFailed(path: path, errno: error) }
    }

    /// Writes our pid into the lock file we hold, for a waiter to name.
    private static func name(holder fd: Int32) {
        let text = Array("\(getpid())\n".utf8)
        _ = ftruncate(fd, 0)
        _ = text.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
    }

    /// The pid the lock file names, if any.
    static func holder(_ fd: Int32) -> Int32? {
        var buffer = [UInt8](repeating: 0, count: 16)
        let count = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return nil }
        return Int32(
            String(decoding: buffer.prefix(count), as: UTF8.self).trimming(.whitespacesAndNewlines)
        )
    }

    /// Removes a lock file unless some process holds it: it is locked
    /// first and removed while held, so a process that locks it after us
    /// sees the name gone (`acquire`). False when it is held (left alone).
    static func removeIfFree(lock path: String) throws(Errno) -> Bool {
        let fd: Int32
        do { fd = try Posix.open(path, O_RDWR | O_NOFOLLOW) } catch {
            // A link planted in its place is no lock: the link goes.
            guard error == .tooManyLinks else { throw error }
            try Posix.unlinkIfPresent(path)
            return true
        }
        defer { close(fd) }
        guard try Posix.tryLockExclusive(fd) else { return false }
        try Posix.unlinkIfPresent(path)
        return true
    }

    /// Removes the temporary files of `paths`' entry (we hold its lock:
    /// none is being written), and those of any entry whose process no
    /// longer runs (a kill -9, a power cut): one scan of the directory.
    func sweepTemporaries(of paths: EntryPaths) {
        let prefix = Posix.name(of: paths.stagingPrefix)
        guard let names = try? Posix.directoryEntries(directory) else { return }
        for name in names where name.hasPrefix(prefix) || (DiskCache.isOurs(name) && DiskCache.isDeadTemporary(name)) {
            try? Posix.unlinkIfPresent(directory + "/" + name)
        }
    }

    /// Whether `name` is a temporary file whose process no longer runs.
    static func isDeadTemporary(_ name: String) -> Bool {
        guard let pid = temporaryPid(name) else { return false }
        return kill(pid, 0) != 0 && errno == ESRCH
    }

    /// The pid a temporary file's name carries (`.<hex>.tmp.[meta.]<pid>.<random>`).
    static func temporaryPid(_ name: String) -> Int32? {
        let parts = name.split(separator: ".")
        guard name.contains(".tmp."), parts.count >= 4 else { return nil }
        return Int32(parts[parts.count - 2])
    }
}

import FoundationEssentials

#if canImport(Glibc)
import Glibc
#endif

/// The few file syscalls the cache, the list reader, the hooks and saved
/// copies need: the one place where their failures become `Errno` values
/// (retried on EINTR, never reported). `package`, not public: its
/// signatures carry C types (`mode_t`, descriptors).
package enum Posix {
    package static func check(_ result: Int32) throws(Errno) {
        if result != 0 { throw Errno.current }
    }

    package static func open(_ path: String, _ flags: Int32, _ mode: mode_t = 0o600) throws(Errno) -> Int32 {
        try Errno.retryingOnInterrupt { Glibc.open(path, flags | O_CLOEXEC, mode) }
    }

    /// Reads a whole regular file of at most `limit` bytes; with
    /// `followLinks` false a symbolic link fails with ELOOP.
    package static func readFile(_ path: String, limit: Int, followLinks: Bool = true) throws(Errno) -> [UInt8] {
        let fd = try open(path, O_RDONLY | (followLinks ? 0 : O_NOFOLLOW))
        defer { close(fd) }
        var info = stat()
        try check(fstat(fd, &info))
        if info.st_mode & S_IFMT == S_IFDIR { throw .isDirectory }
        let bytes = try read(fd, stoppingPast: limit)
        if bytes.count > limit { throw Errno(rawValue: EFBIG) }
        return bytes
    }

    /// What `fd` holds from where it stands to its end, read in chunks, or
    /// as soon as more than `limit` bytes are in (so the result may run past
    /// `limit` by one chunk: the caller decides what that means).
    package static func read(_ fd: Int32, stoppingPast limit: Int) throws(Errno) -> [UInt8] {
        var bytes: [UInt8] = []
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 1)
        defer { chunk.deallocate() }
        while bytes.count <= limit {
            let n = try Errno.retryingOnInterrupt { Glibc.read(fd, chunk.baseAddress, chunk.count) }
            if n == 0 { break }
            bytes.append(contentsOf: chunk[0..<n])
        }
        return bytes
    }

    /// The names in a directory, "." and ".." left out.
    package static func directoryEntries(_ path: String) throws(Errno) -> [String] {
        guard let dir = opendir(path) else { throw Errno.current }
        defer { closedir(dir) }
        var names: [String] = []
        errno = 0
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        if errno != 0 { throw Errno.current }
        return names
    }

    package static func fsync(_ fd: Int32) throws(Errno) {
        _ = try Errno.retryingOnInterrupt { Glibc.fsync(fd) }
    }

    package static func rename(_ from: String, _ to: String) throws(Errno) { try check(Glibc.rename(from, to)) }

    /// A second name for a file (the history keeps the image the current
    /// name is about to lose).
    package static func link(_ from: String, _ to: String) throws(Errno) { try check(Glibc.link(from, to)) }

    /// The file's size in bytes; nil when it does not exist.
    package static func fileSize(_ path: String) -> Int64? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        return Int64(info.st_size)
    }

    /// Makes the directory's entries (a rename) durable.
    package static func syncDirectory(_ path: String) {
        guard let fd = try? open(path, O_RDONLY | O_DIRECTORY) else { return }
        _ = Glibc.fsync(fd)
        close(fd)
    }

    private static func timespec(_ date: Date) -> Glibc.timespec {
        let seconds = date.timeIntervalSince1970.rounded(.down)
        let nanos = (date.timeIntervalSince1970 - seconds) * 1e9
        return Glibc.timespec(tv_sec: Int(seconds), tv_nsec: Int(nanos))
    }

    /// Sets access and modification time of an open file.
    package static func setTimes(fd: Int32, _ date: Date) throws(Errno) {
        var times = [timespec(date), timespec(date)]
        try check(futimens(fd, &times))
    }

    package static func setTimes(path: String, _ date: Date) throws(Errno) {
        var times = [timespec(date), timespec(date)]
        // A link is never followed (the caller's lookup has refused one).
        try check(utimensat(AT_FDCWD, path, &times, AT_SYMLINK_NOFOLLOW))
    }

    /// The modification time, or nil when there is no such file; a
    /// symbolic link is not followed: ELOOP.
    package static func modificationTime(_ path: String) throws(Errno) -> Date? {
        var info = stat()
        if lstat(path, &info) != 0 {
            if errno == ENOENT { return nil }
            throw Errno.current
        }
        if info.st_mode & S_IFMT == S_IFLNK { throw Errno.tooManyLinks }
        guard info.st_mode & S_IFMT == S_IFREG else { return nil }
        return Date(timeIntervalSince1970: Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9)
    }

    package static func isDirectory(_ path: String) -> Bool? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return info.st_mode & S_IFMT == S_IFDIR
    }

    /// The directory `path` is in: "/a" for "/a/b", "/" for "/a", "" for a
    /// bare name. Foundation's `deletingLastPathComponent` traps on some
    /// one-letter paths (`--cache-dir c` crashed), so paths are cut here.
    package static func parent(of path: String) -> String {
        let trimmed = withoutTrailingSlashes(path)
        guard let slash = trimmed.lastIndex(of: "/") else { return "" }
        return slash == trimmed.startIndex ? "/" : String(withoutTrailingSlashes(trimmed[..<slash]))
    }

    /// The last component of `path`: "b.img" for "/a/b.img".
    package static func name(of path: String) -> String {
        let trimmed = withoutTrailingSlashes(path)
        if trimmed == "/" { return "/" }
        return String(trimmed[(trimmed.lastIndex(of: "/").map { trimmed.index(after: $0) } ?? trimmed.startIndex)...])
    }

    private static func withoutTrailingSlashes<S: StringProtocol>(_ path: S) -> S.SubSequence {
        var end = path.endIndex
        // A path of "/" alone stays "/".
        while end > path.startIndex, path.distance(from: path.startIndex, to: end) > 1,
            path[path.index(before: end)] == "/"
        {
            end = path.index(before: end)
        }
        return path[path.startIndex..<end]
    }

    /// Makes sure a directory is at `path`: there already, or created with
    /// its parents (the last with `mode`) when nothing is; false when
    /// something else is there (`makeDirectories` takes an EEXIST for done).
    package static func ensureDirectory(_ path: String, mode: mode_t) throws(Errno) -> Bool {
        switch isDirectory(path) {
        case true?: return true
        case false?: return false
        case nil:
            try makeDirectories(path, mode: mode)
            return true
        }
    }

    /// Creates the directory and its parents; the last one with `mode`.
    private static func makeDirectories(_ path: String, mode: mode_t) throws(Errno) {
        if isDirectory(path) == true { return }
        let parent = parent(of: path)
        if !parent.isEmpty, parent != path, isDirectory(parent) != true {
            try makeDirectories(parent, mode: 0o755)
        }
        if mkdir(path, mode) != 0, errno != EEXIST { throw Errno.current }
    }

    /// The size of `path` (not followed) if it is a regular file: nil for
    /// a link, a FIFO that would block a read, a device, or nothing there.
    package static func regularFileSize(_ path: String) -> Int64? {
        var info = stat()
        guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        return Int64(info.st_size)
    }

    /// Removes a file; a file already gone is not an error.
    package static func unlinkIfPresent(_ path: String) throws(Errno) {
        if unlink(path) != 0, errno != ENOENT { throw Errno.current }
    }

    /// Takes an exclusive advisory lock if no other process holds it:
    /// false when one does.
    package static func tryLockExclusive(_ fd: Int32) throws(Errno) -> Bool {
        do {
            _ = try Errno.retryingOnInterrupt { flock(fd, LOCK_EX | LOCK_NB) }
            return true
        } catch {
            if error == .wouldBlock { return false }
            throw error
        }
    }

    /// Whether `path` (its last component not followed) is the file open as `fd`.
    package static func sameFile(_ fd: Int32, _ path: String) -> Bool {
        var open = stat()
        var named = stat()
        guard fstat(fd, &open) == 0, lstat(path, &named) == 0 else { return false }
        return open.st_dev == named.st_dev && open.st_ino == named.st_ino
    }

    /// Whether something is at `path` (links followed: a dangling one is not).
    package static func exists(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0
    }

    /// Whether we may execute `path` (`access(X_OK)`: a searchable directory passes too).
    package static func isExecutable(_ path: String) -> Bool { access(path, X_OK) == 0 }

    /// A regular file (links followed) that we may execute.
    package static func isExecutableFile(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG && access(path, X_OK) == 0
    }
}

extension Posix {
    /// TMPDIR when set, else /tmp, without a trailing slash: where
    /// Foundation's `NSTemporaryDirectory` looked.
    package static var temporaryDirectory: String {
        let tmpdir = getenv("TMPDIR").map { String(cString: $0) } ?? ""
        let folder = String(withoutTrailingSlashes(tmpdir))
        return folder.isEmpty ? "/tmp" : folder
    }

    /// The home directory in the password database, else /: where
    /// Foundation's `NSHomeDirectory` looked when HOME was unset.
    package static var homeDirectory: String {
        guard let entry = getpwuid(getuid()), let dir = entry.pointee.pw_dir else { return "/" }
        let home = String(cString: dir)
        return home.isEmpty ? "/" : home
    }
}

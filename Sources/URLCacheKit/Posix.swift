import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Thin wrappers over the few syscalls the cache needs, each turning errno
/// into a reason string (FileSystemError) at one place.
enum Posix {
    struct Failure: Error {
        let code: Int32
        var reason: String { FileSystemError.reason(errno: code) }
    }

    static func check(_ result: Int32) throws(Failure) {
        if result != 0 { throw Failure(code: errno) }
    }

    static func open(_ path: String, _ flags: Int32, _ mode: mode_t = 0o600) throws(Failure) -> Int32 {
        while true {
            let fd = Glibc.open(path, flags | O_CLOEXEC, mode)
            if fd >= 0 { return fd }
            if errno != EINTR { throw Failure(code: errno) }
        }
    }

    /// Writes every byte, retrying short writes and EINTR.
    static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) throws(Failure) {
        var offset = 0
        while offset < bytes.count {
            guard let base = bytes.baseAddress else { return }
            let n = Glibc.write(fd, base + offset, bytes.count - offset)
            if n < 0 {
                if errno == EINTR { continue }
                throw Failure(code: errno)
            }
            offset += n
        }
    }

    static func fsync(_ fd: Int32) throws(Failure) { try check(Glibc.fsync(fd)) }

    static func rename(_ from: String, _ to: String) throws(Failure) { try check(Glibc.rename(from, to)) }

    /// Makes the directory's entries (a rename) durable.
    static func syncDirectory(_ path: String) {
        guard let fd = try? open(path, O_RDONLY | O_DIRECTORY) else { return }
        _ = Glibc.fsync(fd)
        close(fd)
    }

    static func timespec(_ date: Date) -> Glibc.timespec {
        let seconds = date.timeIntervalSince1970.rounded(.down)
        let nanos = (date.timeIntervalSince1970 - seconds) * 1e9
        return Glibc.timespec(tv_sec: Int(seconds), tv_nsec: Int(nanos))
    }

    /// Sets access and modification time of an open file.
    static func setTimes(fd: Int32, _ date: Date) throws(Failure) {
        var times = [timespec(date), timespec(date)]
        try check(futimens(fd, &times))
    }

    static func setTimes(path: String, _ date: Date) throws(Failure) {
        var times = [timespec(date), timespec(date)]
        try check(utimensat(AT_FDCWD, path, &times, 0))
    }

    /// The modification time, or nil when there is no such file.
    static func modificationTime(_ path: String) throws(Failure) -> Date? {
        var info = stat()
        if stat(path, &info) != 0 {
            if errno == ENOENT { return nil }
            throw Failure(code: errno)
        }
        guard info.st_mode & S_IFMT == S_IFREG else { return nil }
        return Date(timeIntervalSince1970: Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9)
    }

    static func isDirectory(_ path: String) -> Bool? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return info.st_mode & S_IFMT == S_IFDIR
    }

    /// Creates the directory and its parents; the last one with `mode`.
    static func makeDirectories(_ path: String, mode: mode_t) throws(Failure) {
        if isDirectory(path) == true { return }
        let parent = (path as NSString).deletingLastPathComponent
        if !parent.isEmpty, parent != path, isDirectory(parent) != true {
            try makeDirectories(parent, mode: 0o755)
        }
        if mkdir(path, mode) != 0, errno != EEXIST { throw Failure(code: errno) }
    }

    /// Removes a file; a file already gone is not an error.
    static func unlinkIfPresent(_ path: String) throws(Failure) {
        if unlink(path) != 0, errno != ENOENT { throw Failure(code: errno) }
    }

    /// Takes an exclusive advisory lock, waiting for another holder.
    static func lockExclusive(_ fd: Int32) throws(Failure) {
        while flock(fd, LOCK_EX) != 0 {
            if errno != EINTR { throw Failure(code: errno) }
        }
    }
}

#if canImport(Glibc)
import Glibc
#endif

/// A failed system call's errno, kept as its code (as swift-system's `Errno`
/// does), so that a caller can tell a full disk from a denied permission;
/// its description is the C library's words, for people.
public struct Errno: Error, Hashable, Sendable, CustomStringConvertible {
    /// The errno value.
    public let rawValue: Int32

    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// The calling thread's errno now.
    public static var current: Errno { Errno(rawValue: errno) }

    /// ENOSPC: the file system is full.
    public static let noSpace = Errno(rawValue: ENOSPC)
    /// EACCES.
    public static let permissionDenied = Errno(rawValue: EACCES)
    /// ENOENT.
    public static let noSuchFile = Errno(rawValue: ENOENT)
    /// EISDIR: a directory where a file was expected.
    public static let isDirectory = Errno(rawValue: EISDIR)
    /// EEXIST.
    public static let exists = Errno(rawValue: EEXIST)
    /// EINTR: a signal arrived during the call; it is retried, never reported.
    public static let interrupted = Errno(rawValue: EINTR)
    /// ELOOP: `O_NOFOLLOW` met a symbolic link.
    public static let tooManyLinks = Errno(rawValue: ELOOP)
    /// EROFS: a read-only file system.
    public static let readOnlyFileSystem = Errno(rawValue: EROFS)
    /// EWOULDBLOCK: a lock another process holds.
    public static let wouldBlock = Errno(rawValue: EWOULDBLOCK)

    /// "no space left on device": strerror's text with a lowercase first letter,
    /// as it ends a sentence of ours.
    public var description: String {
        let text = String(cString: strerror(rawValue))
        guard let first = text.first else { return "error \(rawValue)" }
        return first.lowercased() + text.dropFirst()
    }

    /// Calls `call` until it succeeds or fails with anything but EINTR.
    /// `call` follows the C convention: -1 and errno on failure.
    @inlinable
    public static func retryingOnInterrupt<T: FixedWidthInteger & SignedInteger>(_ call: () -> T) throws(Errno) -> T {
        while true {
            let result = call()
            if result != -1 { return result }
            let failure = Errno.current
            if failure != .interrupted { throw failure }
        }
    }
}

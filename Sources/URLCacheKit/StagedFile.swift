import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A temporary file in the cache directory that a download is written to.
/// It becomes the cached image only through `DiskCache.commit`; otherwise
/// `discard` removes it.
public final class StagedFile: @unchecked Sendable {
    /// The temporary file's path.
    public let path: String
    private var fd: Int32
    /// Bytes written so far.
    public private(set) var byteCount: Int64 = 0

    init(path: String, fd: Int32) {
        self.path = path
        self.fd = fd
    }

    deinit {
        if fd >= 0 { close(fd) }
    }

    /// Appends bytes.
    func write(_ bytes: UnsafeRawBufferPointer) throws(Posix.Failure) {
        try Posix.writeAll(fd, bytes)
        byteCount += Int64(bytes.count)
    }

    func write(_ bytes: [UInt8]) throws(Posix.Failure) {
        var failure: Posix.Failure?
        bytes.withUnsafeBytes { raw in
            do throws(Posix.Failure) { try self.write(raw) } catch { failure = error }
        }
        if let failure { throw failure }
    }

    /// Appends bytes; the reason is a person's words ("no space left on device").
    public func append(_ bytes: UnsafeRawBufferPointer) throws(CacheError) {
        do { try write(bytes) } catch { throw .writeFailed(path: path, reason: error.reason) }
    }

    /// Flushes to disk and closes, setting the modification time if given.
    func finish(updated: Date?) throws(Posix.Failure) {
        if let updated { try Posix.setTimes(fd: fd, updated) }
        try Posix.fsync(fd)
        let result = close(fd)
        fd = -1
        try Posix.check(result)
    }

    /// Reads the first bytes written, to tell what kind of file it is.
    public func prefix(_ count: Int) -> [UInt8] {
        guard let handle = FileHandle(forReadingAtPath: path) else { return [] }
        defer { try? handle.close() }
        return [UInt8]((try? handle.read(upToCount: count)) ?? Data())
    }

    /// Closes and removes the file.
    public func discard() {
        if fd >= 0 {
            close(fd)
            fd = -1
        }
        unlink(path)
    }
}

#if canImport(Glibc)
import Glibc
#endif

/// Writes every byte to `fd`, retrying short writes and EINTR: the one loop
/// for the cache's files, the screen's raw writes and detection's queries.
public func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) throws(Errno) {
    guard let base = bytes.baseAddress else { return }
    var offset = 0
    while offset < bytes.count {
        offset += try Errno.retryingOnInterrupt { Glibc.write(fd, base + offset, bytes.count - offset) }
    }
}

/// `writeAll` for an array.
public func writeAll(_ fd: Int32, _ bytes: [UInt8]) throws(Errno) {
    let result = bytes.withUnsafeBytes { raw in Result { () throws(Errno) in try writeAll(fd, raw) } }
    try result.get()
}

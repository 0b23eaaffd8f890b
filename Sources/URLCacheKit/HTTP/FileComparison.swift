import URLCacheSupport

#if canImport(Glibc)
import Glibc
#endif

/// Byte-for-byte comparison of two files, for servers that send no usable
/// validators.
enum FileComparison {
    static func sameContents(_ a: String, _ b: String) -> Bool {
        guard let fa = try? Posix.open(a, O_RDONLY) else { return false }
        defer { close(fa) }
        guard let fb = try? Posix.open(b, O_RDONLY) else { return false }
        defer { close(fb) }
        var bufferA = [UInt8](repeating: 0, count: 1 << 16)
        var bufferB = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            guard let countA = fill(fa, &bufferA), let countB = fill(fb, &bufferB), countA == countB,
                bufferA[..<countA] == bufferB[..<countB]
            else { return false }
            if countA == 0 { return true }
        }
    }

    /// Reads until `buffer` is full or the file ends; nil on an error.
    private static func fill(_ fd: Int32, _ buffer: inout [UInt8]) -> Int? {
        var count = 0
        while count < buffer.count {
            let rest = buffer.count - count
            let got = buffer.withUnsafeMutableBytes { raw in
                try? Errno.retryingOnInterrupt { Glibc.read(fd, raw.baseAddress?.advanced(by: count), rest) }
            }
            guard let got else { return nil }
            if got == 0 { break }
            count += got
        }
        return count
    }
}

import Foundation

/// Byte-for-byte comparison of two files, for servers that send no usable
/// validators.
enum FileComparison {
    static func sameContents(_ a: String, _ b: String) -> Bool {
        guard let ha = FileHandle(forReadingAtPath: a), let hb = FileHandle(forReadingAtPath: b) else { return false }
        defer {
            try? ha.close()
            try? hb.close()
        }
        while true {
            let da = (try? ha.read(upToCount: 1 << 16)) ?? Data()
            let db = (try? hb.read(upToCount: 1 << 16)) ?? Data()
            if da != db { return false }
            if da.isEmpty { return true }
        }
    }
}

#if canImport(Glibc)
import Glibc
#endif

/// A WebP's ICC profile: its ICCP chunk, which an extended file (VP8X with
/// the ICC flag) carries before its image data. Read from the file's
/// chunk headers alone, then the file is rewound for the decoder.
enum WebPProfile {
    /// The largest profile taken: real ones are a few KB, Display P3's 548 bytes.
    static let maxBytes = 4 << 20

    static func read(_ file: UnsafeMutablePointer<FILE>) -> [UInt8]? {
        defer { rewind(file) }
        rewind(file)
        var head = [UInt8](repeating: 0, count: 30)
        // RIFF size WEBP, then VP8X (its 10 bytes: the flags first).
        guard fread(&head, 1, head.count, file) == head.count, Array(head[12..<16]) == Array("VP8X".utf8),
            head[20] & 0x20 != 0
        else { return nil }
        // Chunks after VP8X, until the ICCP one or the image's.
        for _ in 0..<8 {
            var chunk = [UInt8](repeating: 0, count: 8)
            guard fread(&chunk, 1, 8, file) == 8 else { return nil }
            let type = String(decoding: chunk[0..<4], as: UTF8.self)
            let size = Int(chunk[4]) | Int(chunk[5]) << 8 | Int(chunk[6]) << 16 | Int(chunk[7]) << 24
            if type == "ICCP" {
                guard size > 0, size <= maxBytes else { return nil }
                var profile = [UInt8](repeating: 0, count: size)
                return fread(&profile, 1, size, file) == size ? profile : nil
            }
            if ["VP8 ", "VP8L", "ANIM", "ANMF"].contains(type) { return nil }
            guard fseeko(file, off_t(size + size % 2), SEEK_CUR) == 0 else { return nil }
        }
        return nil
    }
}

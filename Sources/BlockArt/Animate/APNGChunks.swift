internal import CImageShim

#if canImport(Glibc)
import Glibc
#endif

/// An APNG's chunks as an index (where each is in the file), read once
/// without their data: the animation's control (`acTL`), and for each
/// frame its `fcTL` and the chunks holding its pixels (`IDAT` for a frame
/// whose control comes before them, else its `fdAT`s). The PNG
/// specification's third edition (W3C, 2025) defines them.
struct APNGChunks {
    /// One chunk: its type, and where its data starts and how long it is.
    struct Chunk {
        var type: String
        var offset: Int64
        var length: Int
    }

    /// One frame: its control chunk and its data chunks.
    struct Frame {
        var control: Chunk
        var data: [Chunk] = []
        /// Its data is in `IDAT`s (the default image is frame 0).
        var fromIDAT = false
    }

    /// IHDR's data.
    var header: [UInt8] = []
    /// Chunks between IHDR and the first IDAT that a frame's own PNG
    /// needs (PLTE, tRNS, gAMA, cHRM, sRGB, iCCP, sBIT): kept with data.
    var shared: [(type: String, data: [UInt8])] = []
    /// acTL's plays (0: forever), and the frames it announces.
    var plays = 0
    var announced = 0
    var frames: [Frame] = []

    /// Chunk types a frame's PNG takes from the file before its pixels.
    static let sharedTypes: Set<String> = ["PLTE", "tRNS", "gAMA", "cHRM", "sRGB", "iCCP", "sBIT"]

    /// The index of the PNG in `file`, or nil when it is no animation (no
    /// acTL before its pixels) or its chunks cannot be walked. At most
    /// `most` frames are indexed.
    static func read(_ file: UnsafeMutablePointer<FILE>, most: Int) -> APNGChunks? {
        var reader = ChunkReader(file: file)
        guard reader.signature() else { return nil }
        var index = APNGChunks()
        var seenIDAT = false
        while let chunk = reader.next() {
            switch chunk.type {
            case "IHDR":
                guard let data = reader.data(of: chunk), data.count == 13 else { return nil }
                index.header = data
            case "acTL" where !seenIDAT:
                guard let data = reader.data(of: chunk), data.count == 8 else { return nil }
                index.announced = Int(BigEndian.u32(data, 0))
                index.plays = Int(BigEndian.u32(data, 4))
            case "fcTL":
                guard index.frames.count < most else { return index.usable }
                index.frames.append(Frame(control: chunk))
            case "IDAT":
                seenIDAT = true
                if let last = index.frames.indices.last, index.frames.count == 1,
                    index.frames[last].data.isEmpty
                        || index.frames[last].fromIDAT
                {
                    index.frames[last].data.append(chunk)
                    index.frames[last].fromIDAT = true
                }
            case "fdAT":
                if let last = index.frames.indices.last, !index.frames[last].fromIDAT {
                    index.frames[last].data.append(chunk)
                }
            case "IEND":
                return index.usable
            case let type where !seenIDAT && sharedTypes.contains(type):
                guard let data = reader.data(of: chunk) else { return nil }
                index.shared.append((type, data))
            default: break
            }
        }
        // A file cut short: the frames whole so far.
        return index.usable
    }

    /// Itself when it animates: an acTL, IHDR, and two frames with data.
    private var usable: APNGChunks? {
        guard announced > 0, header.count == 13 else { return nil }
        var whole = self
        whole.frames = frames.filter { !$0.data.isEmpty }
        return whole.frames.count > 1 ? whole : nil
    }
}

/// Walks a PNG's chunks in a FILE, checking each one's CRC when its data
/// is read. A chunk is believed only as far as the file holds it: a
/// length past the file's end ends the walk, so nothing is ever sized by
/// a length field alone.
struct ChunkReader {
    let file: UnsafeMutablePointer<FILE>
    /// The file's size in bytes.
    private let size: Int64
    /// Chunks walked: a file of millions of empty chunks is cut here.
    private var walked = 0
    static let maxChunks = 1_000_000

    init(file: UnsafeMutablePointer<FILE>) {
        self.file = file
        var info = stat()
        size = fstat(fileno(file), &info) == 0 ? Int64(info.st_size) : 0
    }

    mutating func signature() -> Bool {
        rewind(file)
        var head = [UInt8](repeating: 0, count: 8)
        return fread(&head, 1, 8, file) == 8 && head == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    }

    /// The next chunk's type and place; the file is left after its CRC.
    mutating func next() -> APNGChunks.Chunk? {
        walked += 1
        var head = [UInt8](repeating: 0, count: 8)
        guard walked <= Self.maxChunks, fread(&head, 1, 8, file) == 8 else { return nil }
        let length = BigEndian.u32(head, 0)
        guard length <= 0x7FFF_FFFF, head[4...].allSatisfy({ ($0 | 0x20) >= 0x61 && ($0 | 0x20) <= 0x7A }) else {
            return nil
        }
        let offset = Int64(ftello(file))
        guard offset + Int64(length) + 4 <= size, fseeko(file, off_t(Int64(length) + 4), SEEK_CUR) == 0 else {
            return nil
        }
        return APNGChunks.Chunk(
            type: String(decoding: head[4..<8], as: UTF8.self),
            offset: offset,
            length: Int(length)
        )
    }

    /// `chunk`'s data, when the file holds all of it and its CRC matches.
    func data(of chunk: APNGChunks.Chunk) -> [UInt8]? {
        guard chunk.offset + Int64(chunk.length) + 4 <= size else { return nil }
        let here = ftello(file)
        defer { fseeko(file, here, SEEK_SET) }
        guard fseeko(file, off_t(chunk.offset), SEEK_SET) == 0 else { return nil }
        var bytes = [UInt8](repeating: 0, count: chunk.length + 4)
        guard fread(&bytes, 1, bytes.count, file) == bytes.count else { return nil }
        let stored = BigEndian.u32(bytes, chunk.length)
        bytes.removeLast(4)
        guard CRC32.of(Array(chunk.type.utf8), bytes) == stored else { return nil }
        return bytes
    }
}

/// PNG's CRC-32 over a chunk's type and data: zlib's, which libpng links.
enum CRC32 {
    static func of(_ parts: [UInt8]...) -> UInt32 {
        parts.reduce(0) { crc, part in part.withUnsafeBufferPointer { cimg_crc32(crc, $0.baseAddress, $0.count) } }
    }
}

/// Big-endian integers in PNG's chunks.
enum BigEndian {
    static func u32(_ bytes: [UInt8], _ at: Int) -> UInt32 {
        UInt32(bytes[at]) << 24 | UInt32(bytes[at + 1]) << 16 | UInt32(bytes[at + 2]) << 8 | UInt32(bytes[at + 3])
    }

    static func u16(_ bytes: [UInt8], _ at: Int) -> UInt16 { UInt16(bytes[at]) << 8 | UInt16(bytes[at + 1]) }

    static func append(_ value: UInt32, to bytes: inout [UInt8]) {
        bytes += [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }
}

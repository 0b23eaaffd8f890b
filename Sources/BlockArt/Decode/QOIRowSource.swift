#if canImport(Glibc)
import Glibc
#endif

/// QOI (qoiformat.org: the whole format fits on a page), decoded here, in
/// Swift: a header, then a stream of chunks, each a run, an index into the
/// 64 colours seen, a small difference from the last pixel, or the pixel
/// itself. Rows come as RGBA8 at full size; the file is read whole, within
/// the limit its size allows (a pixel is at most five bytes).
final class QOIRowSource: RowSource {
    private let bytes: [UInt8]
    private(set) var width = 0, height = 0
    let channels = 4
    var format: ImageFormat { .qoi }
    var orientation: Int { 1 }
    var storedSize: PixelSize { PixelSize(width: width, height: height) }
    private(set) var warnings: [DecodeWarning] = []
    var rowCount: Int { height }
    /// Where the next chunk is, and the decoder's state between rows.
    private var at = 14
    private var previous: (UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 255)
    private var index = [(UInt8, UInt8, UInt8, UInt8)](repeating: (0, 0, 0, 0), count: 64)
    private var run = 0
    private var nextIndex = 0

    init(file: UnsafeMutablePointer<FILE>, limits: DecodeLimits) throws(DecodeError) {
        var header = [UInt8](repeating: 0, count: 14)
        guard fread(&header, 1, 14, file) == 14, header.starts(with: Array("qoif".utf8)) else {
            throw .corrupt(format: "QOI", message: "no QOI header")
        }
        func word(_ i: Int) -> Int { header[i..<i + 4].reduce(0) { $0 << 8 | Int($1) } }
        width = word(4)
        height = word(8)
        guard width > 0, height > 0, header[12] == 3 || header[12] == 4 else {
            throw .corrupt(format: "QOI", message: "bad header")
        }
        try limits.check(width: width, height: height)
        // The chunks of width × height pixels take at most five bytes each.
        let most = 14 + width * height * 5 + 8
        var data = header
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while data.count < most {
            let got = fread(&chunk, 1, min(chunk.count, most - data.count), file)
            if got == 0 { break }
            data += chunk[0..<got]
        }
        bytes = data
    }

    func start(minWidth: Int, minHeight: Int) throws(DecodeError) {}

    func nextRow(_ row: UnsafeMutablePointer<UInt8>) throws(DecodeError) -> RowPlacement {
        defer { nextIndex += 1 }
        for x in 0..<width {
            let pixel = try nextPixel()
            row[4 * x] = pixel.0
            row[4 * x + 1] = pixel.1
            row[4 * x + 2] = pixel.2
            row[4 * x + 3] = pixel.3
        }
        return RowPlacement(y: nextIndex, count: width)
    }

    func finish() throws(DecodeError) {}

    /// The next pixel of the stream; a stream cut short is an error.
    private func nextPixel() throws(DecodeError) -> (UInt8, UInt8, UInt8, UInt8) {
        if run > 0 {
            run -= 1
            return previous
        }
        guard at < bytes.count else { throw .corrupt(format: "QOI", message: "cut short") }
        let tag = bytes[at]
        at += 1
        var pixel = previous
        switch tag {
        case 0xFE, 0xFF:
            let count = tag == 0xFE ? 3 : 4
            guard at + count <= bytes.count else { throw .corrupt(format: "QOI", message: "cut short") }
            pixel = (bytes[at], bytes[at + 1], bytes[at + 2], tag == 0xFF ? bytes[at + 3] : previous.3)
            at += count
        default:
            switch tag >> 6 {
            case 0: pixel = index[Int(tag & 0x3F)]
            case 1:
                pixel.0 = previous.0 &+ (tag >> 4 & 3) &- 2
                pixel.1 = previous.1 &+ (tag >> 2 & 3) &- 2
                pixel.2 = previous.2 &+ (tag & 3) &- 2
            case 2:
                guard at < bytes.count else { throw .corrupt(format: "QOI", message: "cut short") }
                let green = (tag & 0x3F) &- 32
                let second = bytes[at]
                at += 1
                pixel.0 = previous.0 &+ green &+ (second >> 4) &- 8
                pixel.1 = previous.1 &+ green
                pixel.2 = previous.2 &+ green &+ (second & 0x0F) &- 8
            default:
                run = Int(tag & 0x3F)
                return previous
            }
        }
        let hash = (Int(pixel.0) * 3 + Int(pixel.1) * 5 + Int(pixel.2) * 7 + Int(pixel.3) * 11) % 64
        index[hash] = pixel
        previous = pixel
        return pixel
    }
}

internal import CImageShim

#if canImport(Glibc)
import Glibc
#endif

/// giflib through the C shim: the first frame of a GIF, read line by line
/// so that memory follows the output. A frame that fills its logical
/// screen comes as its lines of palette indices, as giflib reads them;
/// any other as RGBA8 rows of the screen.
///
/// The screen is what a browser shows: wherever the first frame does not
/// cover it, or its transparent index is drawn, it is transparent, and so
/// composited over the background. A frame that reaches past a screen too
/// small for it widens the screen, as browsers do, rather than being cut.
final class GIFRowSource: RowSource {
    private let decoder: OpaquePointer
    /// Whether rows are the frame's lines of indices (it fills the screen):
    /// giflib then reads straight into the row, and the palette is looked
    /// up by the consumer.
    private var indexed = false
    var channels: Int { indexed ? 1 : 4 }
    var palette: [UInt32]? { indexed ? colors : nil }
    var format: ImageFormat { .gif }
    var orientation: Int { 1 }
    private(set) var width = 0, height = 0
    var storedSize: PixelSize { PixelSize(width: width, height: height) }
    var rowCount: Int { height }
    private var frame = cimg_gif_frame()
    /// The frame's palette as RGBA8 pixels (one 32-bit word each, in memory
    /// order), the transparent index with alpha 0.
    private var colors = [UInt32](repeating: 0, count: 256)
    private var indices: [UInt8] = []
    /// Which frame row each stored line is (the passes of an interlaced frame).
    private var order: [Int] = []
    private var nextIndex = 0
    private var truncated = false

    // As for PNG: after `decoder` is set, deinit closes it on any throw.
    init(file: UnsafeMutablePointer<FILE>, limits: DecodeLimits) throws(DecodeError) {
        guard let decoder = cimg_gif_open(file) else { throw .outOfMemory }
        self.decoder = decoder
        var w: UInt32 = 0
        var h: UInt32 = 0
        guard cimg_gif_read_header(decoder, &w, &h) == 0 else { throw failure() }
        // The screen counts before any frame is read: a 65535² screen
        // around a small frame is refused here.
        if w > 0 && h > 0 { try limits.check(width: Int(w), height: Int(h)) }
        switch cimg_gif_next_frame(decoder, &frame) {
        case 0: break
        case 1: throw .corrupt(format: "GIF", message: "no image in the file")
        default: throw failure()
        }
        width = max(Int(w), Int(frame.left) + Int(frame.width))
        height = max(Int(h), Int(frame.top) + Int(frame.height))
        try limits.check(width: width, height: height)
        colors = GIFRowSource.paletteWords(decoder, transparent: Int(frame.transparent))
        indexed = frame.left == 0 && frame.top == 0 && Int(frame.width) == width && Int(frame.height) == height
        // (Indexed lines are read straight into the row.)
        indices = indexed ? [] : [UInt8](repeating: 0, count: Int(frame.width))
        order = GIFRowSource.lineOrder(height: Int(frame.height), interlaced: frame.interlaced != 0)
    }

    deinit { cimg_gif_close(decoder) }

    /// The frame's palette as RGBA8 pixels, one 32-bit word each in memory
    /// order (a pixel is one store): indices past it are opaque black, the
    /// transparent index has alpha 0.
    static func paletteWords(_ decoder: OpaquePointer, transparent: Int) -> [UInt32] {
        var rgb = [UInt8](repeating: 0, count: 768)
        let count = Int(cimg_gif_palette(decoder, &rgb))
        return (0..<256).map { i in
            let (r, g, b) = i < count ? (UInt32(rgb[i * 3]), UInt32(rgb[i * 3 + 1]), UInt32(rgb[i * 3 + 2])) : (0, 0, 0)
            let a: UInt32 = i == transparent ? 0 : 255
            // Bytes r, g, b, a in memory on any byte order.
            return UInt32(littleEndian: r | g << 8 | b << 16 | a << 24)
        }
    }

    /// The frame row of each stored line: in order, or GIF's four
    /// interlace passes (every 8th row from 0, every 8th from 4, every 4th
    /// from 2, every 2nd from 1).
    static func lineOrder(height: Int, interlaced: Bool) -> [Int] {
        guard interlaced else { return Array(0..<height) }
        return [(0, 8), (4, 8), (2, 4), (1, 2)].flatMap { start, step in
            Array(stride(from: start, to: height, by: step))
        }
    }

    /// GIF has no scaled decoding: the resampler does it all.
    func start(minWidth: Int, minHeight: Int) throws(DecodeError) {}

    /// Rows above the frame, then the frame's lines as stored, then the
    /// rows below it: in order unless the frame is interlaced.
    func nextRow(_ row: UnsafeMutablePointer<UInt8>) throws(DecodeError) -> RowPlacement {
        defer { nextIndex += 1 }
        let top = Int(frame.top)
        let line = nextIndex - top
        guard line >= 0 && line < order.count else {
            // (Only a frame that leaves the screen's rows bare, never indexed.)
            row.update(repeating: 0, count: width * channels)
            return RowPlacement(y: nextIndex, count: width)
        }
        let placement = RowPlacement(y: top + order[line], count: width)
        if indexed {
            if !truncated && cimg_gif_read_line(decoder, row, frame.width) == 0 { return placement }
        } else if !truncated && cimg_gif_read_line(decoder, &indices, frame.width) == 0 {
            expand(into: row)
            return placement
        }
        if !truncated {
            // What was decoded is shown; a file cut before any line is refused.
            guard line > 0 else { throw failure() }
            truncated = true
        }
        // A line not decoded: transparent, over the background.
        if indexed { return RowPlacement(y: placement.y, count: 0) }
        row.update(repeating: 0, count: width * 4)
        return placement
    }

    /// The line just read as RGBA8 across the screen's width: its pixels
    /// a word each from the palette, transparent where the frame is not.
    private func expand(into row: UnsafeMutablePointer<UInt8>) {
        let left = Int(frame.left)
        let count = indices.count
        row.update(repeating: 0, count: left * 4)
        row.advanced(by: (left + count) * 4).update(repeating: 0, count: (width - left - count) * 4)
        let pixels = UnsafeMutableRawPointer(row + left * 4)
        colors.withUnsafeBufferPointer { table in
            indices.withUnsafeBufferPointer { line in
                for x in 0..<count { pixels.storeBytes(of: table[Int(line[x])], toByteOffset: x * 4, as: UInt32.self) }
            }
        }
    }

    func finish() throws(DecodeError) {}

    var warnings: [DecodeWarning] { truncated ? [.truncated(format: "GIF")] : [] }

    private func failure() -> DecodeError {
        .corrupt(format: "GIF", message: String(cString: cimg_gif_message(decoder)))
    }
}

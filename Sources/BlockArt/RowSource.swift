internal import CImageShim
#if canImport(Glibc)
import Glibc
#endif

/// A decoder delivering 8-bit rows: RGBA for PNG, RGB for JPEG. Plain
/// images come top to bottom, whole rows; an interlaced PNG comes as its
/// Adam7 passes, each row a sparse set of one image row's pixels.
protocol RowSource: AnyObject {
    var width: Int { get }
    var height: Int { get }
    /// Bytes per pixel in the rows delivered (4 or 3).
    var channels: Int { get }
    /// How many rows `nextRow` delivers: the height, or for an interlaced
    /// image the rows of all its passes.
    var rowCount: Int { get }
    /// Fills `row` (at most width × channels bytes) with the next row and
    /// says where its pixels belong.
    func nextRow(_ row: UnsafeMutablePointer<UInt8>) throws(DecodeError) -> RowPlacement
    /// Reads past the last row, so that a damaged tail is reported.
    func finish() throws(DecodeError)
}

/// Where a delivered row's `count` pixels go: columns xStart, xStart +
/// xStep, … of image row `y`.
struct RowPlacement: Equatable {
    var y: Int
    var xStart = 0
    var xStep = 1
    var count: Int

    /// Whether it is the whole of row `y`.
    var isWholeRow: Bool { xStart == 0 && xStep == 1 }
}

/// PNG's Adam7 interlacing: seven passes over sub-lattices of the image.
enum Adam7 {
    /// Each pass's first column and row and its steps across and down.
    static let passes: [(xStart: Int, yStart: Int, xStep: Int, yStep: Int)] = [
        (0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2),
    ]

    /// The rows, in order, that the passes deliver for a width × height
    /// image (passes with no pixels are skipped, as libpng skips them).
    static func placements(width: Int, height: Int) -> [RowPlacement] {
        var result: [RowPlacement] = []
        for pass in passes {
            let columns = width > pass.xStart ? (width - pass.xStart + pass.xStep - 1) / pass.xStep : 0
            let rows = height > pass.yStart ? (height - pass.yStart + pass.yStep - 1) / pass.yStep : 0
            guard columns > 0 else { continue }
            for j in 0..<rows {
                result.append(RowPlacement(y: pass.yStart + j * pass.yStep, xStart: pass.xStart, xStep: pass.xStep, count: columns))
            }
        }
        return result
    }
}

/// libpng through the C shim: every colour type and depth as RGBA8.
final class PNGRowSource: RowSource {
    private let decoder: OpaquePointer
    private(set) var width = 0, height = 0
    let channels = 4
    /// For an interlaced image, where each delivered row goes (about two
    /// entries per image row: nothing the size of the pixels).
    private var placements: [RowPlacement]?
    private var nextIndex = 0

    var rowCount: Int { placements?.count ?? height }

    // Once `decoder` is set every property is initialised, so a throw from
    // here on runs deinit, which closes the decoder: never close it here too.
    init(file: UnsafeMutablePointer<FILE>, limits: DecodeLimits) throws(DecodeError) {
        guard let decoder = cimg_png_open(file) else { throw .outOfMemory }
        self.decoder = decoder
        var w: UInt32 = 0, h: UInt32 = 0, interlaced: Int32 = 0
        guard cimg_png_read_header(decoder, &w, &h, &interlaced) == 0 else {
            throw .corrupt(format: "PNG", message: String(cString: cimg_png_message(decoder)))
        }
        width = Int(w)
        height = Int(h)
        try limits.check(width: width, height: height)
        if interlaced != 0 { placements = Adam7.placements(width: width, height: height) }
    }

    deinit { cimg_png_close(decoder) }

    func nextRow(_ row: UnsafeMutablePointer<UInt8>) throws(DecodeError) -> RowPlacement {
        guard cimg_png_read_row(decoder, row) == 0 else {
            throw .corrupt(format: "PNG", message: String(cString: cimg_png_message(decoder)))
        }
        defer { nextIndex += 1 }
        return placements?[nextIndex] ?? RowPlacement(y: nextIndex, count: width)
    }

    func finish() throws(DecodeError) {
        guard cimg_png_finish(decoder) == 0 else {
            throw .corrupt(format: "PNG", message: String(cString: cimg_png_message(decoder)))
        }
    }
}

/// libjpeg-turbo through the C shim, decoding at the smallest DCT scale
/// (n/8) still at least the size needed.
final class JPEGRowSource: RowSource {
    private let decoder: OpaquePointer
    private(set) var width = 0, height = 0
    let channels = 3
    /// The stored image's full size and EXIF orientation, from the header.
    private(set) var fullWidth = 0, fullHeight = 0, orientation = 1

    // As for PNG: after `decoder` is set, deinit closes it on any throw.
    init(file: UnsafeMutablePointer<FILE>, limits: DecodeLimits) throws(DecodeError) {
        guard let decoder = cimg_jpeg_open(file) else { throw .outOfMemory }
        self.decoder = decoder
        var w: UInt32 = 0, h: UInt32 = 0, orientation: Int32 = 1
        guard cimg_jpeg_read_header(decoder, &w, &h, &orientation) == 0 else {
            throw .corrupt(format: "JPEG", message: String(cString: cimg_jpeg_message(decoder)))
        }
        fullWidth = Int(w)
        fullHeight = Int(h)
        self.orientation = Int(orientation)
        try limits.check(width: fullWidth, height: fullHeight)
    }

    deinit { cimg_jpeg_close(decoder) }

    /// Starts decoding at the smallest scale whose size is at least
    /// `minWidth` × `minHeight` (in stored orientation).
    func start(minWidth: Int, minHeight: Int) throws(DecodeError) {
        var scale: UInt32 = 8
        for n in 1...8 {
            let w = (fullWidth * n + 7) / 8, h = (fullHeight * n + 7) / 8
            if w >= minWidth && h >= minHeight {
                scale = UInt32(n)
                break
            }
        }
        var w: UInt32 = 0, h: UInt32 = 0
        guard cimg_jpeg_start(decoder, scale, &w, &h) == 0 else {
            throw .corrupt(format: "JPEG", message: String(cString: cimg_jpeg_message(decoder)))
        }
        width = Int(w)
        height = Int(h)
    }

    var rowCount: Int { height }
    private var nextIndex = 0

    func nextRow(_ row: UnsafeMutablePointer<UInt8>) throws(DecodeError) -> RowPlacement {
        guard cimg_jpeg_read_row(decoder, row) == 0 else {
            throw .corrupt(format: "JPEG", message: String(cString: cimg_jpeg_message(decoder)))
        }
        defer { nextIndex += 1 }
        return RowPlacement(y: nextIndex, count: width)
    }

    func finish() throws(DecodeError) {}
}

/// What the decoders refuse before allocating anything for pixels.
public struct DecodeLimits: Sendable, Equatable {
    /// Widest or tallest image accepted.
    public var maxDimension = 65_535
    /// Most pixels accepted (400 megapixels by default).
    public var maxPixels = 400_000_000

    public init(maxDimension: Int = 65_535, maxPixels: Int = 400_000_000) {
        self.maxDimension = maxDimension
        self.maxPixels = maxPixels
    }

    func check(width: Int, height: Int) throws(DecodeError) {
        if width <= 0 || height <= 0 { throw .corrupt(format: "image", message: "zero width or height") }
        if width > maxDimension || height > maxDimension || width * height > maxPixels {
            throw .tooLarge(width: width, height: height)
        }
    }
}

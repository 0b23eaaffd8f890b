internal import CImageShim
#if canImport(Glibc)
import Glibc
#endif

/// A decoder delivering 8-bit rows top to bottom: RGBA for PNG, RGB for JPEG.
protocol RowSource: AnyObject {
    var width: Int { get }
    var height: Int { get }
    /// Bytes per pixel in the rows delivered (4 or 3).
    var channels: Int { get }
    /// Fills `row` (width × channels bytes) with the next row.
    func nextRow(_ row: UnsafeMutablePointer<UInt8>) throws(DecodeError)
    /// Reads past the last row, so that a damaged tail is reported.
    func finish() throws(DecodeError)
}

/// libpng through the C shim: every colour type and depth as RGBA8.
final class PNGRowSource: RowSource {
    private let decoder: OpaquePointer
    private(set) var width = 0, height = 0
    let channels = 4
    /// An interlaced image arrives in passes: it is decoded whole, then served by rows.
    private var whole: [UInt8]?
    private var nextIndex = 0

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
        if interlaced != 0 {
            var pixels = [UInt8](repeating: 0, count: width * height * 4)
            let result = pixels.withUnsafeMutableBufferPointer { cimg_png_read_image(decoder, $0.baseAddress) }
            guard result == 0 else {
                throw .corrupt(format: "PNG", message: String(cString: cimg_png_message(decoder)))
            }
            whole = pixels
        }
    }

    deinit { cimg_png_close(decoder) }

    func nextRow(_ row: UnsafeMutablePointer<UInt8>) throws(DecodeError) {
        if let whole {
            let start = nextIndex * width * 4
            whole.withUnsafeBufferPointer { all in
                guard let base = all.baseAddress else { return }
                row.update(from: base + start, count: width * 4)
            }
            nextIndex += 1
            return
        }
        guard cimg_png_read_row(decoder, row) == 0 else {
            throw .corrupt(format: "PNG", message: String(cString: cimg_png_message(decoder)))
        }
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

    func nextRow(_ row: UnsafeMutablePointer<UInt8>) throws(DecodeError) {
        guard cimg_jpeg_read_row(decoder, row) == 0 else {
            throw .corrupt(format: "JPEG", message: String(cString: cimg_jpeg_message(decoder)))
        }
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

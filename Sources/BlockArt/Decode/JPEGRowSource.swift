internal import CImageShim

#if canImport(Glibc)
import Glibc
#endif

/// libjpeg-turbo through the C shim, decoding at the smallest DCT scale
/// (1/8, 1/4, 1/2 or 1) still at least the size needed.
final class JPEGRowSource: RowSource {
    private let decoder: OpaquePointer
    private(set) var width = 0, height = 0
    let channels = 3
    var format: ImageFormat { .jpeg }
    /// The stored image's full size and EXIF orientation, from the header.
    private(set) var storedSize = PixelSize(width: 0, height: 0)
    private(set) var orientation = 1
    private var nextIndex = 0

    // As for PNG: after `decoder` is set, deinit closes it on any throw.
    init(file: UnsafeMutablePointer<FILE>, limits: DecodeLimits) throws(DecodeError) {
        guard let decoder = cimg_jpeg_open(file) else { throw .outOfMemory }
        self.decoder = decoder
        var w: UInt32 = 0
        var h: UInt32 = 0
        var orientation: Int32 = 1
        guard cimg_jpeg_read_header(decoder, &w, &h, &orientation) == 0 else { throw failure() }
        storedSize = PixelSize(width: Int(w), height: Int(h))
        self.orientation = Int(orientation)
        try limits.check(width: storedSize.width, height: storedSize.height)
    }

    deinit { cimg_jpeg_close(decoder) }

    /// Starts decoding at the smallest scale whose size is at least
    /// `minWidth` × `minHeight`.
    ///
    /// Only the scales libjpeg-turbo has SIMD IDCTs for: 3/8 and 5/8 to 7/8
    /// take its plain C ones, so that on a 12-megapixel photo 3/8 costs more
    /// than 1/2 and 6/8 half again as much as 8/8. The extra pixels of the
    /// larger scale go to the box filter, on the other core.
    func start(minWidth: Int, minHeight: Int) throws(DecodeError) {
        var scale: UInt32 = 8
        for n in [1, 2, 4, 8] {
            let w = (storedSize.width * n + 7) / 8
            let h = (storedSize.height * n + 7) / 8
            if w >= minWidth && h >= minHeight {
                scale = UInt32(n)
                break
            }
        }
        var w: UInt32 = 0
        var h: UInt32 = 0
        guard cimg_jpeg_start(decoder, scale, &w, &h) == 0 else { throw failure() }
        width = Int(w)
        height = Int(h)
        rowCount = height
    }

    /// The rows `nextRow` still delivers: all of them, or those down to
    /// the window's last.
    private(set) var rowCount = 0

    /// libjpeg-turbo decodes only the window: columns cropped to whole
    /// iMCUs (the IDCT and colour conversion skip the rest), the rows above
    /// skipped (entropy-decoded only), and none read below it.
    func window(columns: Range<Int>, rows: Range<Int>) throws(DecodeError) -> Int {
        var x = UInt32(columns.lowerBound)
        var w = UInt32(columns.count)
        guard cimg_jpeg_crop(decoder, &x, &w, UInt32(rows.lowerBound)) == 0 else { throw failure() }
        width = Int(w)
        nextIndex = rows.lowerBound
        rowCount = max(0, min(height, rows.upperBound) - rows.lowerBound)
        return Int(x)
    }

    func nextRow(_ row: UnsafeMutablePointer<UInt8>) throws(DecodeError) -> RowPlacement {
        guard cimg_jpeg_read_row(decoder, row) == 0 else { throw failure() }
        defer { nextIndex += 1 }
        return RowPlacement(y: nextIndex, count: width)
    }

    func finish() throws(DecodeError) {}

    var warnings: [DecodeWarning] { cimg_jpeg_truncated(decoder) != 0 ? [.truncated(format: "JPEG")] : [] }

    var iccProfile: [UInt8]? { ColorTransform.profile { cimg_jpeg_icc(decoder, $0, $1) } }

    private func failure() -> DecodeError {
        .corrupt(format: "JPEG", message: String(cString: cimg_jpeg_message(decoder)))
    }
}

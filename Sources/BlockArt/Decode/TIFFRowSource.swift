internal import CImageShim

#if canImport(Glibc)
import Glibc
#endif

/// libtiff through the C shim: the first page of a TIFF or BigTIFF, strips
/// or tiles, 1 to 16 bits a sample, grey, palette, RGB(A), CMYK, YCbCr, as
/// RGBA8 at full size (8-bit RGB strips as RGB8, as coded, on two threads),
/// a band of strips or a row of tiles at a time: memory follows that band
/// (at most `maxBandBytes`), not the page.
final class TIFFRowSource: RowSource {
    private let decoder: OpaquePointer
    private(set) var width = 0, height = 0
    private(set) var channels = 4
    var format: ImageFormat { .tiff }
    var orientation: Int { 1 }
    var storedSize: PixelSize { PixelSize(width: width, height: height) }
    var warnings: [DecodeWarning] { [] }

    var iccProfile: [UInt8]? { ColorTransform.profile { cimg_tiff_icc(decoder, $0, $1) } }
    var rowCount: Int { height }
    private var nextIndex = 0

    // Once `decoder` is set every property is initialised, so a throw from
    // here on runs deinit, which closes the decoder: never close it here too.
    init(file: UnsafeMutablePointer<FILE>, limits: DecodeLimits) throws(DecodeError) {
        guard cimg_tiff_load() == 0 else {
            throw .decoderMissing(format: "TIFF", reason: String(cString: cimg_tiff_load_error()))
        }
        guard let decoder = cimg_tiff_open(file) else { throw .outOfMemory }
        self.decoder = decoder
        var w: UInt32 = 0
        var h: UInt32 = 0
        guard cimg_tiff_read_header(decoder, &w, &h) == 0 else { throw failure() }
        width = Int(w)
        height = Int(h)
        channels = Int(cimg_tiff_channels(decoder))
        try limits.check(width: width, height: height)
    }

    deinit { cimg_tiff_close(decoder) }

    /// The most one band's pixels may take: a page in one compressed strip
    /// is read whole, and a larger one is refused.
    static let maxBandBytes: UInt64 = 256 << 20

    /// libtiff cannot shrink while decoding: the resampler does it all.
    func start(minWidth: Int, minHeight: Int) throws(DecodeError) {
        switch cimg_tiff_start(decoder, TIFFRowSource.maxBandBytes) {
        case 0: return
        // One strip (or tile) would hold more than a band may: too large
        // to read as it is laid out, however small the file.
        case -2: throw .tooLarge(width: width, height: height)
        default: throw failure()
        }
    }

    func nextRow(_ row: UnsafeMutablePointer<UInt8>) throws(DecodeError) -> RowPlacement {
        guard cimg_tiff_read_row(decoder, row, UInt32(nextIndex)) == 0 else { throw failure() }
        defer { nextIndex += 1 }
        return RowPlacement(y: nextIndex, count: width)
    }

    func finish() throws(DecodeError) {}

    private func failure() -> DecodeError {
        .corrupt(format: "TIFF", message: String(cString: cimg_tiff_message(decoder)))
    }
}

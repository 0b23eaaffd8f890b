internal import CImageShim

#if canImport(Glibc)
import Glibc
#endif

/// libpng through the C shim: every colour type and depth as RGBA8, always
/// at full size.
final class PNGRowSource: RowSource {
    private let decoder: OpaquePointer
    private(set) var width = 0, height = 0
    let channels = 4
    var format: ImageFormat { .png }
    var orientation: Int { 1 }
    var storedSize: PixelSize { PixelSize(width: width, height: height) }
    /// libpng stops at damage (a cut file is an error), so it never warns.
    var warnings: [DecodeWarning] { [] }
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
        var w: UInt32 = 0
        var h: UInt32 = 0
        var interlaced: Int32 = 0
        guard cimg_png_read_header(decoder, &w, &h, &interlaced) == 0 else { throw failure() }
        width = Int(w)
        height = Int(h)
        try limits.check(width: width, height: height)
        if interlaced != 0 { placements = Adam7.placements(width: width, height: height) }
    }

    deinit { cimg_png_close(decoder) }

    /// libpng cannot shrink while decoding: the resampler does it all.
    func start(minWidth: Int, minHeight: Int) throws(DecodeError) {}

    func nextRow(_ row: UnsafeMutablePointer<UInt8>) throws(DecodeError) -> RowPlacement {
        guard cimg_png_read_row(decoder, row) == 0 else { throw failure() }
        defer { nextIndex += 1 }
        return placements?[nextIndex] ?? RowPlacement(y: nextIndex, count: width)
    }

    func finish() throws(DecodeError) {
        guard cimg_png_finish(decoder) == 0 else { throw failure() }
    }

    var iccProfile: [UInt8]? { ColorTransform.profile { cimg_png_icc(decoder, $0, $1) } }

    private func failure() -> DecodeError {
        .corrupt(format: "PNG", message: String(cString: cimg_png_message(decoder)))
    }
}

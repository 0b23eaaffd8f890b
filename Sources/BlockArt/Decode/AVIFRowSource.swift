internal import CImageShim
#if canImport(Glibc)
import Glibc
#endif

/// libavif through the C shim: the first image, as RGBA8 rows in stored
/// orientation, with irot/imir given as an EXIF orientation. libavif
/// decodes whole images in memory, so here memory follows the source.
final class AVIFRowSource: RowSource {
    private let decoder: OpaquePointer
    let channels = 4
    var format: ImageFormat { .avif }
    private(set) var orientation = 1
    private(set) var storedSize = (width: 0, height: 0)
    var width: Int { storedSize.width }
    var height: Int { storedSize.height }
    var rowCount: Int { height }
    private var nextIndex = 0

    // As for PNG: after `decoder` is set, deinit closes it on any throw.
    init(file: UnsafeMutablePointer<FILE>, limits: DecodeLimits) throws(DecodeError) {
        guard let decoder = cimg_avif_open(file) else { throw .outOfMemory }
        self.decoder = decoder
        var info = cimg_avif_info()
        let pixels = UInt32(clamping: limits.maxPixels), side = UInt32(clamping: limits.maxDimension)
        guard cimg_avif_read_header(decoder, pixels, side, &info) == 0 else { throw failure() }
        storedSize = (Int(info.width), Int(info.height))
        orientation = Int(info.orientation)
        try limits.check(width: storedSize.width, height: storedSize.height)
    }

    deinit { cimg_avif_close(decoder) }

    /// libavif has no scaled decoding: the resampler does it all.
    func start(minWidth: Int, minHeight: Int) throws(DecodeError) {
        var duration = 0.0
        switch cimg_avif_next_frame(decoder, &duration) {
        case 0: return
        case 1: throw .corrupt(format: "AVIF", message: "no image in the file")
        default: throw failure()
        }
    }

    func nextRow(_ row: UnsafeMutablePointer<UInt8>) throws(DecodeError) -> RowPlacement {
        defer { nextIndex += 1 }
        guard let source = cimg_avif_row(decoder, UInt32(nextIndex)) else { throw .corrupt(format: "AVIF", message: "missing row") }
        row.update(from: source, count: width * 4)
        return RowPlacement(y: nextIndex, count: width)
    }

    func finish() throws(DecodeError) {}

    var warnings: [DecodeWarning] { [] }

    private func failure() -> DecodeError {
        .corrupt(format: "AVIF", message: String(cString: cimg_avif_message(decoder)))
    }
}

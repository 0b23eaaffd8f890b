internal import CImageShim

#if canImport(Glibc)
import Glibc
#endif

/// A JPEG XL still or animation through libjxl (opened at the first one),
/// which coalesces each frame onto the canvas itself. An XYB-coded picture
/// (any lossy one) comes as sRGB; another's ICC profile goes to lcms2.
final class JXLFrames: LibraryFrames {
    private let decoder: OpaquePointer
    private(set) var canvasSize = PixelSize(width: 0, height: 0)
    var orientation: Int { 1 }
    private(set) var loopCount = 0
    private(set) var animated = false
    var warnings: [DecodeWarning] { [] }
    private var decoded = false

    /// The largest file read whole.
    static let maxBytes = 1 << 30

    init(file: UnsafeMutablePointer<FILE>, limits: DecodeLimits) throws(DecodeError) {
        guard cimg_jxl_load() == 0 else {
            throw .decoderMissing(format: "JPEG XL", reason: String(cString: cimg_jxl_load_error()))
        }
        guard let decoder = cimg_jxl_open(file, JXLFrames.maxBytes) else { throw .outOfMemory }
        self.decoder = decoder
        var w: UInt32 = 0
        var h: UInt32 = 0
        var animation: Int32 = 0
        var loops: UInt32 = 0
        guard cimg_jxl_read_header(decoder, &w, &h, &animation, &loops) == 0 else { throw failure() }
        canvasSize = PixelSize(width: Int(w), height: Int(h))
        try limits.checkWhole(format: "JPEG XL", width: canvasSize.width, height: canvasSize.height)
        animated = animation != 0
        loopCount = Int(loops)
    }

    deinit { cimg_jxl_close(decoder) }

    func nextFrame() throws(DecodeError) -> Int? {
        var seconds = 0.0
        switch cimg_jxl_next_frame(decoder, &seconds) {
        case 0:
            decoded = true
            return Int((seconds * 1000).rounded())
        case 1: return nil
        default: throw failure()
        }
    }

    func row(_ y: Int) -> UnsafePointer<UInt8>? { decoded ? cimg_jxl_row(decoder, UInt32(y)) : nil }

    func rewind() throws(DecodeError) {
        guard cimg_jxl_rewind(decoder) == 0 else { throw failure() }
    }

    var iccProfile: [UInt8]? { ColorTransform.profile { cimg_jxl_icc(decoder, $0, $1) } }

    private func failure() -> DecodeError {
        .corrupt(format: "JPEG XL", message: String(cString: cimg_jxl_message(decoder)))
    }
}

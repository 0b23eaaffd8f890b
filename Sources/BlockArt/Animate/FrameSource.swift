internal import CImageShim

#if canImport(Glibc)
import Glibc
#endif

/// A decoder of an animation's frames as whole canvases: RGBA8 at the
/// canvas size, each frame already laid over what the ones before left
/// (disposal and blending done), as a browser would show it.
protocol FrameSource: AnyObject {
    /// The canvas's size as stored (before `orientation`).
    var canvasSize: PixelSize { get }
    /// EXIF's 1–8 (AVIF's irot/imir); 1 for GIF and WebP.
    var orientation: Int { get }
    /// How many times the animation plays: 0 forever.
    var loopCount: Int { get }
    /// Composes the next frame into the canvas: its delay in milliseconds
    /// as the file gives it, or nil after the last frame.
    func nextFrame() throws(DecodeError) -> Int?
    /// Hands each canvas row, top to bottom, to `body`.
    func forEachRow(_ body: (UnsafePointer<UInt8>) -> Void)
    /// The canvas as palette indices, when the source holds it so (a GIF
    /// frame that covers it, opaque): nil when its rows are RGBA8 only.
    var indexedCanvas: IndexedCanvas? { get }
    /// Back to before the first frame, for the next loop.
    func rewind() throws(DecodeError)
    /// What went wrong without stopping the animation (a cut-short file).
    var warnings: [DecodeWarning] { get }
}

/// A canvas as one byte a pixel, and the RGBA8 words they stand for.
struct IndexedCanvas {
    /// Bytes r, g, b, a in memory, as `GIFRowSource.paletteWords` makes them.
    let colors: [UInt32]
    /// Rows of `width` indices, top to bottom.
    let indices: [UInt8]
    let width: Int
}

extension FrameSource {
    var indexedCanvas: IndexedCanvas? { nil }
}

/// A frame source whose library composes each canvas in memory of its
/// own, so that any row can be read: the first frame of one is also a
/// still (`FirstFrameRowSource`).
protocol LibraryFrames: FrameSource {
    /// Row `y` of the last composed canvas; nil before the first frame.
    func row(_ y: Int) -> UnsafePointer<UInt8>?
    /// The ICC profile of the canvas's pixels, for a still (`FirstFrameRowSource`).
    var iccProfile: [UInt8]? { get }
}

extension LibraryFrames {
    var iccProfile: [UInt8]? { nil }

    func forEachRow(_ body: (UnsafePointer<UInt8>) -> Void) {
        for y in 0..<canvasSize.height {
            guard let row = row(y) else { return }
            body(row)
        }
    }
}

/// WebP's animation decoder composes the canvas itself (blend and dispose).
final class WebPFrames: LibraryFrames {
    private let decoder: OpaquePointer
    private(set) var canvasSize = PixelSize(width: 0, height: 0)
    var orientation: Int { 1 }
    private(set) var loopCount = 0
    private(set) var frameCount = 0
    private var canvas: UnsafePointer<UInt8>?
    private var lastStamp: Int32 = 0
    var warnings: [DecodeWarning] { [] }

    // After `decoder` is set, deinit closes it on any throw.
    init(file: UnsafeMutablePointer<FILE>, limits: DecodeLimits) throws(DecodeError) {
        guard let decoder = cimg_webp_open(file) else { throw .outOfMemory }
        self.decoder = decoder
        var w: UInt32 = 0
        var h: UInt32 = 0
        var alpha: Int32 = 0
        var animated: Int32 = 0
        guard cimg_webp_read_header(decoder, &w, &h, &alpha, &animated) == 0 else { throw failure() }
        canvasSize = PixelSize(width: Int(w), height: Int(h))
        try limits.check(width: canvasSize.width, height: canvasSize.height)
        var frames: UInt32 = 0
        var loops: Int32 = 0
        guard animated != 0 else { return }
        try limits.checkWhole(format: "WebP", width: canvasSize.width, height: canvasSize.height)
        guard cimg_webp_animation_start(decoder, &frames, &loops) == 0 else { throw failure() }
        frameCount = Int(frames)
        loopCount = Int(loops)
    }

    deinit { cimg_webp_close(decoder) }

    func nextFrame() throws(DecodeError) -> Int? {
        var pixels: UnsafePointer<UInt8>?
        var stamp: Int32 = 0
        switch cimg_webp_animation_next(decoder, &pixels, &stamp) {
        case 0: break
        case 1: return nil
        default: throw failure()
        }
        canvas = pixels
        defer { lastStamp = stamp }
        return Int(stamp - lastStamp)
    }

    func row(_ y: Int) -> UnsafePointer<UInt8>? { canvas.map { $0 + y * canvasSize.width * 4 } }

    func rewind() throws(DecodeError) {
        cimg_webp_animation_rewind(decoder)
        lastStamp = 0
    }

    private func failure() -> DecodeError {
        .corrupt(format: "WebP", message: String(cString: cimg_webp_message(decoder)))
    }
}

/// An AVIF image sequence: libavif decodes each frame whole.
final class AVIFFrames: LibraryFrames {
    private let decoder: OpaquePointer
    private(set) var canvasSize = PixelSize(width: 0, height: 0)
    private(set) var orientation = 1
    /// libavif 0.11 does not read a sequence's repetitions: played forever.
    var loopCount: Int { 0 }
    private(set) var frameCount = 0
    var warnings: [DecodeWarning] { [] }

    init(file: UnsafeMutablePointer<FILE>, limits: DecodeLimits) throws(DecodeError) {
        guard cimg_avif_load() == 0 else {
            throw .decoderMissing(format: "AVIF", reason: String(cString: cimg_avif_load_error()))
        }
        guard let decoder = cimg_avif_open(file) else { throw .outOfMemory }
        self.decoder = decoder
        var info = cimg_avif_info()
        guard
            cimg_avif_read_header(
                decoder,
                UInt32(clamping: limits.maxPixels),
                UInt32(clamping: limits.maxDimension),
                &info
            ) == 0
        else { throw failure() }
        canvasSize = PixelSize(width: Int(info.width), height: Int(info.height))
        orientation = Int(info.orientation)
        frameCount = Int(info.frames)
        try limits.checkWhole(format: "AVIF", width: canvasSize.width, height: canvasSize.height)
    }

    deinit { cimg_avif_close(decoder) }

    func nextFrame() throws(DecodeError) -> Int? {
        var seconds = 0.0
        switch cimg_avif_next_frame(decoder, &seconds) {
        case 0: return Int((seconds * 1000).rounded())
        case 1: return nil
        default: throw failure()
        }
    }

    func row(_ y: Int) -> UnsafePointer<UInt8>? { cimg_avif_row(decoder, UInt32(y)) }

    var iccProfile: [UInt8]? { ColorTransform.profile { cimg_avif_icc(decoder, $0, $1) } }

    func rewind() throws(DecodeError) {
        guard cimg_avif_rewind(decoder) == 0 else { throw failure() }
    }

    private func failure() -> DecodeError {
        .corrupt(format: "AVIF", message: String(cString: cimg_avif_message(decoder)))
    }
}

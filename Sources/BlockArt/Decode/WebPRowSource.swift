internal import CImageShim
#if canImport(Glibc)
import Glibc
#endif

/// libwebp through the C shim. A still is decoded incrementally as the
/// file is read, and scaled by libwebp to no less than the size asked for,
/// so memory follows the output; an animation's first frame comes from the
/// library's composed canvas (it needs the whole file and a full canvas).
final class WebPRowSource: RowSource {
    private let decoder: OpaquePointer
    let channels: Int
    var format: ImageFormat { .webp }
    var orientation: Int { 1 }
    private(set) var storedSize = (width: 0, height: 0)
    private(set) var width = 0, height = 0
    var rowCount: Int { height }
    private let animated: Bool
    private var canvas: UnsafePointer<UInt8>?
    private var nextIndex = 0
    private var truncated = false

    // As for PNG: after `decoder` is set, deinit closes it on any throw.
    init(file: UnsafeMutablePointer<FILE>, limits: DecodeLimits) throws(DecodeError) {
        guard let decoder = cimg_webp_open(file) else { throw .outOfMemory }
        self.decoder = decoder
        var w: UInt32 = 0, h: UInt32 = 0, alpha: Int32 = 0, animated: Int32 = 0
        guard cimg_webp_read_header(decoder, &w, &h, &alpha, &animated) == 0 else {
            channels = 4
            self.animated = false
            throw failure()
        }
        self.animated = animated != 0
        channels = alpha != 0 || animated != 0 ? 4 : 3
        storedSize = (Int(w), Int(h))
        try limits.check(width: storedSize.width, height: storedSize.height)
    }

    deinit { cimg_webp_close(decoder) }

    /// A still starts at the smallest size with both sides at least the
    /// ones asked for, keeping its aspect; an animation at its canvas size.
    func start(minWidth: Int, minHeight: Int) throws(DecodeError) {
        if animated {
            var frames: UInt32 = 0, loops: Int32 = 0, stamp: Int32 = 0
            var pixels: UnsafePointer<UInt8>?
            guard cimg_webp_animation_start(decoder, &frames, &loops) == 0,
                  cimg_webp_animation_next(decoder, &pixels, &stamp) == 0, let pixels else { throw failure() }
            canvas = pixels
            (width, height) = storedSize
            return
        }
        let scale = min(1, max(Double(minWidth) / Double(storedSize.width), Double(minHeight) / Double(storedSize.height)))
        width = min(storedSize.width, max(1, Int((Double(storedSize.width) * scale).rounded(.up))))
        height = min(storedSize.height, max(1, Int((Double(storedSize.height) * scale).rounded(.up))))
        guard cimg_webp_start(decoder, UInt32(width), UInt32(height), Int32(channels)) == 0 else { throw failure() }
    }

    func nextRow(_ row: UnsafeMutablePointer<UInt8>) throws(DecodeError) -> RowPlacement {
        defer { nextIndex += 1 }
        let place = RowPlacement(y: nextIndex, count: width)
        if let canvas {
            row.update(from: canvas + nextIndex * width * 4, count: width * 4)
            return place
        }
        if truncated {
            row.update(repeating: 0, count: width * channels)
            return place
        }
        switch cimg_webp_read_row(decoder, row, UInt32(nextIndex)) {
        case 0: return place
        case 1 where nextIndex > 0:
            // What was decoded is shown; the rest is the background.
            truncated = true
            row.update(repeating: 0, count: width * channels)
            return place
        case 1: throw .corrupt(format: "WebP", message: "file is truncated")
        default: throw failure()
        }
    }

    func finish() throws(DecodeError) {}

    var warnings: [DecodeWarning] { truncated ? [.truncated(format: "WebP")] : [] }

    private func failure() -> DecodeError {
        .corrupt(format: "WebP", message: String(cString: cimg_webp_message(decoder)))
    }
}

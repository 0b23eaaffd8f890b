internal import CImageShim

#if canImport(Glibc)
import Glibc
#endif

/// libwebp through the C shim, for a still: decoded incrementally as the
/// file is read, and scaled by libwebp to no less than the size asked for,
/// so memory follows the output. (An animation's first frame comes from
/// `WebPFrames` through `FirstFrameRowSource`.)
final class WebPRowSource: RowSource {
    private let decoder: OpaquePointer
    let channels: Int
    var format: ImageFormat { .webp }
    var orientation: Int { 1 }
    private(set) var storedSize = PixelSize(width: 0, height: 0)
    private(set) var width = 0, height = 0
    var rowCount: Int { height }
    private var nextIndex = 0
    private var truncated = false
    /// The stored rectangle decoded, if not the whole image.
    private var cropped: (x: Int, y: Int, width: Int, height: Int)?

    // As for PNG: after `decoder` is set, deinit closes it on any throw.
    init(file: UnsafeMutablePointer<FILE>, limits: DecodeLimits) throws(DecodeError) {
        guard let decoder = cimg_webp_open(file) else { throw .outOfMemory }
        self.decoder = decoder
        var w: UInt32 = 0
        var h: UInt32 = 0
        var alpha: Int32 = 0
        var animated: Int32 = 0
        guard cimg_webp_read_header(decoder, &w, &h, &alpha, &animated) == 0 else {
            channels = 4
            throw failure()
        }
        channels = alpha != 0 ? 4 : 3
        storedSize = PixelSize(width: Int(w), height: Int(h))
        try limits.check(width: storedSize.width, height: storedSize.height)
    }

    deinit { cimg_webp_close(decoder) }

    /// libwebp crops before it scales; its crop begins on even pixels.
    func crop(x: Int, y: Int, width: Int, height: Int) -> (x: Int, y: Int, width: Int, height: Int)? {
        let (left, top) = (x & ~1, y & ~1)
        let rect = (
            x: left, y: top, width: min(storedSize.width - left, width + x - left),
            height: min(storedSize.height - top, height + y - top)
        )
        cropped = rect
        return rect
    }

    /// Starts at the smallest size with both sides at least the ones asked
    /// for, keeping the aspect (of the crop, if there is one).
    func start(minWidth: Int, minHeight: Int) throws(DecodeError) {
        let rect = cropped ?? (x: 0, y: 0, width: storedSize.width, height: storedSize.height)
        // libwebp scales colour and alpha each on its own: a transparent
        // pixel's hidden colour (white, say) bleeds into the edges it
        // shares with opaque ones, and shows grey over black. With alpha,
        // the pixels go to the box filter whole, which lays each over the
        // background before it averages.
        let scale =
            channels == 4
            ? 1 : min(1, max(Double(minWidth) / Double(rect.width), Double(minHeight) / Double(rect.height)))
        width = min(rect.width, max(1, Int((Double(rect.width) * scale).rounded(.up))))
        height = min(rect.height, max(1, Int((Double(rect.height) * scale).rounded(.up))))
        let crop = cropped.map { [$0.x, $0.y, $0.width, $0.height].map(UInt32.init) } ?? [0, 0, 0, 0]
        guard
            cimg_webp_start(decoder, UInt32(width), UInt32(height), Int32(channels), crop[0], crop[1], crop[2], crop[3])
                == 0
        else {
            throw failure()
        }
    }

    func nextRow(_ row: UnsafeMutablePointer<UInt8>) throws(DecodeError) -> RowPlacement {
        defer { nextIndex += 1 }
        let place = RowPlacement(y: nextIndex, count: width)
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

/// The first frame of a library-composed source as a still: an AVIF (whose
/// library decodes whole images anyway) and an animated WebP, at the canvas
/// size, with the source's orientation.
final class FirstFrameRowSource<Source: LibraryFrames>: HeldRows {
    private let source: Source
    let format: ImageFormat
    let channels = 4
    var orientation: Int { source.orientation }
    var storedSize: PixelSize { source.canvasSize }
    var width: Int { source.canvasSize.width }
    var height: Int { source.canvasSize.height }
    var rowCount: Int { height }
    var warnings: [DecodeWarning] { source.warnings }
    var iccProfile: [UInt8]? { source.iccProfile }
    var nextIndex = 0
    var missingRow: String { "missing row" }

    init(_ source: Source, format: ImageFormat) {
        self.source = source
        self.format = format
    }

    /// The libraries have no scaled decoding: the resampler does it all.
    func start(minWidth: Int, minHeight: Int) throws(DecodeError) {
        guard try source.nextFrame() != nil else {
            throw .corrupt(format: format.description, message: "no image in the file")
        }
    }

    func heldRow(_ y: Int) -> UnsafePointer<UInt8>? { source.row(y) }

    func finish() throws(DecodeError) {}
}

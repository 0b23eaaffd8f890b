internal import CImageShim

#if canImport(Glibc)
import Glibc
#endif

/// An SVG through librsvg (opened at the first one), rendered at exactly
/// the size it is shown at: `start` renders the whole document, or the
/// rectangle `crop` asked for, at the pixels the caller needs, so that a
/// zoom renders it again, sharp, instead of enlarging pixels. Its "stored"
/// size is its own (width and height, else its viewBox), scaled down to
/// the limits' largest side when larger: a canvas of ten million pixels a
/// side is rendered at the size shown, and no buffer larger than that is
/// ever made.
final class SVGRowSource: HeldRows {
    private let decoder: OpaquePointer
    private let limits: DecodeLimits
    /// The document's size in its own pixels.
    private let documentSize: (width: Double, height: Double)
    private(set) var storedSize = PixelSize(width: 1, height: 1)
    private(set) var width = 0, height = 0
    let channels = 4
    var format: ImageFormat { .svg }
    var orientation: Int { 1 }
    var rowCount: Int { height }
    var warnings: [DecodeWarning] { [] }
    private var rectangle: (x: Int, y: Int, width: Int, height: Int)?
    var nextIndex = 0

    /// The largest document read: SVG is text, and this is plenty.
    static let maxBytes = 64 << 20

    init(file: UnsafeMutablePointer<FILE>, limits: DecodeLimits) throws(DecodeError) {
        guard cimg_svg_load() == 0 else {
            throw .decoderMissing(format: "SVG", reason: String(cString: cimg_svg_load_error()))
        }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let got = fread(&chunk, 1, chunk.count, file)
            bytes += chunk.prefix(got)
            guard got == chunk.count else { break }
            guard bytes.count <= SVGRowSource.maxBytes else {
                throw .corrupt(format: "SVG", message: "document over \(SVGRowSource.maxBytes >> 20) MiB")
            }
        }
        guard let decoder = bytes.withUnsafeBufferPointer({ cimg_svg_open($0.baseAddress, $0.count) }) else {
            throw .outOfMemory
        }
        self.decoder = decoder
        self.limits = limits
        var w = 0.0
        var h = 0.0
        guard cimg_svg_read_header(decoder, &w, &h) == 0, w.isFinite, h.isFinite else {
            documentSize = (1, 1)
            throw failure()
        }
        documentSize = (w, h)
        let side = Double(limits.maxDimension)
        let fit = min(1, side / w, side / h)
        storedSize = PixelSize(width: max(1, Int((w * fit).rounded())), height: max(1, Int((h * fit).rounded())))
    }

    deinit { cimg_svg_close(decoder) }

    func crop(x: Int, y: Int, width: Int, height: Int) -> (x: Int, y: Int, width: Int, height: Int)? {
        rectangle = (x, y, width, height)
        return rectangle
    }

    /// Renders the rectangle (or the document) at exactly the pixels
    /// asked, stretched when they have another shape (block art's
    /// sub-cells are taller than wide). The caller asks for its pixmap
    /// itself (`ImageFormat.drawsAtAnySize`): each pixel librsvg draws is
    /// its area's coverage, though cairo blends an edge's coverage in sRGB
    /// levels, not in light as the box filter would.
    func start(minWidth: Int, minHeight: Int) throws(DecodeError) {
        let part = rectangle ?? (0, 0, storedSize.width, storedSize.height)
        width = max(1, minWidth)
        height = max(1, minHeight)
        try limits.check(width: width, height: height)
        // Stored pixels to the document's own.
        let sx = documentSize.width / Double(storedSize.width)
        let sy = documentSize.height / Double(storedSize.height)
        let rendered = cimg_svg_render(
            decoder,
            Double(part.x) * sx,
            Double(part.y) * sy,
            Double(part.width) * sx,
            Double(part.height) * sy,
            Int32(width),
            Int32(height)
        )
        guard rendered == 0 else { throw failure() }
    }

    func heldRow(_ y: Int) -> UnsafePointer<UInt8>? { cimg_svg_row(decoder, Int32(y)) }

    func finish() throws(DecodeError) {}

    private func failure() -> DecodeError {
        .corrupt(format: "SVG", message: String(cString: cimg_svg_message(decoder)))
    }
}

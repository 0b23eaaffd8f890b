internal import CImageShim

#if canImport(Glibc)
import Glibc
#endif

/// A GIF's frames composed on its logical screen as browsers do: a frame's
/// transparent index leaves what was there, and before the next frame its
/// disposal clears its rectangle (restore to background, which browsers
/// make transparent) or puts back the canvas from before it (restore to
/// previous). giflib only reads the records; the composing is here.
final class GIFFrames: FrameSource {
    private let file: UnsafeMutablePointer<FILE>
    private var decoder: OpaquePointer
    private(set) var canvasSize = PixelSize(width: 0, height: 0)
    var orientation: Int { 1 }
    private(set) var loopCount = 0
    private var canvas: [UInt8]
    /// The canvas before the last frame, when that frame restores to previous.
    private var saved: [UInt8] = []
    private var last: cimg_gif_frame?
    private var indices: [UInt8] = []
    /// The last frame, when it covered the canvas with no transparent
    /// pixel: its indices and colours. It is not painted on `canvas`
    /// (which keeps what was under it) until a frame needs what it left:
    /// a film-like GIF's frames go to the filter as indices, as a still's
    /// do, and are never spread into RGBA.
    private var covering: IndexedCanvas?
    /// A covering frame's lines as read, before it is known to be opaque.
    private var lines: [UInt8] = []
    private var truncated = false
    private let limits: DecodeLimits

    var warnings: [DecodeWarning] { truncated ? [.truncated(format: "GIF")] : [] }

    init(file: UnsafeMutablePointer<FILE>, limits: DecodeLimits) throws(DecodeError) {
        self.file = file
        self.limits = limits
        let (decoder, size) = try GIFFrames.open(file, limits: limits)
        self.decoder = decoder
        canvasSize = size
        canvas = [UInt8](repeating: 0, count: size.width * size.height * 4)
    }

    deinit { cimg_gif_close(decoder) }

    /// How many images the file has, up to `most`, told without decoding
    /// any: each image's data is skipped, not read as lines. A file damaged
    /// before its second image is no animation here; the still decoder
    /// names the damage. Damage later ends the count where it is.
    static func countFrames(_ file: UnsafeMutablePointer<FILE>, limits: DecodeLimits, upTo most: Int) -> Int {
        guard let (decoder, _) = try? open(file, limits: limits) else { return 0 }
        defer { cimg_gif_close(decoder) }
        var frame = cimg_gif_frame()
        var count = 0
        while count < most, cimg_gif_next_frame(decoder, &frame) == 0 {
            count += 1
            guard cimg_gif_skip_image(decoder) == 0 else { break }
        }
        return count
    }

    /// A decoder at the first record after the screen descriptor, and the
    /// screen's size. Frames are clipped to it: unlike `GIFRowSource`, which
    /// widens a screen too small for its first frame, a 0×0 screen here
    /// plays as one pixel (an odd file; left as it is).
    static func open(
        _ file: UnsafeMutablePointer<FILE>,
        limits: DecodeLimits
    ) throws(DecodeError)
        -> (OpaquePointer, PixelSize)
    {
        Glibc.rewind(file)
        guard let decoder = cimg_gif_open(file) else { throw .outOfMemory }
        var w: UInt32 = 0
        var h: UInt32 = 0
        guard cimg_gif_read_header(decoder, &w, &h) == 0 else {
            let error = DecodeError.corrupt(format: "GIF", message: String(cString: cimg_gif_message(decoder)))
            cimg_gif_close(decoder)
            throw error
        }
        do { try limits.check(width: max(1, Int(w)), height: max(1, Int(h))) } catch {
            cimg_gif_close(decoder)
            throw error
        }
        return (decoder, PixelSize(width: max(1, Int(w)), height: max(1, Int(h))))
    }

    func nextFrame() throws(DecodeError) -> Int? {
        guard !truncated else { return nil }
        var frame = cimg_gif_frame()
        switch cimg_gif_next_frame(decoder, &frame) {
        case 0: break
        case 1: return nil
        default:
            // A file cut between frames ends the loop there, with a warning.
            guard last != nil else { throw failure() }
            truncated = true
            return nil
        }
        dispose()
        if frame.disposal == 3 {
            paintCovering()
            saved = canvas
        }
        try draw(frame)
        last = frame
        return Int(frame.delay_cs) * 10
    }

    /// Undoes the last frame as its disposal asks. One never painted (it
    /// covered the canvas) is undone by letting it go: the canvas under it
    /// is as it was before it, or transparent all over.
    private func dispose() {
        guard let last else { return }
        if covering != nil {
            if last.disposal == 2 {
                canvas.withUnsafeMutableBytes { _ = $0.initializeMemory(as: UInt8.self, repeating: 0) }
            }
            if last.disposal == 2 || last.disposal == 3 { covering = nil }
            return
        }
        switch last.disposal {
        case 2:
            let right = min(canvasSize.width, Int(last.left) + Int(last.width))
            let bottom = min(canvasSize.height, Int(last.top) + Int(last.height))
            guard Int(last.left) < right else { return }
            for y in Int(last.top)..<max(Int(last.top), bottom) {
                let start = (y * canvasSize.width + Int(last.left)) * 4
                canvas.replaceSubrange(
                    start..<start + (right - Int(last.left)) * 4,
                    with: repeatElement(0, count: (right - Int(last.left)) * 4)
                )
            }
        case 3 where saved.count == canvas.count: swap(&canvas, &saved)
        default: break
        }
    }

    /// Reads the frame's lines onto the canvas, clipped to it; a line that
    /// cannot be read ends the animation after this frame.
    private func draw(_ frame: cimg_gif_frame) throws(DecodeError) {
        let colors = GIFRowSource.paletteWords(decoder, transparent: Int(frame.transparent))
        defer {
            // NETSCAPE2.0 counts repeats after the first play, 0 forever; with
            // no such block a GIF plays once.
            let repeats = Int(cimg_gif_loop_count(decoder))
            loopCount = repeats < 0 ? 1 : repeats == 0 ? 0 : repeats + 1
        }
        if frame.left == 0 && frame.top == 0 && Int(frame.width) == canvasSize.width
            && Int(frame.height) == canvasSize.height
        {
            return try drawCovering(frame, colors: colors)
        }
        paintCovering()
        let width = Int(frame.width)
        let left = Int(frame.left)
        let top = Int(frame.top)
        if indices.count < width { indices = [UInt8](repeating: 0, count: width) }
        let visible = max(0, min(width, canvasSize.width - left))
        for y in GIFRowSource.lineOrder(height: Int(frame.height), interlaced: frame.interlaced != 0) {
            guard cimg_gif_read_line(decoder, &indices, frame.width) == 0 else {
                guard last != nil || y != 0 else { throw failure() }
                truncated = true
                return
            }
            guard top + y < canvasSize.height else { continue }
            indices.withUnsafeBufferPointer { line in
                paint(line: top + y, from: left, count: visible, indices: line, colors: colors)
            }
        }
    }

    /// A frame that covers the canvas: read whole into `lines`, then kept
    /// as indices if no pixel is transparent, else painted over what the
    /// frames before left (as are the lines of one cut short).
    private func drawCovering(_ frame: cimg_gif_frame, colors: [UInt32]) throws(DecodeError) {
        let width = canvasSize.width
        if lines.count != width * canvasSize.height { lines = [UInt8](repeating: 0, count: width * canvasSize.height) }
        let order = GIFRowSource.lineOrder(height: canvasSize.height, interlaced: frame.interlaced != 0)
        var read = 0
        for y in order {
            let ok = lines.withUnsafeMutableBufferPointer { all in
                all.baseAddress.map { cimg_gif_read_line(decoder, $0 + y * width, UInt32(width)) == 0 } ?? false
            }
            guard ok else {
                guard last != nil || read > 0 else { throw failure() }
                truncated = true
                break
            }
            read += 1
        }
        let transparent =
            frame.transparent >= 0
            && lines.withUnsafeBytes { bytes in
                bytes.baseAddress.map { memchr($0, frame.transparent, bytes.count) != nil } ?? false
            }
        if !truncated && !transparent {
            // The last covering frame's buffer takes the next one's lines.
            let spare = covering?.indices ?? []
            covering = IndexedCanvas(colors: colors, indices: lines, width: width)
            lines = spare
            return
        }
        paintCovering()
        paint(rows: order.prefix(read), of: lines, colors: colors)
    }

    /// The covering frame, if one is kept as indices, painted on the canvas
    /// for a frame that needs what it left.
    private func paintCovering() {
        guard let covering else { return }
        self.covering = nil
        paint(rows: 0..<canvasSize.height, of: covering.indices, colors: covering.colors)
    }

    /// Whole canvas rows `rows` of `indices` (rows of the canvas's width),
    /// painted on the canvas.
    private func paint(rows: some Sequence<Int>, of indices: [UInt8], colors: [UInt32]) {
        let width = canvasSize.width
        indices.withUnsafeBufferPointer { all in
            for y in rows {
                paint(
                    line: y,
                    from: 0,
                    count: width,
                    indices: UnsafeBufferPointer(rebasing: all[y * width..<(y + 1) * width]),
                    colors: colors
                )
            }
        }
    }

    /// The hot loop: one line's opaque pixels onto the canvas, a 32-bit
    /// word each, through raw buffers (a class's array property pays its
    /// checks on every byte; four byte stores a pixel took longer than
    /// giflib's decoding of it).
    private func paint(line: Int, from left: Int, count: Int, indices: UnsafeBufferPointer<UInt8>, colors: [UInt32]) {
        let start = (line * canvasSize.width + left) * 4
        colors.withUnsafeBufferPointer { table in
            canvas.withUnsafeMutableBytes { canvas in
                for x in 0..<count {
                    let word = table[Int(indices[x])]
                    // The transparent index (alpha 0) leaves what was there.
                    guard word & GIFFrames.alpha != 0 else { continue }
                    canvas.storeBytes(of: word, toByteOffset: start + x * 4, as: UInt32.self)
                }
            }
        }
    }

    /// A palette word's alpha byte: the fourth in memory (RGBA8), on any byte order.
    private static let alpha = UInt32(bigEndian: 0xFF)

    var indexedCanvas: IndexedCanvas? { covering }

    func forEachRow(_ body: (UnsafePointer<UInt8>) -> Void) {
        paintCovering()
        let stride = canvasSize.width * 4
        canvas.withUnsafeBufferPointer { pixels in
            guard let base = pixels.baseAddress else { return }
            for y in 0..<canvasSize.height { body(base + y * stride) }
        }
    }

    func rewind() throws(DecodeError) {
        let (fresh, _) = try GIFFrames.open(file, limits: limits)
        cimg_gif_close(decoder)
        decoder = fresh
        canvas = [UInt8](repeating: 0, count: canvas.count)
        saved = []
        covering = nil
        last = nil
        truncated = false
    }

    private func failure() -> DecodeError {
        .corrupt(format: "GIF", message: String(cString: cimg_gif_message(decoder)))
    }
}

#if canImport(Glibc)
import Glibc
#endif

/// An APNG's frames composed on its canvas. Debian's libpng has no APNG
/// patch, so each frame is made a PNG of its own here (IHDR at the
/// frame's size, the file's palette and colour chunks, its `fdAT`s as
/// `IDAT`), decoded by libpng (`PNGRowSource`) from memory, and laid on
/// the canvas by its `fcTL`: blended over or put in place, then cleared or
/// put back after it is shown. A damaged frame ends the loop with a warning.
final class APNGFrames: FrameSource {
    private let file: UnsafeMutablePointer<FILE>
    private let chunks: APNGChunks
    private let limits: DecodeLimits
    let canvasSize: PixelSize
    var orientation: Int { 1 }
    var loopCount: Int { chunks.plays }
    var frameCount: Int { chunks.frames.count }
    private var canvas: [UInt8]
    /// What the last frame's disposal does before the next is laid.
    private var pending: (region: Region, dispose: UInt8, saved: [UInt8])?
    private var next = 0
    private var damaged: DecodeWarning?
    /// The colours every frame is in, as the still's are: the iCCP
    /// profile, or the one cHRM and gAMA describe; nil for sRGB.
    private(set) var iccProfile: [UInt8]?
    var warnings: [DecodeWarning] { damaged.map { [$0] } ?? [] }

    /// A frame's rectangle on the canvas.
    struct Region {
        var x: Int, y: Int, width: Int, height: Int
    }

    /// The animation in `file`, or nil when it is a still PNG.
    static func open(
        _ file: UnsafeMutablePointer<FILE>,
        limits: DecodeLimits,
        most: Int
    ) throws(DecodeError) -> APNGFrames? {
        guard let chunks = APNGChunks.read(file, most: most) else { return nil }
        let size = PixelSize(
            width: Int(BigEndian.u32(chunks.header, 0)),
            height: Int(BigEndian.u32(chunks.header, 4))
        )
        guard size.width > 0, size.height > 0 else { return nil }
        try limits.checkWhole(format: "APNG", width: size.width, height: size.height)
        let frames = APNGFrames(file: file, chunks: chunks, size: size, limits: limits)
        frames.iccProfile = frames.profile()
        return frames
    }

    /// The profile libpng finds in the first frame's PNG, which carries
    /// the file's colour chunks (a frame that cannot be read has none: it
    /// ends the loop when its turn comes).
    private func profile() -> [UInt8]? {
        guard let first = chunks.frames.first, let control = control(first) else { return nil }
        return withFrameFile(first, control) { (try? PNGRowSource(file: $0, limits: limits))?.iccProfile }
    }

    private init(file: UnsafeMutablePointer<FILE>, chunks: APNGChunks, size: PixelSize, limits: DecodeLimits) {
        self.file = file
        self.chunks = chunks
        self.limits = limits
        canvasSize = size
        canvas = [UInt8](repeating: 0, count: size.width * size.height * 4)
    }

    func nextFrame() throws(DecodeError) -> Int? {
        guard damaged == nil, next < chunks.frames.count else { return nil }
        dispose()
        guard let control = control(chunks.frames[next]), let pixels = decode(chunks.frames[next], control) else {
            damaged = .damagedFrame(format: "APNG", frame: next)
            return nil
        }
        let region = control.region
        // Frame 0's "previous" is the empty canvas: browsers treat it as clearing.
        let dispose = next == 0 && control.dispose == 2 ? 1 : control.dispose
        pending = (region, dispose, dispose == 2 ? copy(region) : [])
        lay(pixels, in: region, blend: control.blend == 1)
        next += 1
        return control.milliseconds
    }

    func forEachRow(_ body: (UnsafePointer<UInt8>) -> Void) {
        canvas.withUnsafeBufferPointer { all in
            guard let base = all.baseAddress else { return }
            for y in 0..<canvasSize.height { body(base + y * canvasSize.width * 4) }
        }
    }

    func rewind() throws(DecodeError) {
        canvas = [UInt8](repeating: 0, count: canvas.count)
        pending = nil
        next = 0
    }

    /// A frame's fcTL, read and checked: inside the canvas, a known
    /// disposal and blend.
    private func control(_ frame: APNGChunks.Frame) -> FrameControl? {
        guard let data = ChunkReader(file: file).data(of: frame.control), data.count == 26 else { return nil }
        let control = FrameControl(data)
        let r = control.region
        guard r.width > 0, r.height > 0, r.x + r.width <= canvasSize.width, r.y + r.height <= canvasSize.height,
            control.dispose <= 2, control.blend <= 1
        else { return nil }
        return control
    }

    /// The frame's pixels, RGBA8 at its own size, or nil when damaged.
    private func decode(_ frame: APNGChunks.Frame, _ control: FrameControl) -> [UInt8]? {
        withFrameFile(frame, control) { try? APNGFrames.pixels($0, control.region, limits: limits) }
    }

    /// `body` given the frame's PNG (`frameStream`) as a file to read.
    private func withFrameFile<T>(
        _ frame: APNGChunks.Frame,
        _ control: FrameControl,
        _ body: (UnsafeMutablePointer<FILE>) -> T?
    ) -> T? {
        guard var stream = frameStream(frame, control) else { return nil }
        let size = stream.count
        return stream.withUnsafeMutableBytes { bytes -> T? in
            guard let memory = fmemopen(bytes.baseAddress, size, "rb") else { return nil }
            defer { fclose(memory) }
            return body(memory)
        }
    }

    private static func pixels(
        _ memory: UnsafeMutablePointer<FILE>,
        _ region: Region,
        limits: DecodeLimits
    ) throws(DecodeError) -> [UInt8] {
        let source = try PNGRowSource(file: memory, limits: limits)
        guard source.width == region.width, source.height == region.height else {
            throw .corrupt(format: "APNG", message: "frame size")
        }
        var pixels = [UInt8](repeating: 0, count: region.width * region.height * 4)
        var row = [UInt8](repeating: 0, count: region.width * 4)
        for _ in 0..<source.rowCount {
            let place = try row.withUnsafeMutableBufferPointer { buffer throws(DecodeError) in
                guard let base = buffer.baseAddress else { throw .outOfMemory }
                return try source.nextRow(base)
            }
            for i in 0..<place.count {
                let to = (place.y * region.width + place.xStart + i * place.xStep) * 4
                pixels[to..<to + 4] = row[i * 4..<i * 4 + 4]
            }
        }
        try source.finish()
        return pixels
    }

    /// A PNG of the frame alone: IHDR at its size, the shared chunks, its
    /// data as one IDAT (fdAT's sequence numbers taken off), IEND.
    private func frameStream(_ frame: APNGChunks.Frame, _ control: FrameControl) -> [UInt8]? {
        let reader = ChunkReader(file: file)
        var data: [UInt8] = []
        for chunk in frame.data {
            guard let bytes = reader.data(of: chunk), frame.fromIDAT || bytes.count >= 4 else { return nil }
            data += frame.fromIDAT ? bytes : Array(bytes.dropFirst(4))
        }
        var header = chunks.header
        header.replaceSubrange(0..<8, with: [])
        var sized: [UInt8] = []
        BigEndian.append(UInt32(control.region.width), to: &sized)
        BigEndian.append(UInt32(control.region.height), to: &sized)
        var stream: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        APNGFrames.append("IHDR", sized + header, to: &stream)
        for (type, bytes) in chunks.shared { APNGFrames.append(type, bytes, to: &stream) }
        APNGFrames.append("IDAT", data, to: &stream)
        APNGFrames.append("IEND", [], to: &stream)
        return stream
    }

    private static func append(_ type: String, _ data: [UInt8], to stream: inout [UInt8]) {
        let name = Array(type.utf8)
        BigEndian.append(UInt32(data.count), to: &stream)
        stream += name
        stream += data
        BigEndian.append(CRC32.of(name, data), to: &stream)
    }

    /// The last frame's disposal: its region cleared to transparent, or
    /// put back as it was before it.
    private func dispose() {
        guard let (r, dispose, saved) = pending, dispose != 0 else { return }
        for y in 0..<r.height {
            let at = ((r.y + y) * canvasSize.width + r.x) * 4
            let count = r.width * 4
            if dispose == 1 {
                canvas.replaceSubrange(at..<at + count, with: repeatElement(0, count: count))
            } else {
                canvas.replaceSubrange(at..<at + count, with: saved[y * count..<(y + 1) * count])
            }
        }
        pending = nil
    }

    private func copy(_ r: Region) -> [UInt8] {
        var saved: [UInt8] = []
        saved.reserveCapacity(r.width * r.height * 4)
        for y in 0..<r.height {
            let at = ((r.y + y) * canvasSize.width + r.x) * 4
            saved += canvas[at..<at + r.width * 4]
        }
        return saved
    }

    /// `pixels` put in `r`, or laid over what is there (straight alpha,
    /// as the specification's OVER).
    private func lay(_ pixels: [UInt8], in r: Region, blend: Bool) {
        for y in 0..<r.height {
            for x in 0..<r.width {
                let from = (y * r.width + x) * 4
                let to = ((r.y + y) * canvasSize.width + r.x + x) * 4
                let a = Int(pixels[from + 3])
                guard blend, a < 255 else {
                    canvas[to..<to + 4] = pixels[from..<from + 4]
                    continue
                }
                guard a > 0 else { continue }
                let b = Int(canvas[to + 3])
                let out = a * 255 + b * (255 - a)
                guard out > 0 else { continue }
                for c in 0..<3 {
                    let mixed = Int(pixels[from + c]) * a * 255 + Int(canvas[to + c]) * b * (255 - a)
                    canvas[to + c] = UInt8((mixed + out / 2) / out)
                }
                canvas[to + 3] = UInt8((out + 127) / 255)
            }
        }
    }
}

/// An fcTL's fields.
struct FrameControl {
    var region: APNGFrames.Region
    /// delay_num / delay_den seconds (a 0 denominator means 100).
    var milliseconds: Int
    var dispose: UInt8
    var blend: UInt8

    init(_ data: [UInt8]) {
        region = APNGFrames.Region(
            x: Int(BigEndian.u32(data, 12)),
            y: Int(BigEndian.u32(data, 16)),
            width: Int(BigEndian.u32(data, 4)),
            height: Int(BigEndian.u32(data, 8))
        )
        let numerator = Int(BigEndian.u16(data, 20))
        let denominator = Int(BigEndian.u16(data, 22))
        milliseconds = numerator * 1000 / (denominator == 0 ? 100 : denominator)
        dispose = data[24]
        blend = data[25]
    }
}

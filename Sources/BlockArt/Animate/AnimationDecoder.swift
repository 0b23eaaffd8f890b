#if canImport(Glibc)
import Glibc
#endif

/// One frame of an animation, scaled for showing.
public struct AnimationFrame: Sendable {
    /// Which frame of the loop (0-based).
    public var index: Int
    /// The frame at the size asked for, in display orientation.
    public var pixmap: Pixmap
    /// How long it stays, after the browsers' rule for tiny delays.
    public var delay: Duration

    /// A frame as kept elsewhere (the screen keeps a loop in sRGB bytes).
    public init(index: Int, pixmap: Pixmap, delay: Duration) {
        (self.index, self.pixmap, self.delay) = (index, pixmap, delay)
    }
}

/// What reading an animation's next frame came to: the frame, or only the
/// delay of one passed over (composed, not filtered).
public enum AnimationStep: Sendable {
    case frame(AnimationFrame)
    case passedOver(Duration)
}

/// What an animation may cost before it is cut short: every frame of a loop
/// is a canvas decoded whole, so frames × canvas pixels and the time a loop
/// takes to decode are bounded, whatever the file claims.
public struct AnimationLimits: Sendable, Equatable {
    /// Canvas pixels decoded in one loop, all frames together.
    public var maxFramePixels = 2_000_000_000
    /// Frames in one loop.
    public var maxFrames = 10_000
    /// Seconds one loop may take to decode.
    public var maxDecodeSeconds = 60.0

    public init() {}
}

/// An animated GIF, WebP, APNG, JPEG XL or AVIF sequence, frame by frame, each composed on
/// its canvas and box-filtered in linear light to the size asked for, as a
/// still is. A still (or a one-frame file) is not an animation: `open`
/// returns nil, and `ImageDecoder` shows it.
public final class AnimationDecoder {
    private let file: UnsafeMutablePointer<FILE>
    private let source: any FrameSource
    /// The canvas in display orientation, and the format.
    public let info: SourceInfo
    /// Plays in all: 0 forever.
    public var loopCount: Int { source.loopCount }
    /// Frames in a loop, as the file has them (a loop cut by the limits shows fewer).
    public let frameCount: Int
    /// A resampler to the target size that has seen no row: each frame
    /// starts from a copy, so the axes' weights are worked out once.
    private let blank: BoxResampler
    private let background: LinearRGB
    private let limits: AnimationLimits
    private var index = 0
    private var decodedPixels = 0
    /// Time spent decoding this loop (not the time shown between frames).
    private var decodeTime = Duration.zero
    private var cut: DecodeWarning?
    /// The canvases' profile to sRGB, and a row to carry them through it.
    private var transform: ColorTransform?
    private var scratch: [UInt8] = []

    /// Opens `path` as an animation, or nil when it is a still.
    public static func open(
        path: String,
        background: RGB8 = RGB8(0, 0, 0),
        limits: DecodeLimits = DecodeLimits(),
        animation: AnimationLimits = AnimationLimits(),
        samples: (x: Int, y: Int) = (1, 1),
        size: (SourceInfo) -> PixelSize
    ) throws(DecodeError) -> AnimationDecoder? {
        let file = try ImageDecoder.open(path)
        let format = ImageFormat.sniff(file)
        do {
            guard
                let (source, frames, profile) = try AnimationDecoder.source(
                    format,
                    file: file,
                    limits: limits,
                    most: animation.maxFrames
                )
            else {
                fclose(file)
                return nil
            }
            return AnimationDecoder(
                file: file,
                source: source,
                frames: frames,
                profile: profile,
                format: format,
                background: background,
                animation: animation,
                samples: samples,
                size: size
            )
        } catch {
            fclose(file)
            throw error
        }
    }

    /// The frame source for an animated file, its frames, and the ICC
    /// profile its canvases are in (WebP's ICCP, APNG's iCCP or cHRM and
    /// gAMA, AVIF's and JPEG XL's);
    /// nil for a still.
    private static func source(
        _ format: ImageFormat,
        file: UnsafeMutablePointer<FILE>,
        limits: DecodeLimits,
        most: Int
    ) throws(DecodeError) -> (any FrameSource, Int, [UInt8]?)? {
        switch format {
        case .gif:
            // A GIF tells its frames only by reading its records: two images make an animation.
            let count = GIFFrames.countFrames(file, limits: limits, upTo: most)
            return count > 1 ? (try GIFFrames(file: file, limits: limits), count, nil) : nil
        case .webp:
            let profile = WebPProfile.read(file)
            let frames = try WebPFrames(file: file, limits: limits)
            return frames.frameCount > 1 ? (frames, frames.frameCount, profile) : nil
        case .avif:
            let frames = try AVIFFrames(file: file, limits: limits)
            return frames.frameCount > 1 ? (frames, frames.frameCount, frames.iccProfile) : nil
        case .png:
            return try APNGFrames.open(file, limits: limits, most: most).map { ($0, $0.frameCount, $0.iccProfile) }
        case .jxl:
            // libjxl tells no frame count before decoding: an animation's is found as it plays.
            let frames = try JXLFrames(file: file, limits: limits)
            return frames.animated ? (frames, 0, frames.iccProfile) : nil
        default:
            return nil
        }
    }

    private init(
        file: UnsafeMutablePointer<FILE>,
        source: any FrameSource,
        frames: Int,
        profile: [UInt8]?,
        format: ImageFormat,
        background: RGB8,
        animation: AnimationLimits,
        samples: (x: Int, y: Int),
        size: (SourceInfo) -> PixelSize
    ) {
        self.file = file
        self.source = source
        frameCount = frames
        let turned = source.orientation >= 5
        let canvas = source.canvasSize
        info = SourceInfo(
            format: format,
            width: turned ? canvas.height : canvas.width,
            height: turned ? canvas.width : canvas.height
        )
        let asked = size(info)
        let target = turned ? asked.transposed : asked
        blank = BoxResampler(
            sourceWidth: canvas.width,
            sourceHeight: canvas.height,
            width: target.width,
            height: target.height,
            samples: turned ? (samples.y, samples.x) : samples
        )
        self.background = LinearRGB(srgb: background)
        limits = animation
        // A damaged profile is ignored here as it is for a still's first frame.
        if let profile, case let .apply(transform) = ColorTransform.use(profile, channels: 4) {
            self.transform = transform
            scratch = [UInt8](repeating: 0, count: canvas.width * 4)
        }
    }

    deinit { fclose(file) }

    /// The next frame, or nil after the last one of this loop (then
    /// `rewind` for the next). A loop past the limits ends early, with a
    /// warning in `warnings`.
    public func next() throws(DecodeError) -> AnimationFrame? {
        guard case let .frame(frame)? = try next(passingOver: { _ in false }) else { return nil }
        return frame
    }

    /// The next frame, or, when `passOver` says so of its delay, only its
    /// delay: the frame is composed on the canvas (the frames after it are
    /// drawn over it) but not filtered to the size asked for, which is
    /// most of a frame's cost. Nil after the last frame of this loop.
    public func next(passingOver passOver: (Duration) -> Bool) throws(DecodeError) -> AnimationStep? {
        guard cut == nil else { return nil }
        let pixels = source.canvasSize.width * source.canvasSize.height
        if index >= limits.maxFrames || decodedPixels + pixels > limits.maxFramePixels
            || decodeTime > .seconds(limits.maxDecodeSeconds)
        {
            cut = .animationCut(frames: index)
            return nil
        }
        let start = ContinuousClock.now
        defer { decodeTime += ContinuousClock.now - start }
        guard let milliseconds = try source.nextFrame() else { return nil }
        decodedPixels += pixels
        defer { index += 1 }
        let delay = AnimationDecoder.shownDelay(milliseconds: milliseconds)
        if passOver(delay) { return .passedOver(delay) }
        return .frame(AnimationFrame(index: index, pixmap: composedPixmap(), delay: delay))
    }

    /// The frame `next` composed last, box-filtered to the size asked for
    /// (also a frame passed over that is to be shown after all: the screen
    /// held how it looks, then lost it). Only until the next call to `next`.
    public func composedPixmap() -> Pixmap {
        var resampler = blank
        let background = self.background
        if let indexed = source.indexedCanvas {
            // A pixel is one load from the palette in linear light.
            let palette = BoxResampler.linearPalette(indexed.colors, over: background)
            palette.withUnsafeBufferPointer { palette in
                indexed.indices.withUnsafeBufferPointer { all in
                    guard let base = all.baseAddress, indexed.width > 0 else { return }
                    for y in 0..<all.count / indexed.width {
                        resampler.push(
                            indices: base + y * indexed.width,
                            palette: palette,
                            background: background,
                            at: RowPlacement(y: y, count: indexed.width)
                        )
                    }
                }
            }
        } else if let transform {
            scratch.withUnsafeMutableBufferPointer { scratch in
                guard let base = scratch.baseAddress else { return }
                source.forEachRow { row in
                    base.update(from: row, count: scratch.count)
                    transform.apply(base, count: scratch.count / 4)
                    resampler.push(bytes: base, channels: 4, background: background)
                }
            }
        } else {
            source.forEachRow { row in resampler.push(bytes: row, channels: 4, background: background) }
        }
        return resampler.finish().oriented(source.orientation)
    }

    /// Back to the first frame; a loop that was cut is cut again where it
    /// was, and says so once.
    public func rewind() throws(DecodeError) {
        try source.rewind()
        index = 0
        decodedPixels = 0
        decodeTime = .zero
        cut = nil
    }

    /// Browsers show a delay under 20 ms as 100 ms: files made for them
    /// count on it, and a 0 would spin.
    public static func shownDelay(milliseconds: Int) -> Duration {
        .milliseconds(milliseconds < 20 ? 100 : milliseconds)
    }

    /// What was wrong with the file or cut the loop short.
    public var warnings: [DecodeWarning] { source.warnings + (cut.map { [$0] } ?? []) }
}

import BlockArt
import FoundationEssentials

/// The frames of the animation on screen, for the key loop: decoded at the
/// size the still was (so that a frame replaces it cell for cell), kept
/// while a loop's frames fit in `KeptFrameBudget.bytes`, and decoded again each loop
/// past that. Its loop count is honoured; a cut loop (past the decoder's
/// limits) plays what it has.
final class FramePlayer {
    /// Where in which loop it is, and the first loop's frames in sRGB
    /// bytes (a quarter of the floats: 120 frames of 320×176 take 20 MB,
    /// not 81), each back in floats when shown.
    private var loop: FrameLoop<PixelImage>
    /// Frames in a loop: as the file says, then as the first loop showed
    /// (fewer, if the decoder's limits cut it).
    var frames: Int { loop.frames }
    /// How long the first frame (the still on screen) stays.
    private(set) var firstDelay = Duration.milliseconds(100)

    /// The animation in `path` at `size`, or nil for a still (or a file
    /// that will not open: the still's decode has said why). A loop is kept
    /// while its frames fit in `keeping` bytes.
    init?(
        path: String,
        size: PixelSize,
        background: RGB8,
        samples: (x: Int, y: Int),
        keeping: Int = KeptFrameBudget.bytes
    ) {
        // (try? flattens the "still" nil and a failure into one nil.)
        guard
            let decoder = try? AnimationDecoder.open(
                path: path,
                background: background,
                samples: samples,
                size: { _ in size }
            )
        else { return nil }
        loop = FrameLoop(decoder, budget: keeping)
        // A loop that will not fit is not kept at all: keeping its first
        // 64 MiB only to let them go would raise the peak for nothing.
        if loop.frames * size.width * size.height * 3 > keeping { loop.keepNothing() }
        // The still on screen is its first frame: the next to show is the second.
        if let first = nextFrame() { firstDelay = first.delay }
    }

    /// The next frame to show, after the last one shown: nil once the loop
    /// count has played out (or a loop showed nothing). On the way, frames
    /// whose delay `passOver` names are passed over, fewer than a loop of
    /// them (a whole loop would come back to the same frame): composed (or
    /// read from those kept), neither filtered nor shown. The last frame of
    /// the last loop is never passed over: it is the one that stays.
    /// A frame whose index `held` names (the screen keeps how it looks,
    /// from a loop before) comes without pixels: composed, not filtered.
    func nextFrame(
        passingOver passOver: (Duration) -> Bool = { _ in false },
        held: (Int) -> Bool = { _ in false }
    ) -> PlayedFrame? {
        var passed = 0
        let bounded = { (delay: Duration) in
            passed < self.loop.frames - 1 && !self.loop.staysAt(self.loop.position) && passOver(delay)
        }
        // The frame that stays is made whole: nothing after it keeps its canvas.
        let holding = { (index: Int) in !self.loop.staysAt(index) && held(index) }
        while true {
            if let step = step(at: loop.position, bounded, held: holding) {
                loop.advance()
                switch step {
                case let .frame(frame): return PlayedFrame(frame)
                case let .held(delay): return PlayedFrame(index: loop.position - 1, delay: delay, pixmap: nil)
                case .passedOver: passed += 1
                }
                continue
            }
            guard (try? loop.loopEnded()) == true else { return nil }
        }
    }

    /// Back to before the first frame, for a played-out animation played
    /// again, or a zoom's first frame.
    func restart() {
        loop.restart()
    }

    /// The pixels of frame `index`, which came `held` and is the last
    /// frame read (the screen has lost how it looks since): from the kept
    /// loop, or filtered from the canvas composed for it.
    func pixmap(ofHeld index: Int) -> Pixmap {
        loop.kept(index)?.item.pixmap() ?? loop.decoder.composedPixmap()
    }

    /// What reading a frame of the loop came to.
    private enum Step {
        case frame(AnimationFrame)
        /// Composed, not filtered: the screen holds how it looks.
        case held(Duration)
        case passedOver
    }

    /// Frame `index` of the loop, from those kept or decoded now; only its
    /// delay when `passOver` says so, or when `held` says the screen keeps
    /// how it looks (never while the first loop is being kept: every frame
    /// is made whole then).
    private func step(at index: Int, _ passOver: (Duration) -> Bool, held: (Int) -> Bool) -> Step? {
        if loop.readsKept {
            guard let (pixels, delay) = loop.kept(index) else { return nil }
            if passOver(delay) { return .passedOver }
            return held(index)
                ? .held(delay) : .frame(AnimationFrame(index: index, pixmap: pixels.pixmap(), delay: delay))
        }
        guard loop.keeping else {
            var skipped = false
            switch try? loop.decoder.next(passingOver: { delay in
                skipped = passOver(delay)
                return skipped || held(index)
            }) {
            case let .frame(frame)?: return .frame(frame)
            case let .passedOver(delay)?: return skipped ? .passedOver : .held(delay)
            case nil: return nil
            }
        }
        // The first loop, kept: every frame is made whole, to be kept.
        guard var frame = try? loop.decoder.next() else { return nil }
        let pixels = frame.pixmap.pixelImage()
        loop.keep(pixels, delay: frame.delay, bytes: pixels.rgb.count)
        // Shown as it will be shown when kept: every loop looks the same.
        frame.pixmap = pixels.pixmap()
        return passOver(frame.delay) ? .passedOver : .frame(frame)
    }
}

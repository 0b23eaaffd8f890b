/// An animation's frames loop after loop, for whatever shows them (the
/// screen's player, `render --animate`): where in which loop it is, the
/// loop count honoured, the first loop's frames kept as the shower makes
/// them (pixels, art, a picture) while they fit in `KeptFrameBudget.bytes`,
/// later loops read from those or decoded again after a rewind, and the
/// rule that ends a loop too short to move.
public struct FrameLoop<Kept> {
    /// Where the frames come from while they are not kept.
    public let decoder: AnimationDecoder
    /// Loops to play; 0 plays for ever. (Live: a GIF says it in a block
    /// read with its first frame.)
    public var loopCount: Int { decoder.loopCount }
    /// Frames in a loop: as the file says, then as the first loop showed
    /// (fewer, if the decoder's limits cut it).
    public private(set) var frames: Int
    /// Loops played through.
    public private(set) var plays = 0
    /// The next frame's number in its loop.
    public private(set) var position = 0
    /// The first loop's frames, while they fit in `budget`.
    private var kept: [(item: Kept, delay: Duration)]? = []
    private var keptBytes = 0
    /// The bound on `keptBytes` (`KeptFrameBudget.bytes`; tests lower it).
    private let budget: Int
    /// The first loop was read through into `kept`: later loops come from it.
    public private(set) var keptComplete = false

    /// The loop of `decoder`'s animation, before its first frame.
    public init(_ decoder: AnimationDecoder, budget: Int = KeptFrameBudget.bytes) {
        self.decoder = decoder
        frames = decoder.frameCount
        self.budget = budget
    }

    /// Whether frames made now are kept: the first loop, while it fits.
    public var keeping: Bool { !keptComplete && kept != nil }

    /// Whether the frames come from those kept, never from the decoder.
    public var readsKept: Bool { keptComplete && kept != nil }

    /// Kept frame `index` and its delay, once the first loop is kept whole.
    public func kept(_ index: Int) -> (item: Kept, delay: Duration)? {
        guard keptComplete, let kept, kept.indices.contains(index) else { return nil }
        return kept[index]
    }

    /// No frame is kept past this point: a loop too large for the budget.
    public mutating func keepNothing() { kept = nil }

    /// `item`, made of a frame of the first loop costing `bytes`, is kept
    /// while the loop fits; past the budget none of it is.
    public mutating func keep(_ item: Kept, delay: Duration, bytes: Int) {
        guard keeping else { return }
        keptBytes += bytes
        kept?.append((item, delay))
        if keptBytes > budget { kept = nil }
    }

    /// The frame at `position` was shown or passed over.
    public mutating func advance() { position += 1 }

    /// The decoder, or the kept frames, ran out: the loop is over. Whether
    /// another follows: not once the loop count is played out, and not
    /// after a loop of fewer than two frames, where nothing would move (a
    /// loop cut before its first frame would spin). Rewinds the decoder
    /// for the next loop unless its frames are kept.
    public mutating func loopEnded() throws(DecodeError) -> Bool {
        if position > 0 { frames = position }
        if kept != nil { keptComplete = true }
        plays += 1
        guard position > 1, loopCount == 0 || plays < loopCount else { return false }
        position = 0
        if !keptComplete { try decoder.rewind() }
        return true
    }

    /// Whether frame `index` of this loop is the one a played-out
    /// animation stays on: the last of its last loop.
    public func staysAt(_ index: Int) -> Bool {
        loopCount != 0 && plays == loopCount - 1 && index == frames - 1
    }

    /// Back to before the first frame (an animation played out played
    /// again). A first loop still being kept starts over too: the frames
    /// read so far would come again.
    public mutating func restart() {
        plays = 0
        position = 0
        guard !keptComplete else { return }
        try? decoder.rewind()
        if kept != nil {
            kept = []
            keptBytes = 0
        }
    }
}

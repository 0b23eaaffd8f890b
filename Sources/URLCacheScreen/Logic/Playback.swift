import BlockArt
import FoundationEssentials
import URLCacheSupport

/// An animation playing in the image area: which frame is up, whether it
/// is paused, and when the next is due. The frames themselves are the
/// shell's (`FramePlayer`); this is what the keys, the status line and the
/// event loop's deadline read.
public struct Playback: Sendable, Equatable {
    /// The frame on screen (0-based).
    public var frame = 0
    /// How many frames a loop has, once one was read through.
    public var frames: Int?
    /// `space` stops it on its frame, and `.` then steps.
    public var paused = false
    /// Its loop count played out: it stays on its last frame.
    public var ended = false
    /// When the next frame is to be shown; nil while it does not move.
    public var due: Date?
    /// Seconds behind after which the screen no longer catches up (frames
    /// passed over) but goes on from now: it was paused, not slow.
    public static let catchUpLimit = 1.0

    public init(frame: Int = 0, frames: Int? = nil, due: Date? = nil) {
        (self.frame, self.frames, self.due) = (frame, frames, due)
    }

    /// Whether frame `index` is the one after the frame on screen (the
    /// first again after the last, once the loop's length is known).
    public func isNext(_ index: Int) -> Bool {
        index == frames.map { (frame + 1) % $0 } ?? frame + 1
    }

    /// The status line's "frame 12 of 48" while paused or ended.
    public var status: String? {
        guard paused || ended else { return nil }
        return "frame \(frame + 1)" + (frames.map { " of \($0)" } ?? "") + (paused ? " · paused (space plays)" : "")
    }
}

/// A frame the player hands the screen: its pixels, or none when the
/// screen said it holds how the frame looks (from a loop before), so that
/// the frame was composed but not filtered.
public struct PlayedFrame: Sendable {
    public var index: Int
    public var delay: Duration
    public var pixmap: Pixmap?

    public init(index: Int, delay: Duration, pixmap: Pixmap?) {
        (self.index, self.delay, self.pixmap) = (index, delay, pixmap)
    }

    public init(_ frame: AnimationFrame) {
        self.init(index: frame.index, delay: frame.delay, pixmap: frame.pixmap)
    }
}

extension ScreenLogic {
    /// Whether the animation moves now: not paused or ended, and nothing
    /// over it (a box, the gallery) or instead of it (a zoomed view of its
    /// first frame).
    public static func animating(_ state: ScreenState) -> Bool {
        guard let playback = state.playback, !playback.paused, !playback.ended else { return false }
        return state.overlay == nil && state.gallery == nil && !state.viewport.isZoomed
    }

    /// `space` and `.` on an animation; nil with no animation.
    static func handlePlayback(_ command: Command, _ state: inout ScreenState) -> [Effect]? {
        // A zoomed view shows the first frame: the keys would move a frame not shown.
        guard let playback = state.playback, state.gallery == nil, !state.viewport.isZoomed else { return nil }
        switch command {
        case .playback:
            // Played out, it plays again from its first frame (the shell
            // starts it over); else it pauses or plays on.
            state.playback?.paused = playback.ended ? false : !playback.paused
            state.playback?.due = nil
            return [.playback]
        case .nextFrame where state.playback?.paused == true:
            return [.nextFrame]
        default:
            return nil
        }
    }

    /// The next wake-up for the animation: its due frame, while it moves.
    static func nextFrameWake(_ state: ScreenState) -> Date? {
        animating(state) ? state.playback?.due : nil
    }

    /// An animation was opened for the picture on screen, its first frame
    /// up and the next due after `firstDelay`. One paused or played out
    /// that a check brought again (`resumed`) stays so.
    static func animationOpened(
        frames: Int?,
        firstDelay: Duration,
        now: Date,
        resumed: (paused: Bool, ended: Bool)?,
        _ state: inout ScreenState
    ) {
        state.playback = Playback(frames: frames, due: now.addingTimeInterval(firstDelay.seconds))
        if let resumed, resumed.paused || resumed.ended {
            state.playback?.paused = resumed.paused
            state.playback?.ended = resumed.ended
            state.playback?.due = nil
        }
    }

    /// The picture is no animation now (another picture, or none).
    static func animationStopped(_ state: inout ScreenState) {
        state.playback = nil
    }

    /// Whether the next frame is due now: the animation moves and its time
    /// has come (with no deadline, it was held: on at once).
    static func frameDue(_ state: ScreenState, now: Date) -> Bool {
        animating(state) && state.playback?.due ?? now <= now
    }

    /// The player's next frame goes on screen; nil: the loop played out,
    /// and the last frame stays. `frames`: the loop's length, once known.
    static func frameShown(_ frame: PlayedFrame?, frames: Int?, now: Date, _ state: inout ScreenState) {
        guard var playback = state.playback, state.image != nil else { return }
        playback.ended = false
        playback.frames = frames
        guard let frame else {
            playback.ended = true
            playback.due = nil
            state.playback = playback
            return
        }
        // A held frame's pixels were never made: the image keeps the last
        // frame's, and the screen draws the art it holds for this one.
        if let pixmap = frame.pixmap { state.image?.pixmap = pixmap }
        playback.frame = frame.index
        // Each delay counts from when its frame was due, so that slow frames
        // do not add up; after a pause (a box, a zoom) it counts from now.
        let from = timedDue(state, now: now) ?? now
        playback.due = playback.paused ? nil : from.addingTimeInterval(frame.delay.seconds)
        state.playback = playback
    }

    /// Whether the frame due now, staying `delay`, has had all its time
    /// already: the screen fell behind (a terminal that reads slower than
    /// the frames come) and should pass over it. Later than
    /// `Playback.catchUpLimit` is no falling behind but a pause (a box, a
    /// zoom): the animation goes on from now instead.
    static func frameOverdue(_ state: ScreenState, delay: Duration, now: Date) -> Bool {
        guard animating(state), let due = state.playback?.due else { return false }
        let late = now.timeIntervalSince(due)
        return late >= delay.seconds && late < Playback.catchUpLimit
    }

    /// When the frame shown now was due, for timing it: none for a frame
    /// asked for (no due time) or one after a pause (a box, a zoom: more
    /// than `Playback.catchUpLimit` behind), which goes on from now and so
    /// is not late.
    static func timedDue(_ state: ScreenState, now: Date) -> Date? {
        guard let due = state.playback?.due, now.timeIntervalSince(due) < Playback.catchUpLimit else { return nil }
        return due
    }

    /// A frame passed over: its time is counted, and the next is due when
    /// it would have been.
    static func frameSkipped(_ delay: Duration, _ state: inout ScreenState) {
        guard let due = state.playback?.due else { return }
        state.playback?.due = due.addingTimeInterval(delay.seconds)
    }

    /// A zoomed view is of the first frame (its sharp view is decoded from
    /// the file as a still): `first` goes on screen, held, and the views of
    /// the frame before are dropped.
    static func heldAtFirstFrame(_ first: PlayedFrame, _ state: inout ScreenState) {
        guard state.image != nil, let pixmap = first.pixmap else { return }
        state.image?.pixmap = pixmap
        state.playback?.frame = first.index
        state.playback?.due = nil
        state.zoomed = nil
        state.viewPixels = nil
    }
}

/// How late an animation's frames reached the screen: each measured from
/// when it was due to when it was drawn, for the log when it stops (what
/// `Benchmarks/animation.sh` reads: frames shown on time).
public struct FrameTiming: Sendable, Equatable, CustomStringConvertible {
    /// A frame later than this is late: a frame's time at 50 frames a second.
    public static let lateAfter = 0.020
    public private(set) var shown = 0
    public private(set) var late = 0
    /// Frames passed over to catch up (decoded, never drawn).
    public private(set) var skipped = 0
    /// The latest, in seconds.
    public private(set) var worst = 0.0
    private var total = 0.0

    public init() {}

    /// A frame was passed over.
    public mutating func passedOver() { skipped += 1 }

    /// A frame due at `due` was drawn at `drawn`.
    public mutating func record(due: Date, drawn: Date) {
        let lateness = max(0, drawn.timeIntervalSince(due))
        shown += 1
        total += lateness
        worst = max(worst, lateness)
        if lateness > FrameTiming.lateAfter { late += 1 }
    }

    public var description: String {
        let mean = shown > 0 ? total / Double(shown) : 0
        return CFormat.string(
            "%ld frames shown, %ld passed over to catch up, %ld late by more than %.0f ms, %.1f ms late on average, %.1f ms at most",
            shown,
            skipped,
            late,
            FrameTiming.lateAfter * 1000,
            mean * 1000,
            worst * 1000
        )
    }
}

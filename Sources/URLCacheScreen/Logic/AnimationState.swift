import FoundationEssentials

/// The animation on screen as the shell plays it, beside `Playback` (its
/// frame, pause and deadline): what was last looked at for being one,
/// where a paused or played-out one is carried to the next player of its
/// file, the frame made ready ahead, whether the frame up came held, and
/// how late the frames came. Only the player, which holds the decoder,
/// stays in the shell.
public struct AnimationState: Sendable {
    /// The picture last looked at for being an animation.
    var checked: AnimationCheck?
    /// A paused or played-out animation reloaded (a check): it stays so.
    var carried: Carried?
    /// The next frame, decoded and made ready to show while the one before
    /// is up (nil inside: the loop played out); nil: none ahead.
    var upcoming: PlayedFrame??
    /// The frame on screen came held (drawn from its kept art): the
    /// state's pixels are an earlier frame's. Nothing is decoded ahead
    /// meanwhile, so that the player's canvas is still this frame's, to be
    /// filtered if the art is not enough after all.
    var heldFrameUp = false
    /// When the frame being drawn was due.
    var frameDue: Date?
    /// How late the frames were.
    var timing = FrameTiming()

    /// Where a paused or played-out animation of `path` was.
    struct Carried: Sendable, Equatable {
        var path: String
        var paused: Bool
        var ended: Bool
    }
}

/// The picture last looked at for being an animation: its file and size.
struct AnimationCheck: Sendable, Equatable {
    var path: String
    var width: Int, height: Int
}

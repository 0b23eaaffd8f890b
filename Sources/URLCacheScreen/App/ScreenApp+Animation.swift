import BlockArt
import FoundationEssentials
import URLCacheKit

/// An animated image in the screen: its frames shown in the key loop's own
/// `poll`, each when it is due, and only while nothing covers it.
extension ScreenApp {
    /// After anything that may have changed the picture: a player for the
    /// image on screen if it is an animation, none otherwise. A file is
    /// opened to find out once per picture and size. Whether the state
    /// changed (the screen is drawn again).
    func syncAnimation() -> Bool {
        let before = state.playback
        openAnimation()
        return state.playback != before
    }

    private func openAnimation() {
        guard let image = state.image, case let .file(path)? = state.imageSource, !state.isBundled else {
            stopAnimation()
            return
        }
        let check = AnimationCheck(path: path, width: image.pixmap.width, height: image.pixmap.height)
        guard check != state.animation.checked else { return }
        stopAnimation()
        state.animation.checked = check
        let resumed = state.animation.carried
        state.animation.carried = nil
        guard
            let opened = FramePlayer(
                path: path,
                size: PixelSize(width: check.width, height: check.height),
                background: services.decodeContext.background,
                samples: services.decodeContext.samples
            )
        else { return }
        player = opened
        ScreenLogic.animationOpened(
            frames: opened.frames,
            firstDelay: opened.firstDelay,
            now: Date(),
            resumed: resumed.flatMap { $0.path == path ? ($0.paused, $0.ended) : nil },
            &state
        )
        services.log.write("animation: \(path) at \(check.width)x\(check.height)")
    }

    /// `space`: says where it paused, or plays on from the next frame, now.
    func playbackToggled() {
        guard var playback = state.playback else { return }
        if playback.paused {
            // The frame made ready came after frames passed over (the screen
            // was behind): it is shown now, so that `.` steps on from the
            // frame on screen by one, not past the frames passed over.
            if case let ready?? = state.animation.upcoming, !playback.isNext(ready.index) {
                _ = advanceAnimation(now: Date(), asked: true)
                playback = state.playback ?? playback
            }
            services.log.write("animation paused at frame \(playback.frame + 1) of \(playback.frames ?? 0)")
        } else {
            _ = advanceAnimation(now: Date(), asked: true)
            services.log.write("animation playing")
        }
    }

    /// A zoomed view is of the first frame (its sharp view is decoded from
    /// the file as a still): the frame on screen goes back to it, held.
    func firstFrameForZoom() {
        guard state.viewport.isZoomed, let player, let playback = state.playback, playback.frame != 0,
            state.image != nil
        else { return }
        restartPlayer()
        guard let first = player.nextFrame() else { return }
        ScreenLogic.heldAtFirstFrame(first, &state)
    }

    /// No animation now, and none known of: the picture is looked at again.
    /// Where it was paused or played out is state.animation.carried to the next player of
    /// the same file (a check brings it again; a resize opens it anew).
    func stopAnimation() {
        if player != nil, let checked = state.animation.checked, let playback = state.playback {
            state.animation.carried = AnimationState.Carried(
                path: checked.path,
                paused: playback.paused,
                ended: playback.ended
            )
        }
        player = nil
        state.animation.upcoming = nil
        state.animation.heldFrameUp = false
        view.animationChanged()
        logFrameTiming()
        ScreenLogic.animationStopped(&state)
        state.animation.checked = nil
    }

    /// After a draw, while the animation moves: its next frame decoded,
    /// and its art rendered or picture encoded, before it is due, so that
    /// at its time only its bytes are written (done then, it came 20–30 ms
    /// late in tmux: the time a frame takes to make).
    func prepareNextFrame() {
        guard let player, state.animation.upcoming == nil, !state.animation.heldFrameUp, ScreenLogic.animating(state)
        else { return }
        // Frames whose time passed while the last was written are passed
        // over here, before any is rendered: a frame made ready is shown.
        let now = Date()
        let next = catchUp(player, now: now)
        state.animation.upcoming = .some(next)
        var shown = state
        ScreenLogic.frameShown(next, frames: player.frames, now: now, &shown)
        if next != nil { view.prepare(shown, on: terminal) }
    }

    /// Back to before the first frame, nothing decoded ahead.
    private func restartPlayer() {
        player?.restart()
        state.animation.upcoming = nil
        state.animation.heldFrameUp = false
    }

    /// Before a draw: a frame on screen that came held whose art the view
    /// would not find now (pixels turned on, another size) gets its pixels,
    /// filtered from the canvas the player still holds for it.
    func madeHeldFrame() {
        guard state.animation.heldFrameUp, let player, let frame = state.playback?.frame,
            !view.holdsFrame(frame, state, on: terminal)
        else { return }
        state.animation.heldFrameUp = false
        state.image?.pixmap = player.pixmap(ofHeld: frame)
    }

    /// How late the frames shown were, once an animation stops or the
    /// screen closes.
    func logFrameTiming() {
        guard state.animation.timing.shown > 0 else { return }
        services.log.write("animation timing: \(state.animation.timing)")
        state.animation.timing = FrameTiming()
    }

    /// The next frame, if it is due now (or `asked`, by `.` or `space`):
    /// whether the screen changed.
    func advanceAnimation(now: Date, asked: Bool = false) -> Bool {
        guard let player, let playback = state.playback, state.image != nil,
            asked || ScreenLogic.frameDue(state, now: now)
        else {
            return false
        }
        if playback.ended { restartPlayer() }
        // A frame made ready is shown, late or not (passing over it would
        // waste its making); one decoded now may be passed over. A frame
        // asked for (`.`, `space`) has no due time: none is passed over,
        // and none is timed.
        let next = state.animation.upcoming ?? catchUp(player, now: now)
        state.animation.upcoming = nil
        // A held frame whose art the view has lost since it was read (a
        // resize) gets its pixels at the draw (`madeHeldFrame`).
        if let next { state.animation.heldFrameUp = next.pixmap == nil }
        state.animation.frameDue = next == nil ? nil : ScreenLogic.timedDue(state, now: now)
        ScreenLogic.frameShown(next, frames: player.frames, now: now, &state)
        return true
    }

    /// The player's next frame; behind (a terminal that reads slower than
    /// the frames come: tmux, xterm's sixel), frames whose whole time has
    /// passed are passed over, as browsers catch up an animated image: each
    /// is composed over the ones before but neither filtered nor drawn, so
    /// the animation keeps its speed and no time goes on frames no one
    /// would see.
    /// A frame whose art the screen holds from a loop before comes
    /// without pixels: composed, not filtered, and only written.
    private func catchUp(_ player: FramePlayer, now: Date) -> PlayedFrame? {
        player.nextFrame(
            passingOver: { delay in
                guard ScreenLogic.frameOverdue(state, delay: delay, now: now) else { return false }
                ScreenLogic.frameSkipped(delay, &state)
                state.animation.timing.passedOver()
                return true
            },
            held: { view.holdsFrame($0, state, on: terminal) }
        )
    }
}

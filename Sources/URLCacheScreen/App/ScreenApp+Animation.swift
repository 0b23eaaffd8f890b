import BlockArt
import Foundation
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
        guard check != animationChecked else { return }
        stopAnimation()
        animationChecked = check
        let resumed = carried
        carried = nil
        guard let opened = FramePlayer(path: path, size: (check.width, check.height), background: decodeContext.background,
                                       samples: decodeContext.samples) else { return }
        player = opened
        state.playback = Playback(frames: opened.frames, due: Date().addingTimeInterval(opened.firstDelay.seconds))
        if let resumed, resumed.path == path, resumed.paused || resumed.ended {
            state.playback?.paused = resumed.paused
            state.playback?.ended = resumed.ended
            state.playback?.due = nil
        }
        log.write("animation: \(path) at \(check.width)x\(check.height)")
    }

    /// `space`: says where it paused, or plays on from the next frame, now.
    func playbackToggled() {
        guard let playback = state.playback else { return }
        if playback.paused {
            log.write("animation paused at frame \(playback.frame + 1) of \(playback.frames ?? 0)")
        } else {
            _ = advanceAnimation(now: Date(), asked: true)
            log.write("animation playing")
        }
    }

    /// A zoomed view is of the first frame (its sharp view is decoded from
    /// the file as a still): the frame on screen goes back to it, held.
    func firstFrameForZoom() {
        guard state.viewport.isZoomed, let player, let playback = state.playback, playback.frame != 0, state.image != nil else { return }
        player.restart()
        guard let first = player.nextFrame() else { return }
        state.image?.pixmap = first.pixmap
        state.playback?.frame = first.index
        state.playback?.due = nil
        state.zoomed = nil
        state.viewPixels = nil
    }

    /// No animation now, and none known of: the picture is looked at again.
    /// Where it was paused or played out is carried to the next player of
    /// the same file (a check brings it again; a resize opens it anew).
    func stopAnimation() {
        if player != nil, let checked = animationChecked, let playback = state.playback {
            carried = (checked.path, playback.paused, playback.ended)
        }
        player = nil
        state.playback = nil
        animationChecked = nil
    }

    /// The next frame, if it is due now (or `asked`, by `.` or `space`):
    /// whether the screen changed.
    func advanceAnimation(now: Date, asked: Bool = false) -> Bool {
        guard let player, var playback = state.playback, state.image != nil else { return false }
        if !asked {
            // No deadline while it moves: it was held (a zoomed view): on at once.
            guard ScreenLogic.animating(state), playback.due ?? now <= now else { return false }
        }
        if playback.ended {
            player.restart()
            playback.ended = false
        }
        let next = player.nextFrame()
        playback.frames = player.frames
        guard let frame = next else {
            playback.ended = true
            playback.due = nil
            state.playback = playback
            return true
        }
        state.image?.pixmap = frame.pixmap
        playback.frame = frame.index
        // Each delay counts from when its frame was due, so that slow frames
        // do not add up; after a pause (a box, a zoom) it counts from now.
        let from = playback.due.map { now.timeIntervalSince($0) < 1 ? $0 : now } ?? now
        playback.due = playback.paused ? nil : from.addingTimeInterval(frame.delay.seconds)
        state.playback = playback
        return true
    }
}

/// The picture last looked at for being an animation: its file and size.
struct AnimationCheck: Equatable {
    var path: String
    var width: Int, height: Int
}

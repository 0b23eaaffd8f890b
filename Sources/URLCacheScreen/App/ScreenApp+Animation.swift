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
        let size = (width: image.pixmap.width, height: image.pixmap.height)
        if let player, player.path == path, player.size == size { return }
        let key = "\(path) \(size.width)x\(size.height)"
        guard key != animationChecked else { return }
        stopAnimation()
        animationChecked = key
        let resumed = carried
        carried = nil
        guard let opened = FramePlayer(path: path, size: size, background: decodeContext.background,
                                       samples: decodeContext.samples) else { return }
        player = opened
        state.playback = Playback(frame: 0, frames: opened.frames, due: Date().addingTimeInterval(opened.firstDelay.seconds))
        if let resumed, resumed.path == path, resumed.playback.paused || resumed.playback.ended {
            state.playback?.paused = resumed.playback.paused
            state.playback?.ended = resumed.playback.ended
            state.playback?.due = nil
        }
        log.write("animation: \(path) at \(size.width)x\(size.height)")
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
        guard state.viewport.isZoomed, let player, let playback = state.playback, playback.frame != 0,
              let image = state.image else { return }
        player.restart()
        guard let first = player.nextFrame() else { return }
        state.image = DecodedImage(info: image.info, pixmap: first.pixmap, warnings: image.warnings)
        state.playback?.frame = first.index
        state.playback?.due = nil
        state.zoomed = nil
        state.viewPixels = nil
    }

    /// No animation now, and none known of: the picture is looked at again.
    /// Where it was paused or played out is carried to the next player of
    /// the same file (a check brings it again; a resize opens it anew).
    func stopAnimation() {
        if let player, let playback = state.playback { carried = (player.path, playback) }
        player = nil
        state.playback = nil
        animationChecked = nil
    }

    /// The next frame, if it is due now (or `asked`, by `.` or `space`):
    /// whether the screen changed.
    func advanceAnimation(now: Date, asked: Bool = false) -> Bool {
        guard let player, var playback = state.playback, let image = state.image else { return false }
        if !asked {
            // No deadline while it moves: it was held (a zoomed view): on at once.
            guard ScreenLogic.animating(state), playback.due ?? now <= now else { return false }
        }
        if playback.ended {
            player.restart()
            playback.ended = false
        }
        guard let frame = player.nextFrame() else {
            playback.ended = true
            playback.due = nil
            playback.frames = player.frames
            state.playback = playback
            return true
        }
        state.image = DecodedImage(info: image.info, pixmap: frame.pixmap, warnings: image.warnings)
        playback.frame = frame.index
        playback.frames = player.frames
        // Each delay counts from when its frame was due, so that slow frames
        // do not add up; after a pause (a box, a zoom) it counts from now.
        let from = playback.due.map { now.timeIntervalSince($0) < 1 ? $0 : now } ?? now
        playback.due = playback.paused ? nil : from.addingTimeInterval(frame.delay.seconds)
        state.playback = playback
        return true
    }
}

import ArgumentParser
import BlockArt
import FoundationEssentials

#if canImport(Glibc)
import Glibc
#endif

/// `--animate`: whether `render` plays an animation or prints its first frame.
enum AnimateChoice: String, ExpressibleByArgument, CaseIterable {
    /// Plays on a terminal; a pipe or a file gets the first frame.
    case auto
    case on
    case off
}

/// Plays an animation on the terminal as `render` prints a still, until it
/// ends (its loop count), `--duration` passes, or Ctrl-C. Each frame waits
/// for its delay counted from when the last one was due, so slow frames do
/// not add up to a slow animation. Frames are made ready to show (`prepare`:
/// art rendered, a picture encoded) once and kept while they fit in
/// `KeptFrameBudget.bytes`; past that they are decoded again each loop
/// (`FrameLoop`, as the screen's player). The cursor is hidden while it
/// plays and always shown again.
struct AnimationPlayer<Shown> {
    var duration: Double?
    /// A frame made ready to show, and what it costs to keep.
    var prepare: (AnimationFrame) -> (shown: Shown, bytes: Int)
    /// The bytes that show a frame, given the one shown before (nil first).
    var output: (Shown, Shown?) -> [UInt8]
    /// Written once it stops: where the cursor should end, and on Ctrl-C
    /// what takes the picture away.
    var closing: [UInt8] = []
    var interrupted: [UInt8] = []
    /// Runs once it stops, after the bytes above, before a signal that
    /// stopped it ends the process (tmux's passthrough put back).
    var ending: () -> Void = {}

    /// Plays `animation` from its first frame.
    func play(_ animation: AnimationDecoder) throws(DecodeError) {
        Interruption.install()
        defer {
            writeBytes(closing + (Interruption.happened ? interrupted : []))
            write("\u{1B}[?25h")
            ending()
            Interruption.finish()
        }
        write("\u{1B}[?25l")
        let clock = ContinuousClock()
        let end = duration.map { clock.now + .seconds($0) }
        var due = clock.now
        var loop = FrameLoop<Shown>(animation)
        var previous: Shown?
        while !Interruption.happened {
            let next: (Shown, Duration)?
            if loop.readsKept {
                next = loop.kept(loop.position)
            } else {
                next = try animation.next().map { frame in
                    let ready = prepare(frame)
                    loop.keep(ready.shown, delay: frame.delay, bytes: ready.bytes)
                    return (ready.shown, frame.delay)
                }
            }
            guard let (frame, delay) = next else {
                guard try loop.loopEnded() else { break }
                continue
            }
            guard AnimationPlayer.wait(until: due, end: end, clock: clock) else { break }
            writeBytes(output(frame, previous))
            loop.advance()
            due += delay
            previous = frame
        }
    }

    /// Sleeps until `due`, woken early by a signal; false once `end` has
    /// passed or a signal came.
    static func wait(until due: ContinuousClock.Instant, end: ContinuousClock.Instant?, clock: ContinuousClock) -> Bool
    {
        while true {
            if Interruption.happened { return false }
            let now = clock.now
            if let end, now >= end { return false }
            let until = end.map { min($0, due) } ?? due
            guard now < until else { return true }
            let left = until - now
            var request = timespec(
                tv_sec: Int(left.components.seconds),
                tv_nsec: Int(left.components.attoseconds / 1_000_000_000)
            )
            _ = nanosleep(&request, nil)
        }
    }

    private func write(_ text: String) { writeBytes(Array(text.utf8)) }

    private func writeBytes(_ bytes: [UInt8]) {
        Console.write(bytes)
    }
}

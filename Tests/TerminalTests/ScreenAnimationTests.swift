import Foundation
import URLCacheHarness
import URLCacheTestSupport
import XCTest

/// An animated GIF in the screen, as a person meets it in tmux: it moves,
/// `space` stops it on a frame and says which, `.` steps, `space` plays on.
extension ScreenTests {
    /// The picture's rows with their colours (the status line left out).
    private func picture(_ screen: String) -> String {
        screen.split(separator: "\n", omittingEmptySubsequences: false).dropFirst().prefix(20).joined(separator: "\n")
    }

    /// Waits until the picture (with its colours) is not `before`; once seen
    /// to change it stays changed, however the loop comes round again.
    private func waitForAnotherFrame(_ tmux: TmuxSession, from before: String, _ description: String) {
        var changed = false
        tmux.wait(for: description) { _ in
            if !changed { changed = picture(tmux.capture(escapes: true)) != before }
            return changed
        }
    }

    func testAnAnimatedGIFPlaysPausesAndSteps() throws {
        // 48×32, six frames of 40 ms with every disposal, looping forever.
        try FileManager.default.copyItem(
            atPath: Fixtures.formats.appendingPathComponent("animated.gif").path,
            toPath: nginx.root.file("animated.gif")
        )
        let log = home.file("screen.log")
        let tmux = try open([nginx.url("/animated.gif")], rows: 32, extra: ["--log-file", log])
        tmux.wait(forText: "Newly cached image")
        let first = picture(tmux.capture(escapes: true))
        waitForAnotherFrame(tmux, from: first, "another frame")
        XCTAssertTrue(
            try String(contentsOfFile: log, encoding: .utf8).contains("animation: "),
            "the screen knew it for one"
        )
        tmux.send("Space")
        let paused = tmux.wait(for: "the paused frame's number") { $0.contains(" of 6 · paused (space plays)") }
        let number = try XCTUnwrap(paused.firstMatch(of: /frame (\d) of 6/).flatMap { Int($0.1) })
        let still = picture(tmux.capture(escapes: true))
        tmux.send(".")
        let stepped = tmux.wait(forText: "frame \(number % 6 + 1) of 6 · paused")
        XCTAssertNotEqual(picture(tmux.capture(escapes: true)), still, "`.` shows the next frame: \(stepped)")
        // A loop later, on a frame after the first: its art was drawn
        // before, so it comes held and the state keeps the first frame's
        // pixels, which the re-check below brings again.
        var at = number % 6 + 1
        for _ in 0..<(at == 1 ? 7 : 6) {
            tmux.send(".")
            at = at % 6 + 1
            tmux.wait(forText: "frame \(at) of 6 · paused")
        }
        // A re-check brings the file again (its first frame): still paused.
        tmux.send("r")
        tmux.wait(forText: "frame 1 of 6 · paused (space plays) · Cached image is up to date")
        tmux.send("Space")
        tmux.wait(for: "playing again") { !$0.contains("paused") && $0.contains("Cached image is up to date") }
        let playing = picture(tmux.capture(escapes: true))
        waitForAnotherFrame(tmux, from: playing, "moving again")
        // A box over it stops it, and closing the box lets it move on.
        tmux.send("?")
        tmux.wait(forText: "zoom in / out / fit")
        tmux.send("x")
        tmux.wait(for: "the help to close") { !$0.contains("zoom in / out / fit") }
        waitForAnotherFrame(tmux, from: picture(tmux.capture(escapes: true)), "moving after the box")
        tmux.send("q")
        XCTAssertTrue(tmux.waitForExit().contains("EXIT=0"))
    }
}

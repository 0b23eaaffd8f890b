import Foundation
import URLCacheHarness
import URLCacheTestSupport
import XCTest

/// Zoom and pan in block art, as a person meets them in tmux: the keys,
/// the wheel, the status line, back to fit, and a resize at ×2.
extension ScreenTests {
    /// The art's rows: the lines between the title and the status line.
    private func art(_ screen: String) -> String {
        let lines = screen.split(separator: "\n", omittingEmptySubsequences: false)
        return lines.dropFirst().prefix(while: { !$0.hasPrefix(" ×") && !$0.contains("cached image") }).joined(
            separator: "\n"
        )
    }

    func testZoomPanAndFitInBlockArt() throws {
        try copyFixture("photo.jpg", to: nginx.root)  // 600×400
        let log = home.file("screen.log")
        let tmux = try open([nginx.url("/photo.jpg")], rows: 32, extra: ["--log-file", log])
        let fitted = tmux.wait(forText: "Newly cached image")
        let fitArt = art(fitted)
        XCTAssertGreaterThan(artWidth(fitted), 50)
        tmux.send("+")
        // ×2's sharp view comes in before the next key: a key pressed while
        // it decodes makes it stale, and ×4 would then be decoded, not cut.
        tmux.wait(forText: "×2 · view at 50%, 50% · Newly cached image")
        tmux.wait(for: "the sharp ×2 view") { _ in sharpViews(log).count >= 1 }
        tmux.send("+")
        // 100×26 cells of halves: 100×52 samples; the photo fits at 0.13
        // a sample, so ×4 shows 192.3×100 of it about its centre.
        tmux.wait(forText: "×4 · view at 50%, 50% · Newly cached image")
        tmux.wait(for: "the sharp ×4 view") { _ in sharpViews(log).count >= 2 }
        let zoomed = tmux.wait(for: "the ×4 art") { self.art($0) != fitArt }
        // ×2 already decoded the photo at its own scale (the art wants more
        // samples than it has), its margin around: ×4 is cut from that.
        let views = sharpViews(log)
        XCTAssertTrue(
            views.contains { $0.contains("view 203.8,150.0 192.3x100.0 ") },
            "the centre's 192×100, sharp: \(views)"
        )
        XCTAssertGreaterThan(artWidth(zoomed), 90, "the view fills the area's width")
        tmux.send("l")
        tmux.wait(forText: "×4 · view at 58%, 50%")
        tmux.send("J")  // Shift+j is not a pan: nothing changes
        tmux.send("k")
        tmux.wait(forText: "×4 · view at 58%, 44%")
        tmux.send("0")
        let back = tmux.wait(for: "the fitted art again") { !$0.contains("×") && self.art($0) == fitArt }
        XCTAssertTrue(back.contains("Newly cached image"), back)
        // The wheel over the picture zooms; a resize at ×2 keeps the centre.
        // About the pointer: row 14's middle is 52% down the picture
        // (rows 1–26), and stays where it was, so the centre moves to 51%.
        tmux.wheel(up: true, row: 14, column: 50)
        tmux.wait(forText: "×2 · view at 50%, 51%")
        // (The status line is on screen from before: the view made for the
        // new size is what says the resize was taken.)
        let viewsBefore = sharpViews(log).count
        tmux.resize(columns: 80, rows: 24)
        tmux.wait(for: "the ×2 view made for 80×24") { _ in sharpViews(log).count > viewsBefore }
        let resized = tmux.wait(forText: "×2 · view at 50%, 51%")
        XCTAssertLessThanOrEqual(artWidth(resized), 80)
        tmux.send("-")
        tmux.wait(for: "fit after -") { !$0.contains("×") }
        // ? lists the zoom's keys with the others.
        tmux.send("?")
        let help = tmux.wait(forText: "zoom in / out / fit")
        XCTAssertTrue(help.contains("pan a zoomed view"), help)
        tmux.send("x")
        tmux.wait(for: "the help to close") { !$0.contains("zoom in / out / fit") }
        tmux.send("q")
        XCTAssertTrue(tmux.waitForExit().contains("EXIT=0"))
    }
}

/// The sharp views the screen's log names, in order: decoded, or cut from
/// a decode's pixels at hand where they are as fine as the view needs.
func sharpViews(_ log: String) -> [Substring] {
    ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n")
        .filter {
            ($0.contains(" decoded in ") || $0.contains(" cut from the pixels at hand")) && !$0.contains("stale")
        }
}

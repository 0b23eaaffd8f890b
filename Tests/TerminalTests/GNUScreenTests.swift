import Foundation
import URLCacheHarness
import URLCacheTestSupport
import XCTest

/// GNU screen 4.9, Debian's, started inside tmux as people do: screen
/// passes on the environment it was started with, so TMUX,
/// TERM_PROGRAM=tmux and the outer terminal's COLORTERM leak into it.
final class GNUScreenTests: XCTestCase {
    /// The art is made for screen, not for the tmux further out: 256
    /// colours, since screen 4.9 reads 38;2;r;g;b as separate attributes.
    /// (Taken for tmux with COLORTERM=truecolor, the picture came out dim,
    /// in screen's guesses at 16 colours.)
    func testInsideScreenStartedInTmuxTheArtIsForScreen() throws {
        let screen = "/usr/bin/screen"
        guard FileManager.default.isExecutableFile(atPath: screen) else {
            return XCTFail("screen is missing: Scripts/install-deps --tests installs it")
        }
        let home = try TemporaryDirectory()
        let binary = TmuxSession.quote(Paths.binary.path)
        let photo = TmuxSession.quote(Fixtures.images.appendingPathComponent("photo.jpg").path)
        let script =
            "\(binary) probe | grep -E '^(terminal|colours):'; \(binary) render --size 20x5 \(photo); echo DONE; sleep 60"
        let session = try TmuxSession(
            [screen, "-q", "-c", "/dev/null", "sh", "-c", script],
            environment: ["TERM": "tmux-256color", "COLORTERM": "truecolor", "NO_COLOR": "", "HOME": home.path]
        )
        let shown = session.wait(forText: "DONE")
        XCTAssertTrue(shown.contains("terminal: GNU screen"), shown)
        XCTAssertTrue(shown.contains("colours: 256"), shown)
        XCTAssertGreaterThan(shown.filter(isBlockArt).count, 50, shown)
        let escapes = session.capture(escapes: true)
        XCTAssertTrue(escapes.contains("38;5;"), "256 colours reach tmux through screen")
        XCTAssertFalse(escapes.contains("\u{1B}[2m"), "nothing dim: no direct colour read as attributes")
    }
}

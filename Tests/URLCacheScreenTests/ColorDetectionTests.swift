import BlockArt
import URLCacheTestSupport
import XCTest

@testable import URLCacheScreen

/// `--colors auto` as a function of the environment and terminfo: the rule
/// `render` and the screen share.
final class ColorDetectionTests: XCTestCase {
    let terminfo = StandInTerminfo(entries: [
        "xterm": 8, "xterm-256color": 256, "xterm-direct": 1 << 24, "vt100": -1, "rxvt": 88,
        "screen-16color": 16,
    ])

    private func mode(_ environment: [String: String], requested: ColorMode? = nil) -> ColorMode {
        ColorDetection.mode(requested: requested, environment: environment, terminfo: terminfo)
    }

    func testTerminfoDecidesWithoutOtherEvidence() {
        XCTAssertEqual(mode(["TERM": "xterm"]), .ansi8)
        XCTAssertEqual(mode(["TERM": "screen-16color"]), .ansi16)
        XCTAssertEqual(mode(["TERM": "rxvt"]), .ansi16)
        XCTAssertEqual(mode(["TERM": "xterm-256color"]), .palette256)
        XCTAssertEqual(mode(["TERM": "xterm-direct"]), .truecolor)
        XCTAssertEqual(mode(["TERM": "vt100"]), ColorMode.none)
    }

    func testUnknownEntriesGuessFromTheirName() {
        XCTAssertEqual(mode(["TERM": "weird-256color"]), .palette256)
        XCTAssertEqual(mode(["TERM": "weird"]), .ansi16)
        XCTAssertEqual(mode(["TERM": "dumb"]), ColorMode.none)
        XCTAssertEqual(mode([:]), ColorMode.none)
    }

    func testColortermAndNoColor() {
        XCTAssertEqual(mode(["TERM": "xterm", "COLORTERM": "truecolor"]), .truecolor)
        XCTAssertEqual(mode(["TERM": "xterm", "COLORTERM": "24BIT"]), .truecolor)
        XCTAssertEqual(mode(["TERM": "xterm-256color", "COLORTERM": "truecolor", "NO_COLOR": "1"]), ColorMode.none)
        XCTAssertEqual(mode(["TERM": "xterm-256color", "NO_COLOR": ""]), .palette256, "an empty NO_COLOR is unset")
    }

    func testTheCommandLineWins() {
        XCTAssertEqual(mode(["TERM": "xterm", "NO_COLOR": "1"], requested: .palette256), .palette256)
        XCTAssertEqual(mode(["TERM": "xterm-direct"], requested: ColorMode.none), ColorMode.none)
    }

    func testCappedNeverGivesMoreThanTheTerminalHas() {
        XCTAssertEqual(ColorDetection.capped(.truecolor, at: .palette256), .palette256)
        XCTAssertEqual(ColorDetection.capped(.ansi16, at: .truecolor), .ansi16)
        XCTAssertEqual(ColorDetection.capped(.palette256, at: ColorMode.none), ColorMode.none)
    }

    func testWindowSizeAspect() {
        XCTAssertEqual(WindowSize(columns: 80, rows: 24, pixelWidth: 640, pixelHeight: 384).cellAspect, 0.5)
        XCTAssertNil(WindowSize(columns: 80, rows: 24).cellAspect)
    }
}

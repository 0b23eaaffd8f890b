import URLCacheSupport
import XCTest

/// The one rule for text from outside, wherever it is printed.
final class TerminalSafeTests: XCTestCase {
    func testControlsAndBidiOverridesBecomeReplacementCharacters() {
        XCTAssertEqual("a\u{1B}[2Jb".terminalSafe, "a\u{FFFD}[2Jb")
        XCTAssertEqual("\u{07}\u{7F}\u{9B}6n".terminalSafe, "\u{FFFD}\u{FFFD}\u{FFFD}6n")
        XCTAssertEqual("evil\u{202E}gnp.exe\u{2066}x\u{2069}".terminalSafe, "evil\u{FFFD}gnp.exe\u{FFFD}x\u{FFFD}")
        XCTAssertEqual("line\nbreak\r".terminalSafe, "line\u{FFFD}break\u{FFFD}")
    }

    func testTabsBecomeSpacesAndTextStays() {
        XCTAssertEqual("a\tb".terminalSafe, "a b")
        XCTAssertEqual("富士山の日の出 🌄 — Ångström".terminalSafe, "富士山の日の出 🌄 — Ångström")
    }
}

import URLCacheSupport
import XCTest

/// Text measured in display columns, as terminals draw it: what every
/// title, status line and box is laid out by.
final class DisplayWidthTests: XCTestCase {
    func testColumnsOfScalarsAndGraphemes() {
        XCTAssertEqual("abc".columns, 3)
        XCTAssertEqual("富士山".columns, 6)
        XCTAssertEqual("🌄".columns, 2)
        XCTAssertEqual("e\u{301}".columns, 1, "a combining accent takes no column")
        XCTAssertEqual("❤\u{FE0F}".columns, 2, "emoji presentation")
        XCTAssertEqual("한국어".columns, 6)
        XCTAssertEqual("ｆｕｌｌ".columns, 8, "fullwidth Latin")
        XCTAssertEqual("─│┌".columns, 3, "box drawing is narrow")
    }

    /// An emoji sequence is measured as terminals that do not join it draw
    /// it (xterm, urxvt, st, VTE, kitty without an emoji font, tmux): every
    /// emoji in it, so that it never covers the text after it.
    func testEmojiSequencesCountEveryEmoji() {
        XCTAssertEqual("👨\u{200D}👩\u{200D}👧".columns, 6, "a ZWJ family: three emoji")
        XCTAssertEqual("👍🏽".columns, 4, "a skin tone drawn beside its emoji")
        XCTAssertEqual("🇯🇵".columns, "🇯".columns * 2, "a flag: two regional indicators")
        XCTAssertEqual("❤\u{FE0F}".columns, 2)
        XCTAssertEqual("e\u{301}".columns, 1)
    }

    func testClippingNeverSplitsAWideCharacter() {
        XCTAssertEqual("富士山の日".clipped(toColumns: 6), "富士…")
        XCTAssertEqual("富士山の日".clipped(toColumns: 5), "富士…")
        XCTAssertEqual("富士山の日".prefix(columns: 5), "富士")
        XCTAssertEqual("富士".clipped(toColumns: 4), "富士")
        XCTAssertEqual("ab🌄cd".clipped(toColumns: 4), "ab…")
    }
}

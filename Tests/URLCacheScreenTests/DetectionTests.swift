import BlockArt
@testable import URLCacheScreen
import XCTest

/// `--format auto`, default colours and glyphs: the replies' parser and the
/// rules, as functions of their inputs.
final class DetectionTests: XCTestCase {
    let terminfo = StandInTerminfo(entries: ["xterm": 8, "xterm-256color": 256, "tmux-256color": 256, "foot": 256])

    private func decide(_ env: [String: String], _ replies: TerminalReplies? = nil, colors: ColorMode? = nil) -> Detection {
        PictureDetection.decide(environment: env, replies: replies, requestedColors: colors, terminfo: terminfo)
    }

    private let xtermSixel = Array("\u{1B}[?1;0;1024S\u{1B}[6;17;8t\u{1B}[4;510;800t\u{1B}[?63;1;2;4;6;9;15;22c".utf8)

    func testRepliesOfXtermInVT340Mode() {
        let r = TerminalReplies.parse(xtermSixel)
        XCTAssertTrue(r.complete)
        XCTAssertTrue(r.sixel)
        XCTAssertFalse(r.kittyGraphics)
        XCTAssertEqual(r.sixelRegisters, 1024)
        XCTAssertEqual(r.cellPixels?.width, 8)
        XCTAssertEqual(r.cellPixels?.height, 17)
        XCTAssertEqual(r.areaPixels?.width, 800)
    }

    func testKittyReplyAndTcapAreRead() {
        let bytes = Array("\u{1B}_Gi=31;OK\u{1B}\\\u{1B}P1+r524742=382F382F38\u{1B}\\\u{1B}[?62;c".utf8)
        let r = TerminalReplies.parse(bytes)
        XCTAssertTrue(r.kittyGraphics)
        XCTAssertEqual(r.capabilities["RGB"], "8/8/8")
        XCTAssertTrue(r.complete)
        // Someone else's image id, or an error, is not a yes.
        XCTAssertFalse(TerminalReplies.parse(Array("\u{1B}_Gi=5;OK\u{1B}\\\u{1B}[?62c".utf8)).kittyGraphics)
        XCTAssertFalse(TerminalReplies.parse(Array("\u{1B}_Gi=31;ENOTSUPPORTED:no\u{1B}\\\u{1B}[?62c".utf8)).kittyGraphics)
    }

    func testHalfAReplyIsNotAnAnswer() {
        // Cut short before DA1's final byte: incomplete, nothing invented.
        let r = TerminalReplies.parse(Array(xtermSixel.dropLast(3)))
        XCTAssertFalse(r.complete)
        XCTAssertEqual(decide(["TERM": "xterm"], r).format, .symbols)
        // An APC with no terminator yet.
        XCTAssertFalse(TerminalReplies.parse(Array("\u{1B}_Gi=31;O".utf8)).kittyGraphics)
    }

    func testLiesAndNoiseAreIgnored() {
        // Keys typed during the burst, a register count past any terminal's,
        // a cell a mile high, a DA1 of letters.
        let bytes = Array("q\u{1B}[?1;0;99999999S\u{1B}[6;90000;8tx\u{1B}[?6x;4c\u{1B}[?62;4c".utf8)
        let r = TerminalReplies.parse(bytes)
        XCTAssertNil(r.sixelRegisters)
        XCTAssertNil(r.cellPixels)
        XCTAssertEqual(r.deviceAttributes, [62, 4])
        XCTAssertEqual(decide(["TERM": "xterm"], r).registers, SixelEncoder.defaultRegisters)
    }

    func testEnvironmentDecidesWithoutAsking() {
        XCTAssertFalse(PictureDetection.needsQuery(environment: ["TERM": "xterm-kitty"]))
        let kitty = decide(["TERM": "xterm-kitty"])
        XCTAssertEqual([kitty.format.rawValue, kitty.colors.rawValue, kitty.symbols.rawValue], ["kitty", "truecolor", "sextants"])
        XCTAssertEqual(decide(["TERM": "xterm-256color", "TERM_PROGRAM": "WezTerm"]).format, .kitty)
        XCTAssertEqual(decide(["TERM": "xterm-256color", "TERM_PROGRAM": "iTerm.app"]).format, .iterm)
        XCTAssertEqual(decide(["TERM": "foot"]).format, .sixel)
        XCTAssertEqual(decide(["TERM": "xterm-256color", "KONSOLE_VERSION": "230805"]).format, .kitty)
        let vte = decide(["TERM": "xterm-256color", "VTE_VERSION": "7006"])
        XCTAssertEqual([vte.format.rawValue, vte.colors.rawValue, vte.symbols.rawValue], ["symbols", "truecolor", "quadrants"])
        XCTAssertTrue(PictureDetection.needsQuery(environment: ["TERM": "xterm", "XTERM_VERSION": "XTerm(379)"]))
    }

    func testInsideTmuxBlockArtWhateverLeaksIn() {
        // kitty's variables leak into a tmux started from kitty.
        let d = decide(["TERM": "tmux-256color", "TMUX": "/tmp/tmux-0/default,1,0", "KITTY_WINDOW_ID": "1"])
        XCTAssertEqual(d.format, .symbols)
        XCTAssertEqual(d.colors, .palette256)
        XCTAssertEqual(decide(["TERM": "tmux-256color", "TMUX": "x", "COLORTERM": "truecolor"]).colors, .truecolor)
        XCTAssertEqual(decide(["TERM": "screen", "STY": "1.pts"]).format, .symbols)
    }

    func testXtermGetsDirectColourAndItsFormatFromReplies() {
        let env = ["TERM": "xterm", "XTERM_VERSION": "XTerm(379)"]
        let sixel = decide(env, TerminalReplies.parse(xtermSixel))
        XCTAssertEqual([sixel.format.rawValue, sixel.colors.rawValue, sixel.symbols.rawValue], ["sixel", "truecolor", "quadrants"])
        XCTAssertEqual(sixel.registers, 1024)
        // A plain xterm: no 4 in DA1, still direct colour though terminfo says 8.
        let plain = decide(env, TerminalReplies.parse(Array("\u{1B}[?64;1;2;6;22c".utf8)))
        XCTAssertEqual([plain.format.rawValue, plain.colors.rawValue], ["symbols", "truecolor"])
        // An old xterm keeps terminfo's word.
        XCTAssertEqual(decide(["TERM": "xterm", "XTERM_VERSION": "XTerm(297)"], TerminalReplies.parse(Array("\u{1B}[?1;2c".utf8))).colors, .ansi8)
    }

    func testNoAnswerFallsBackToBlockArtAndTerminfo() {
        let d = decide(["TERM": "xterm-256color"], TerminalReplies())
        XCTAssertEqual(d.format, .symbols)
        XCTAssertEqual(d.colors, .palette256)
        XCTAssertTrue(d.reasons.joined().contains("deadline"))
        // An xterm that does not answer is still an xterm: direct colour.
        XCTAssertEqual(decide(["TERM": "xterm", "XTERM_VERSION": "XTerm(379)"], TerminalReplies()).colors, .truecolor)
    }

    func testColourOptionsStillDecide() {
        XCTAssertEqual(decide(["TERM": "xterm-kitty"], colors: .ansi16).colors, .ansi16)
        XCTAssertEqual(decide(["TERM": "xterm-kitty", "NO_COLOR": "1"]).colors, .none)
        XCTAssertEqual(decide(["TERM": "xterm-kitty", "NO_COLOR": "1"]).format, .kitty, "NO_COLOR is about colour in text, not pictures")
    }
}

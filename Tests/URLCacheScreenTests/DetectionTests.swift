import BlockArt
import URLCacheTestSupport
import XCTest

@testable import URLCacheScreen

/// `--format auto`, default colours and glyphs: the replies' parser and the
/// rules, as functions of their inputs.
final class DetectionTests: XCTestCase {
    let terminfo = StandInTerminfo(
        entries: [
            "xterm": 8, "xterm-256color": 256, "tmux-256color": 256, "foot": 256,
            "st-256color": 256, "rxvt-unicode-256color": 256,
        ],
        direct: ["xterm-kitty"]
    )

    private func decide(
        _ env: [String: String],
        _ replies: TerminalReplies? = nil,
        tmux: TmuxClient? = nil,
        colors: ColorMode? = nil
    ) -> Detection {
        PictureDetection.decide(
            environment: env,
            replies: replies,
            tmux: tmux,
            requestedColors: colors,
            terminfo: terminfo
        )
    }

    private func parse(_ text: String) -> TerminalReplies { TerminalReplies.parse(Array(text.utf8)) }

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
        XCTAssertFalse(
            TerminalReplies.parse(Array("\u{1B}_Gi=31;ENOTSUPPORTED:no\u{1B}\\\u{1B}[?62c".utf8)).kittyGraphics
        )
        // The shared-memory query (id 32): read is OK, anything else is not.
        let shared = TerminalReplies.parse(Array("\u{1B}_Gi=32;OK\u{1B}\\\u{1B}[?62;c".utf8))
        XCTAssertTrue(shared.kittySharedMemory)
        XCTAssertFalse(shared.kittyGraphics, "id 32 says nothing of id 31")
        XCTAssertFalse(
            TerminalReplies.parse(Array("\u{1B}_Gi=32;ENOENT:No such file\u{1B}\\\u{1B}[?62;c".utf8)).kittySharedMemory
        )
        XCTAssertFalse(TerminalReplies.parse(Array("\u{1B}_Gi=320;OK\u{1B}\\\u{1B}[?62;c".utf8)).kittySharedMemory)
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

    func testAStringOrCSIBrokenByAKeypressDoesNotHideTheRepliesAfterIt() {
        // Alt+P (ESC P) and Alt+[ typed just before the replies came.
        for typed in ["\u{1B}P", "\u{1B}_x", "\u{1B}[", "\u{1B}[12"] {
            let r = parse(typed + "\u{1B}P>|XTerm(379)\u{1B}\\\u{1B}[>41;379;0c\u{1B}[?64;22c")
            XCTAssertTrue(r.complete, typed)
            XCTAssertEqual(r.version, "XTerm(379)", typed)
            XCTAssertEqual(r.secondaryAttributes, [41, 379, 0], typed)
        }
    }

    func testEnvironmentDecidesWithoutAsking() {
        XCTAssertFalse(PictureDetection.needsQuery(environment: ["TERM": "xterm-kitty"]))
        let kitty = decide(["TERM": "xterm-kitty"])
        XCTAssertEqual(
            [kitty.format.rawValue, kitty.colors.rawValue, kitty.symbols.rawValue],
            ["kitty", "truecolor", "sextants"]
        )
        XCTAssertEqual(decide(["TERM": "xterm-256color", "TERM_PROGRAM": "WezTerm"]).format, .kitty)
        XCTAssertEqual(decide(["TERM": "xterm-256color", "TERM_PROGRAM": "iTerm.app"]).format, .iterm)
        XCTAssertEqual(decide(["TERM": "foot"]).format, .sixel)
        XCTAssertEqual(decide(["TERM": "xterm-256color", "KONSOLE_VERSION": "230805"]).format, .kitty)
        let vte = decide(["TERM": "xterm-256color", "VTE_VERSION": "7006"])
        XCTAssertEqual(
            [vte.format.rawValue, vte.colors.rawValue, vte.symbols.rawValue],
            ["symbols", "truecolor", "blocks"]
        )
        XCTAssertTrue(PictureDetection.needsQuery(environment: ["TERM": "xterm", "XTERM_VERSION": "XTerm(379)"]))
    }

    func testTheEnvironmentOfThe2026Terminals() {
        // iTerm2 over ssh: LC_TERMINAL goes where TERM_PROGRAM does not.
        XCTAssertEqual(decide(["TERM": "xterm-256color", "LC_TERMINAL": "iTerm2"]).format, .iterm)
        XCTAssertEqual(decide(["TERM": "contour"]).format, .sixel)
        // Asked, not named: Zellij over whatever leaked in, and VS Code over
        // the WT_SESSION it was started with.
        for env in [
            ["ZELLIJ": "0", "TERM": "xterm-kitty", "KITTY_WINDOW_ID": "1"],
            ["TERM_PROGRAM": "vscode", "WT_SESSION": "x", "TERM": "xterm-256color"],
        ] {
            XCTAssertTrue(PictureDetection.needsQuery(environment: env), "\(env)")
        }
        XCTAssertTrue(TerminalIdentity.claimsSixelRegardless("Zellij(4403)"))
        XCTAssertFalse(TerminalIdentity.claimsSixelRegardless("Zellij(4500)"))
        XCTAssertTrue(TerminalIdentity.kittyRefusesCompression("contour 0.7.0.8982"))
    }

    func testInsideTmuxBlockArtWhateverLeaksIn() {
        // kitty's variables leak into a tmux started from kitty.
        let d = decide(["TERM": "tmux-256color", "TMUX": "/tmp/tmux-0/default,1,0", "KITTY_WINDOW_ID": "1"])
        XCTAssertEqual(d.format, .symbols)
        XCTAssertEqual(d.colors, .palette256)
        XCTAssertEqual(decide(["TERM": "tmux-256color", "TMUX": "x", "COLORTERM": "truecolor"]).colors, .truecolor)
        XCTAssertEqual(decide(["TERM": "screen", "STY": "1.pts"]).format, .symbols)
    }

    /// GNU screen reads direct colour as attributes (4.9) or drops it (5.0
    /// unless told): 256 colours there, whatever COLORTERM leaked in.
    func testInsideGNUScreen256ColoursWhateverLeaksIn() {
        let env = ["TERM": "screen", "STY": "1.pts-0.host", "COLORTERM": "truecolor"]
        XCTAssertEqual(decide(env).terminal, "GNU screen")
        XCTAssertEqual(decide(env).colors, .palette256)
        XCTAssertEqual(decide(env, colors: .truecolor).colors, .truecolor, "--colors still decides")
    }

    /// tmux's pane is said with no client attached too; a program on
    /// another tty (inside screen started in tmux) drops what tmux set.
    func testTmuxSaysItsPaneAndWhatItSetCanBeDropped() throws {
        XCTAssertEqual(TmuxClient.paneTTY("256,RGB|XTerm(379)|xterm|/dev/pts/3\n"), "/dev/pts/3")
        XCTAssertEqual(TmuxClient.paneTTY("|||/dev/pts/4"), "/dev/pts/4")
        XCTAssertNil(TmuxClient.parse("|||/dev/pts/4"), "no client attached")
        XCTAssertNil(TmuxClient.paneTTY("256,RGB|XTerm(379)|xterm"))
        XCTAssertEqual(try XCTUnwrap(TmuxClient.parse("RGB|XTerm(379)|xterm|/dev/pts/3")).termName, "xterm")
        let leaked = [
            "TERM": "screen", "STY": "1.pts", "TMUX": "/tmp/tmux-0/default,1,0", "TMUX_PANE": "%0",
            "TERM_PROGRAM": "tmux", "TERM_PROGRAM_VERSION": "3.3a",
        ]
        XCTAssertEqual(decide(leaked).terminal, "tmux", "the environment alone says tmux")
        let dropped = TmuxClient.withoutTmux(leaked)
        XCTAssertEqual(dropped, ["TERM": "screen", "STY": "1.pts"])
        XCTAssertEqual(decide(dropped).terminal, "GNU screen")
    }

    func testXtermGetsDirectColourAndItsFormatFromReplies() {
        let env = ["TERM": "xterm", "XTERM_VERSION": "XTerm(379)"]
        let sixel = decide(env, TerminalReplies.parse(xtermSixel))
        XCTAssertEqual(
            [sixel.format.rawValue, sixel.colors.rawValue, sixel.symbols.rawValue],
            ["sixel", "truecolor", "blocks"]
        )
        XCTAssertEqual(sixel.registers, 1024)
        // A plain xterm: no 4 in DA1, still direct colour though terminfo says 8.
        let plain = decide(env, TerminalReplies.parse(Array("\u{1B}[?64;1;2;6;22c".utf8)))
        XCTAssertEqual([plain.format.rawValue, plain.colors.rawValue], ["symbols", "truecolor"])
        // An old xterm keeps terminfo's word.
        XCTAssertEqual(
            decide(["TERM": "xterm", "XTERM_VERSION": "XTerm(297)"], TerminalReplies.parse(Array("\u{1B}[?1;2c".utf8)))
                .colors,
            .ansi8
        )
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
        XCTAssertEqual(
            decide(["TERM": "xterm-kitty", "NO_COLOR": "1"]).format,
            .kitty,
            "NO_COLOR is about colour in text, not pictures"
        )
    }

    // What the terminals Debian packages answered to the bursts, as seen
    // under Xvfb (the answers to the CSI burst, then to the strings).

    func testTheFirstBurstHoldsOnlyCSIQueries() {
        // An ESC followed by anything but [ would open a string (DCS, APC),
        // which rxvt-unicode, qterminal and zutty print as text.
        for burst in [TerminalQuery.identify, TerminalQuery.sixelTerminal] {
            let escapes = burst.indices.dropLast().filter { burst[$0] == 0x1B }
            XCTAssertFalse(escapes.isEmpty)
            XCTAssertTrue(escapes.allSatisfy { burst[$0 + 1] == UInt8(ascii: "[") })
        }
        XCTAssertTrue(TerminalQuery.strings(sixel: false).contains(UInt8(ascii: "_")), "the kitty query goes second")
        XCTAssertFalse(String(decoding: TerminalQuery.strings(sixel: false), as: UTF8.self).contains("?1;1;0S"))
        XCTAssertTrue(String(decoding: TerminalQuery.strings(sixel: true), as: UTF8.self).contains("?1;1;0S"))
    }

    func testTerminalsThatPrintStringsAreNeverSentThem() {
        let urxvt = parse("\u{1B}[>85;95;0c\u{1B}[4;394;616t\u{1B}[?1;2c")
        let qterminal = parse("\u{1B}[>0;115;0c\u{1B}[?1;2c")
        let zutty = parse("\u{1B}[>64;0;0c\u{1B}[?64;1;9;15;21;22c")
        for replies in [urxvt, qterminal, zutty] {
            XCTAssertTrue(replies.complete)
            XCTAssertFalse(TerminalIdentity.answered(replies).parsesStrings)
        }
        XCTAssertEqual(decide(["TERM": "rxvt-unicode-256color"], urxvt).colors, .palette256)
        // zutty draws direct colour, and its fixed answers say it is zutty.
        let z = decide(["TERM": "xterm-256color"], zutty)
        XCTAssertEqual([z.format.rawValue, z.colors.rawValue], ["symbols", "truecolor"])
        XCTAssertTrue(z.terminal.hasPrefix("zutty"))
    }

    func testTerminalsThatParseStringsAreAskedAgain() {
        let xterm = parse("\u{1B}P>|XTerm(379)\u{1B}\\\u{1B}[>41;379;0c\u{1B}[?64;1;2;6;9;15;16;17;18;21;22;28c")
        XCTAssertEqual(xterm.version, "XTerm(379)")
        XCTAssertEqual(xterm.secondaryAttributes, [41, 379, 0])
        XCTAssertEqual(
            TerminalIdentity.answered(xterm),
            .init(name: "XTerm(379)", parsesStrings: true, truecolor: true)
        )
        XCTAssertFalse(TerminalIdentity.answered(parse("\u{1B}P>|XTerm(297)\u{1B}\\\u{1B}[?1;2c")).truecolor)
        // VTE over ssh, without VTE_VERSION; mlterm, which answers no XTVERSION but has sixel.
        let vte = TerminalIdentity.answered(parse("\u{1B}[>65;7006;1c\u{1B}[?65;1;9c"))
        XCTAssertTrue(vte.parsesStrings && vte.truecolor)
        XCTAssertTrue(
            TerminalIdentity.answered(parse("\u{1B}[>24;279;0c\u{1B}[?63;1;2;3;4;6;7;15;18;22;29c")).parsesStrings
        )
        // Nothing answered but DA1 (st, the Linux console): nothing more sent.
        XCTAssertFalse(TerminalIdentity.answered(parse("\u{1B}[?6c")).parsesStrings)
    }

    func testDECRQSSProvesDirectColour() {
        // kitty over ssh: nothing in the environment, its answers say it all.
        let kitty = parse(
            "\u{1B}P>|kitty(0.26.5)\u{1B}\\\u{1B}[>1;4000;26c\u{1B}[?62;c"
                + "\u{1B}_Gi=31;OK\u{1B}\\\u{1B}P1$r38:2:1:2:3m\u{1B}\\\u{1B}P0+r524742\u{1B}\\\u{1B}[?62;c"
        )
        let d = decide(["TERM": "xterm-256color"], kitty)
        XCTAssertEqual([d.format.rawValue, d.colors.rawValue, d.terminal], ["kitty", "truecolor", "kitty(0.26.5)"])
        XCTAssertEqual(kitty.rendition, "38:2:1:2:3")
        // An unknown terminal that kept the colour, one that mapped it to
        // its palette (mlterm), and one that refused the request (VTE).
        XCTAssertEqual(
            decide(["TERM": "xterm-256color"], parse("\u{1B}P1$r0;38:2::1:2:3m\u{1B}\\\u{1B}[?64;4c")).colors,
            .truecolor
        )
        XCTAssertEqual(
            decide(["TERM": "xterm-256color"], parse("\u{1B}P1$r0;38;5;16m\u{1B}\\\u{1B}[?64;4c")).colors,
            .palette256
        )
        XCTAssertNil(parse("\u{1B}P0$r\u{1B}\\\u{1B}[?65;1;9c").rendition)
        XCTAssertNil(
            parse("\u{1B}P1$r0;\u{7}x38;2;1;2;3m\u{1B}\\").rendition,
            "only digits and separators are a rendition"
        )
    }

    func testInsideTmuxTmuxSaysWhatItPassesOn() throws {
        let env = ["TERM": "tmux-256color", "TMUX": "/tmp/tmux-0/default,1,0"]
        // In xterm: tmux found the RGB feature from xterm's XTVERSION.
        let xterm = try XCTUnwrap(TmuxClient.parse("256,RGB,bpaste,title|XTerm(379)|xterm\n"))
        XCTAssertEqual(xterm.termType, "XTerm(379)")
        XCTAssertEqual(decide(env, tmux: xterm).colors, .truecolor)
        // In kitty: no RGB feature, but kitty's terminfo sets direct colours.
        let kitty = try XCTUnwrap(TmuxClient.parse("bpaste,ccolour,focus,title|kitty(0.26.5)|xterm-kitty"))
        XCTAssertEqual(decide(env, tmux: kitty).colors, .truecolor)
        // In st, with a COLORTERM leaked in: tmux maps to 256, so we do.
        let st = try XCTUnwrap(TmuxClient.parse("bpaste,focus,title||st-256color"))
        XCTAssertEqual(decide(env.merging(["COLORTERM": "truecolor"]) { $1 }, tmux: st).colors, .palette256)
        XCTAssertEqual(decide(env, tmux: st, colors: .truecolor).colors, .truecolor, "--colors still decides")
        XCTAssertTrue(decide(env, tmux: xterm).reasons.joined().contains("XTerm(379)"))
        // A tmux older than 3.2 leaves the variables empty.
        XCTAssertNil(TmuxClient.parse("||"))
        XCTAssertNil(TmuxClient.parse("nothing like it"))
    }

    /// Pixels inside tmux: kitty's placeholders where the terminal outside
    /// draws them (kitty 0.28 and later, Ghostty), sixel where tmux draws it
    /// itself, block art otherwise; a format named on the command line goes
    /// through the passthrough when nothing better holds.
    func testInsideTmuxPixelsWhereTheTerminalOutsideDrawsThem() throws {
        let env = ["TERM": "tmux-256color", "TMUX": "/tmp/tmux-0/default,1,0"]
        let kitty35 = try XCTUnwrap(
            TmuxClient.parse("bpaste,ccolour,clipboard,cstyle,focus,title|kitty(0.35.2)|xterm-kitty")
        )
        let d = decide(env, tmux: kitty35)
        XCTAssertEqual(d.format, .kitty)
        XCTAssertEqual(d.route(for: .kitty), .placeholders)
        XCTAssertEqual(d.route(for: .sixel), .passthrough)
        XCTAssertEqual(d.route(for: .symbols), .direct)
        XCTAssertTrue(d.reasons.joined().contains("placeholders"))
        let ghostty = try XCTUnwrap(TmuxClient.parse("RGB,title|ghostty 1.1.3|xterm-ghostty"))
        XCTAssertEqual(decide(env, tmux: ghostty).format, .kitty)
        // Debian's kitty 0.26 has no placeholders: block art, as before.
        let kitty26 = try XCTUnwrap(TmuxClient.parse("bpaste,title|kitty(0.26.5)|xterm-kitty"))
        XCTAssertEqual(decide(env, tmux: kitty26).format, .symbols)
        XCTAssertEqual(decide(env, tmux: kitty26).route(for: .kitty), .passthrough)
        XCTAssertEqual(
            decide(env, tmux: try XCTUnwrap(TmuxClient.parse("title|kitty(0.27.1)|xterm-kitty"))).format,
            .symbols
        )
        // tmux 3.4 in a sixel terminal: it draws sixel if built with it,
        // which its own DA1 says (4); the client feature alone does not.
        let sixel = try XCTUnwrap(TmuxClient.parse("256,RGB,sixel,title|XTerm(390)|xterm"))
        let built = TerminalReplies.parse(Array("\u{1B}[?1;2;4c".utf8))
        XCTAssertEqual(decide(env, built, tmux: sixel).format, .sixel)
        XCTAssertEqual(decide(env, built, tmux: sixel).route(for: .sixel), .direct)
        let without = TerminalReplies.parse(Array("\u{1B}[?1;2c".utf8))
        XCTAssertEqual(decide(env, without, tmux: sixel).format, .symbols)
        XCTAssertEqual(decide(env, without, tmux: sixel).route(for: .sixel), .passthrough)
        // tmux did not answer: block art, and a named format is passed through.
        XCTAssertEqual(decide(env).format, .symbols)
        XCTAssertEqual(decide(env).route(for: .kitty), .passthrough)
        // Outside tmux every format goes straight.
        XCTAssertEqual(decide(["TERM": "xterm-kitty"]).route(for: .kitty), .direct)
    }

    /// kitty 0.28 brought the placeholders; a version tmux heard cut short
    /// is not taken for one.
    func testPlaceholderVersions() {
        for (type, name, draws) in [
            ("kitty(0.28)", "xterm-kitty", true), ("kitty(0.27.9)", "xterm-kitty", false),
            ("kitty(1.0.0)", "xterm-kitty", true), ("kitty(0)", "xterm-kitty", false),
            ("", "xterm-kitty", false), ("", "xterm-ghostty", true), ("WezTerm 2024", "xterm-256color", false),
        ] {
            XCTAssertEqual(TerminalIdentity.drawsPlaceholders(termType: type, termName: name), draws, "\(type) \(name)")
        }
    }

    /// tmux's answer about allow-passthrough: the pane's own value, then the
    /// one in force, as 3.3 prints a flag (1/0) and 3.4 a choice (on/all/off).
    func testPassthroughAnswer() {
        XCTAssertEqual(PassthroughSwitch.parse("in force:0\n").own, "")
        XCTAssertEqual(PassthroughSwitch.parse("off\nin force:0\n").own, "off")
        XCTAssertEqual(PassthroughSwitch.parse("off\nin force:0\n").inForce, "0")
        for value in ["1", "on", "all"] { XCTAssertTrue(PassthroughSwitch.passesThrough(value), value) }
        for value in ["0", "off", ""] { XCTAssertFalse(PassthroughSwitch.passesThrough(value), value) }
    }

    func testStAndAlacrittyAreKnownByTERM() {
        XCTAssertEqual(decide(["TERM": "st-256color"]).colors, .truecolor)
        XCTAssertEqual(decide(["TERM": "alacritty"]).colors, .truecolor)
        XCTAssertFalse(PictureDetection.needsQuery(environment: ["TERM": "st-256color"]))
    }
}

import Foundation
import URLCacheHarness
import URLCacheTestSupport
import XCTest

/// `render` with no flags in the terminals Debian packages, as a person
/// sees it: a screenshot under Xvfb, the PSNR of the picture, and nothing
/// else on screen. Each terminal is installed by `Scripts/install-deps --tests`.
final class TerminalPictureTests: XCTestCase {
    var home: TemporaryDirectory!
    let photo = Fixtures.images.appendingPathComponent("photo.jpg").path

    override func setUpWithError() throws { home = try TemporaryDirectory() }
    override func tearDown() { home = nil }

    /// The program of each terminal termshot names otherwise.
    private static let executables = ["xterm-sixel": "xterm"]

    /// `command` run in `terminal` with nothing of ours in its environment.
    private func picture(
        _ terminal: String,
        _ command: [String],
        rows: String? = nil,
        wait: Int = 6
    ) throws -> Termshot.Measure {
        let program = TerminalPictureTests.executables[terminal] ?? terminal
        XCTAssertTrue(
            FileManager.default.isExecutableFile(atPath: "/usr/bin/\(program)"),
            "\(program) is missing: Scripts/install-deps --tests installs it"
        )
        let black = ["st", "qterminal", "sakura"].contains(terminal)
        let shot = try Termshot.shot(terminal, Termshot.clean + command, in: home, wait: wait)
        return try Termshot.measure(shot, against: photo, rows: rows, blackBackground: black)
    }

    private var render: [String] { [Paths.binary.path, "render", "--size", "60x20", photo] }

    /// rxvt-unicode, qterminal and zutty print an APC (and qterminal a DCS)
    /// as text: the queries sent there are CSI only, so nothing but the
    /// picture is on screen. (Sent the old way, the kitty query's text
    /// pushed the first row 2,700 pixels into the band beside the picture.)
    func testTerminalsThatPrintStringsShowOnlyThePicture() throws {
        for terminal in ["urxvt", "qterminal", "zutty"] {
            let m = try picture(terminal, render)
            XCTAssertEqual(m.stray, 0, "\(terminal): something beside the picture")
            XCTAssertGreaterThan(m.db, 22, "\(terminal): the picture whole, its first row in place")
        }
    }

    /// zutty and st draw direct colour with a 256-colour TERM: zutty is told
    /// by its answers, st by its TERM (it answers DA1 alone). 256 colours
    /// gave 19.6–23.6 dB there.
    func testDirectColourWhereTERMSays256() throws {
        for terminal in ["zutty", "st"] {
            XCTAssertGreaterThan(try picture(terminal, render).db, 30, terminal)
        }
    }

    /// A VTE terminal (sakura), with VTE_VERSION unset as over ssh: known by
    /// its DA2 (65), asked again with strings, which it parses; direct
    /// colour, and no stray text.
    func testVTE() throws {
        let m = try picture("sakura", render)
        XCTAssertEqual(m.stray, 0)
        XCTAssertGreaterThan(m.db, 30)
    }

    /// mlterm, known by its TERM, is still asked for its sixel registers:
    /// 1024 there gives 44.8 dB where the assumed 256 gave 40.8.
    func testMltermIsAskedForItsRegisters() throws {
        XCTAssertGreaterThan(try picture("mlterm", render).db, 43)
    }

    /// `render` inside tmux 3.3a (its defaults) inside `terminal`.
    private func pictureInTmux(_ terminal: String, rows: String, wait: Int) throws -> Termshot.Measure {
        let socket = "urlcache-test-\(UUID().uuidString.prefix(8))"
        defer { _ = try? runProgram(URL(fileURLWithPath: "/usr/bin/tmux"), ["-L", socket, "kill-server"]) }
        let inner = (render.map { "'\($0)'" }).joined(separator: " ") + "; sleep 30"
        return try picture(
            terminal,
            ["tmux", "-L", socket, "-f", "/dev/null", "new-session", "\"\(inner)\""],
            rows: rows,
            wait: wait
        )
    }

    /// tmux inside xterm -ti vt340: TERM is tmux-256color with no COLORTERM,
    /// but tmux says its client has RGB: direct colour, as the picture shows.
    func testTmuxInXtermPassesDirectColour() throws {
        let m = try pictureInTmux("xterm-sixel", rows: "0:480", wait: 8)
        XCTAssertGreaterThan(m.db, 30, "256 colours give about 23 dB")
        XCTAssertEqual(m.stray, 0)
    }

    /// tmux inside kitty: no RGB feature, but kitty's terminfo sets direct
    /// colours, and tmux passes them on.
    func testTmuxInKittyPassesDirectColour() throws {
        let m = try pictureInTmux("kitty", rows: "0:600", wait: 9)
        if m.width == 0 {
            throw XCTSkip("kitty opened no window here (it needs OpenGL 3.3: Mesa's llvmpipe under Xvfb)")
        }
        XCTAssertGreaterThan(m.db, 30, "256 colours give about 23 dB")
        // kitty 0.26 has no placeholders: block art, and nothing beside it.
        XCTAssertEqual(m.stray, 0)
    }
}

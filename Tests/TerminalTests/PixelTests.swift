import Foundation
import URLCacheHarness
import URLCacheTestSupport
import XCTest

/// Pixels as a person sees them: the real binary in a real xterm (`-ti
/// vt340`: sixel) or kitty under Xvfb, screenshots, and the PSNR of the
/// picture on them against the source area-averaged in linear light to the
/// same box (Tests/Tools/termshot.py).
final class PixelTests: XCTestCase {
    var home: TemporaryDirectory!
    let photo = Fixtures.images.appendingPathComponent("photo.jpg").path
    let tall = Fixtures.images.appendingPathComponent("tall.jpg").path

    override func setUpWithError() throws { home = try TemporaryDirectory() }
    override func tearDown() { home = nil }

    private func shot(_ terminal: String, _ command: [String], keys: String = "", wait: Int = 4) throws -> String {
        try Termshot.shot(terminal, command, in: home, keys: keys, wait: wait)
    }

    private func measure(_ shot: String, against source: String, rows: String? = nil) throws -> Termshot.Measure {
        try Termshot.measure(shot, against: source, rows: rows)
    }

    private var clean: [String] { Termshot.clean }

    func testSixelInXtermVT340() throws {
        let m = try measure(
            shot("xterm-sixel", clean + [Paths.binary.path, "render", "--format", "sixel", "--size", "60x20", photo]),
            against: photo
        )
        // 60×20 cells of 8×17 pixels: the width decides, 480×320.
        XCTAssertEqual(m.width, 480, accuracy: 2)
        XCTAssertEqual(m.height, 320, accuracy: 2)
        XCTAssertGreaterThan(m.db, 30, "block art gives ~22 dB here; sixel at the exact size far more")
    }

    func testAutoPicksKittyInKitty() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/kitty") else {
            throw XCTSkip("kitty is not installed")
        }
        let out = try shot("kitty", clean + [Paths.binary.path, "render", "--size", "60x20", photo], wait: 7)
        let m = try measure(out, against: photo)
        if m.width == 0 {
            throw XCTSkip("kitty opened no window here (it needs OpenGL 3.3: Mesa's llvmpipe under Xvfb)")
        }
        XCTAssertEqual(m.width, 480, accuracy: 2)
        XCTAssertGreaterThan(m.db, 50, "the exact pixels, never rescaled by the terminal")
    }

    func testScreenChoosesSixelByItselfAndTheNextImageLeavesNothingOfTheFirst() throws {
        let nginx = try Nginx()
        defer { nginx.stop() }
        try copyFixture("photo.jpg", to: nginx.root)
        try copyFixture("tall.jpg", to: nginx.root)
        let list = try writeList([nginx.url("/photo.jpg"), nginx.url("/tall.jpg")], in: home)
        let screen =
            clean + ["NO_PROXY=127.0.0.1", Paths.binary.path, "--config", list, "--cache-dir", home.file("cache")]
        // xterm's 100×30 cells of 8×17 with a 2-pixel border: the image
        // area is rows 1–24.
        let area = "19:427"
        let first = try measure(shot("xterm-sixel", screen), against: photo, rows: area)
        XCTAssertGreaterThan(first.db, 30, "the screen showed the photo in pixels")
        XCTAssertGreaterThan(first.width, 500)
        let next = try measure(shot("xterm-sixel", screen, keys: "Right"), against: tall, rows: area)
        XCTAssertGreaterThan(next.db, 30, "the tall image in pixels")
        // Any of the wide photo left beside the tall one would widen the box.
        XCTAssertLessThan(next.width, first.width * 2 / 3)
    }

    func testHelpBoxHidesThePicture() throws {
        let nginx = try Nginx()
        defer { nginx.stop() }
        try copyFixture("photo.jpg", to: nginx.root)
        let list = try writeList([nginx.url("/photo.jpg")], in: home)
        let screen =
            clean + ["NO_PROXY=127.0.0.1", Paths.binary.path, "--config", list, "--cache-dir", home.file("cache")]
        // The picture was up first: a box that hid nothing would pass too.
        let shown = try measure(shot("xterm-sixel", screen, keys: ""), against: photo, rows: "19:427")
        XCTAssertGreaterThan(shown.db, 25, "the photo in pixels before the box")
        let m = try measure(shot("xterm-sixel", screen, keys: "question"), against: photo, rows: "19:427")
        XCTAssertLessThan(m.db, 15, "no picture while the box is open")
    }

    func testFSwitchesToBlockArtWithNothingOfThePictureLeft() throws {
        let nginx = try Nginx()
        defer { nginx.stop() }
        try copyFixture("photo.jpg", to: nginx.root)
        let list = try writeList([nginx.url("/photo.jpg")], in: home)
        let screen =
            clean + ["NO_PROXY=127.0.0.1", Paths.binary.path, "--config", list, "--cache-dir", home.file("cache")]
        let art = try measure(shot("xterm-sixel", screen, keys: "f"), against: photo, rows: "19:427")
        // Block art of this photo measures ~31 dB in this xterm, the sixel ~45:
        // a sixel left under the art would keep it above 40.
        XCTAssertGreaterThan(art.db, 24)
        XCTAssertLessThan(art.db, 38)
    }

    func testPlainXtermDefaultIsAtLeastTimgs() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/timg") else {
            throw XCTSkip("timg is not installed")
        }
        let ours = try measure(
            shot("xterm", clean + ["TERM=xterm", Paths.binary.path, "render", "--size", "60x20", photo]),
            against: photo
        )
        let timg = try measure(shot("xterm", clean + ["TERM=xterm", "timg", "-g60x20", photo]), against: photo)
        XCTAssertGreaterThan(ours.db, 20)
        XCTAssertGreaterThanOrEqual(ours.db, timg.db, "timg's default (quarter blocks) in a plain xterm")
    }

    func testATerminalThatNeverAnswersCostsOnlyTheDeadline() throws {
        // script(1) gives the probe a pty of its own, and nobody answers on it.
        let command =
            "env -u TMUX -u KITTY_WINDOW_ID -u TERM_PROGRAM -u VTE_VERSION TERM=xterm \(Paths.binary.path) probe"
        let result = try runProgram(
            URL(fileURLWithPath: "/usr/bin/script"),
            ["-qec", command, "/dev/null"],
            guardSeconds: 30
        )
        XCTAssertTrue(result.stdout.contains("no answer to DA1 before the deadline"), result.stdout)
        XCTAssertTrue(result.stdout.contains("format: symbols"), result.stdout)
        let ms = result.stdout.range(of: "reply time: ").flatMap {
            Double(result.stdout[$0.upperBound...].prefix { $0.isNumber || $0 == "." })
        }
        XCTAssertNotNil(ms, result.stdout)
        XCTAssertLessThan(ms ?? 9999, 1000, "a silent terminal costs the deadline, not more")
    }
}

/// Terminals that misbehave, played by Tests/Tools/fake-terminal.py on a pty
/// of its own: it answers the query burst as told and records every byte.
final class MisbehavingTerminalTests: XCTestCase {
    static let tool = Fixtures.packageRoot.appendingPathComponent("Tests/Tools/fake-terminal.py").path
    let photo = Fixtures.images.appendingPathComponent("photo.jpg").path

    private func run(
        _ mode: String,
        keys: String = "-",
        pixels: String = "800x480",
        cells: String = "100x30",
        _ command: [String]
    ) throws -> String {
        let result = try runProgram(
            URL(fileURLWithPath: "/usr/bin/python3"),
            [
                MisbehavingTerminalTests.tool, mode, keys, "--", "env", "-u", "TMUX", "-u", "KITTY_WINDOW_ID",
                "-u", "TERM_PROGRAM", "-u", "VTE_VERSION", "-u", "COLORTERM", "-u", "NO_COLOR",
            ] + command,
            environment: ["FAKE_PIXELS": pixels, "FAKE_CELLS": cells],
            guardSeconds: 60
        )
        XCTAssertTrue(result.stderr.contains("exit 0"), result.stderr)
        return String(decoding: Array(result.stdout.utf8), as: UTF8.self)
    }

    func testLiesHalvesSilenceAndLateAnswersGetBlockArtAndShowNoReply() throws {
        for mode in ["silent", "half", "lie", "late"] {
            let out = try run(
                mode,
                ["TERM=xterm", "XTERM_VERSION=XTerm(379)", Paths.binary.path, "render", "--size", "20x5", photo]
            )
            XCTAssertFalse(out.contains("\u{1B}P0;1;0q"), "\(mode): no sixel")
            XCTAssertFalse(out.contains("\u{1B}_Ga=T"), "\(mode): no kitty picture")
            XCTAssertTrue(out.contains("\u{1B}[38;2;"), "\(mode): truecolour block art")
            // Echo was off while the replies came: none of them is on the screen.
            XCTAssertFalse(
                out.contains("1;0;256S") || out.contains("i=7;OK") || out.contains("6;90000"),
                "\(mode): a reply was echoed"
            )
        }
    }

    func testASixelTerminalGetsSixelWithItsRegisters() throws {
        let out = try run("sixel", ["TERM=xterm", Paths.binary.path, "render", "--size", "20x5", photo])
        XCTAssertTrue(out.contains("\u{1B}P0;1;0q\"1;1;"), String(out.suffix(200)))
        // Its first answers showed that it parses strings: asked again, with them.
        XCTAssertTrue(out.contains("\u{1B}_Gi=31,") && out.contains("\u{1B}P$qm"), "the second burst")
    }

    /// A window still opening has no size yet (qterminal starts its shell
    /// before it lays itself out): it is a terminal all the same, asked what
    /// it shows, and the picture takes the size asked for.
    func testATerminalWithNoSizeYetIsStillAsked() throws {
        let out = try run(
            "sixel",
            pixels: "0x0",
            cells: "0x0",
            ["TERM=xterm", Paths.binary.path, "render", "--size", "20x5", photo]
        )
        XCTAssertTrue(out.contains("\u{1B}[>0q"), "asked")
        XCTAssertTrue(out.contains("\u{1B}P0;1;0q\"1;1;"), String(out.suffix(200)))
    }

    func testATerminalThatAnswersNoXTVERSIONIsSentNoString() throws {
        // As rxvt-unicode: DA2 and DA1 only. An APC would be printed as text.
        let out = try run(
            "urxvt",
            ["TERM=rxvt-unicode-256color", Paths.binary.path, "render", "--size", "20x5", photo]
        )
        XCTAssertTrue(out.contains("\u{1B}[>0q\u{1B}[>c"), "asked with CSI queries")
        XCTAssertFalse(out.contains("\u{1B}_") || out.contains("\u{1B}P"), "no APC or DCS sent")
        XCTAssertTrue(out.contains("\u{1B}[38;5;"), "block art in 256 colours, as its terminfo says")
    }

    /// The screen in kitty (by its TERM), against nginx, with `keys`.
    private func kittyScreen(keys: String) throws -> String {
        let nginx = try Nginx()
        defer { nginx.stop() }
        try copyFixture("photo.jpg", to: nginx.root)
        let home = try TemporaryDirectory()
        let list = try writeList([nginx.url("/photo.jpg")], in: home)
        return try run(
            "-",
            keys: keys,
            [
                "TERM=xterm-kitty", "NO_PROXY=127.0.0.1", "HOME=\(home.path)", Paths.binary.path,
                "--config", list, "--cache-dir", home.file("cache"),
            ]
        )
    }

    /// The kitty pictures sent, in order: their id and size.
    private func transmits(_ out: String) -> [(id: String, size: String)] {
        out.components(separatedBy: "\u{1B}_Ga=T,f=24,").dropFirst().map { rest in
            let keys = rest.prefix { $0 != ";" }.split(separator: ",")
            let value = { (k: String) in keys.first { $0.hasPrefix(k) }.map(String.init) ?? "?" }
            return (value("i="), value("s=") + "," + value("v="))
        }
    }

    func testAResizeSendsThePictureAgainAtTheNewSizeAndDeletesTheOld() throws {
        let out = try kittyScreen(keys: "RESIZE,q")
        let sent = transmits(out)
        // At once re-scaled from the pixels in memory; then, as the window
        // grew past what was decoded, once more from the file, sharper.
        XCTAssertGreaterThanOrEqual(sent.count, 2, "sent again after the resize")
        guard sent.count >= 2, let last = sent.last else { return }
        XCTAssertEqual(sent[0].size, "s=576,v=384", "100x30 cells of 8x16, less the text rows")
        XCTAssertNotEqual(last.size, sent[0].size, "re-scaled to the new box")
        // No ghost: a new picture goes up only once every other one is
        // deleted. (The same picture may be sent again under its own id, as
        // after a repaint: kitty replaces an image sent with the id it has.)
        var live: Set<String> = []
        for event in kittyEvents(out) {
            switch event {
            case let .transmit(id):
                XCTAssertTrue(live.subtracting([id]).isEmpty, "\(id) sent while \(live) still shown")
                live = [id]
            case let .delete(id):
                live.remove(id)
            }
        }
        XCTAssertTrue(live.isEmpty, "every picture deleted by the exit")
    }

    enum KittyEvent {
        case transmit(String)
        case delete(String)
    }

    /// The kitty pictures sent and deleted, in order, by id ("i=3").
    private func kittyEvents(_ out: String) -> [KittyEvent] {
        var events: [KittyEvent] = []
        for piece in out.components(separatedBy: "\u{1B}_Ga=").dropFirst() {
            let keys = piece.prefix { $0 != ";" && $0 != "\u{1B}" }.split(separator: ",").map(String.init)
            guard let id = keys.first(where: { $0.hasPrefix("i=") }) else { continue }
            if keys.first == "T" {
                events.append(.transmit(id))
            } else if keys.first == "d" {
                events.append(.delete(id))
            }
        }
        return events
    }

    func testClearCacheTakesThePictureAway() throws {
        let out = try kittyScreen(keys: "c,y,q")
        let sent = transmits(out)
        XCTAssertEqual(sent.count, 1)
        let asked = try XCTUnwrap(out.range(of: "Do you really want"))
        // The question's box hid it; after "y" it is not sent again.
        XCTAssertTrue(
            out[asked.upperBound...].contains("\u{1B}_Ga=d,d=I,\(sent.first?.id ?? "?"),q=2")
                || out[..<asked.lowerBound].contains("\u{1B}_Ga=d,d=I,"),
            "deleted"
        )
        XCTAssertFalse(out[asked.upperBound...].contains("\u{1B}_Ga=T"), "no picture after the cache is cleared")
    }

    /// The question's box takes the picture away by its id, and Cancel
    /// sends it again: what `testClearCacheTakesThePictureAway` cannot
    /// tell apart from the delete after "y" or at the end.
    func testClearCachesQuestionHidesThePictureUntilCancelled() throws {
        let out = try kittyScreen(keys: "c,n,q")
        let asked = try XCTUnwrap(out.range(of: "Do you really want"))
        let id = try XCTUnwrap(transmits(out).first?.id)
        let delete = "\u{1B}_Ga=d,d=I,\(id),q=2"
        // Taken away as the box opens: the delete goes out before ncurses
        // draws the box.
        let first = try XCTUnwrap(out.range(of: "\u{1B}_Ga=T,f=24,"))
        XCTAssertTrue(out[first.upperBound..<asked.lowerBound].contains(delete), "the box took the picture away")
        let again = try XCTUnwrap(out[asked.upperBound...].range(of: "\u{1B}_Ga=T,f=24,"), "Cancel shows it again")
        XCTAssertTrue(out[again.upperBound...].contains(delete), "and q takes it away at the end")
        XCTAssertEqual(transmits(out).count, 2, "sent again once, after Cancel")
    }

    func testWithoutAPixelSizeTheScreenTakesTheCellFromTheReplies() throws {
        let nginx = try Nginx()
        defer { nginx.stop() }
        try copyFixture("photo.jpg", to: nginx.root)
        let home = try TemporaryDirectory()
        let list = try writeList([nginx.url("/photo.jpg")], in: home)
        // TIOCGWINSZ says 0x0 pixels; CSI 16t answers 10x20.
        let out = try run(
            "sixel",
            keys: "q",
            pixels: "0x0",
            [
                "TERM=xterm", "NO_PROXY=127.0.0.1", "HOME=\(home.path)",
                Paths.binary.path, "--config", list, "--cache-dir", home.file("cache"),
            ]
        )
        let raster = try XCTUnwrap(out.range(of: "\u{1B}P0;1;0q\"1;1;"), "a sixel picture")
        let size = out[raster.upperBound...].prefix { $0 != "#" }.split(separator: ";").compactMap { Int($0) }
        XCTAssertEqual(size.count, 2)
        // The 3:2 photo fills the image rows: at 20 pixels a row it is wider
        // than 8x16 cells (the guess without a reply) could make it.
        XCTAssertGreaterThan(size.first ?? 0, 600, "\(size)")
        XCTAssertEqual((size.last ?? 0) % 20, 0, "whole rows of 20 pixels: \(size)")
    }

    /// A local kitty (no ssh), played by fake-terminal.py's kitty mode,
    /// which reads shared memory as kitty does: it said it reads ours, so
    /// `render` sends the pixels there (one short sequence, no base64); the
    /// screen's first picture too, and, shown again after the help box (the
    /// object is unlinked once read), the same picture as base64 under its
    /// id. Nothing is left in /dev/shm.
    func testALocalKittyGetsThePixelsBySharedMemory() throws {
        let before = try shmObjects()
        let render = try runProgram(
            URL(fileURLWithPath: "/usr/bin/python3"),
            [
                MisbehavingTerminalTests.tool, "kitty", "-", "--", "env", "-u", "SSH_CONNECTION", "-u", "SSH_TTY",
                "TERM=xterm-kitty", Paths.binary.path, "render", "--size", "20x5", photo,
            ],
            guardSeconds: 60
        )
        XCTAssertTrue(
            render.stdout.contains("\u{1B}_Ga=T,f=24,") && render.stdout.contains(",t=s,S="),
            String(render.stdout.suffix(200))
        )
        XCTAssertFalse(render.stdout.contains("m=1;"), "no base64 chunks")
        let reads = render.stderr.split(separator: "\n").filter { $0.hasPrefix("shm ") }
        XCTAssertEqual(reads.count, 2, "the query's object and the picture's: \(reads)")
        XCTAssertFalse(reads.contains { $0.hasSuffix(" -1") }, "each object was there when read: \(reads)")
        // The picture's object holds its s×v×3 bytes, as S= says.
        let keys = try XCTUnwrap(render.stdout.components(separatedBy: "_Ga=T,").last?.prefix { $0 != ";" })
        let value = { (key: String) in
            keys.split(separator: ",").first { $0.hasPrefix(key) }.flatMap { Int($0.dropFirst(key.count)) }
        }
        let bytes = try XCTUnwrap(value("S="))
        XCTAssertEqual(bytes, try XCTUnwrap(value("s=")) * XCTUnwrap(value("v=")) * 3)
        XCTAssertEqual(reads.last.map { String($0.split(separator: " ").last ?? "") }, "\(bytes)")
        // Over ssh the terminal is elsewhere: no object, not even asked.
        let remote = try runProgram(
            URL(fileURLWithPath: "/usr/bin/python3"),
            [
                MisbehavingTerminalTests.tool, "kitty", "-", "--", "env", "SSH_CONNECTION=127.0.0.1 50000 127.0.0.1 22",
                "TERM=xterm-kitty", Paths.binary.path, "render", "--size", "20x5", photo,
            ],
            guardSeconds: 60
        )
        XCTAssertTrue(
            remote.stdout.contains("\u{1B}_Ga=T,f=24,") && !remote.stdout.contains("t=s"),
            String(remote.stdout.prefix(200))
        )
        XCTAssertFalse(remote.stderr.contains("shm "))

        let nginx = try Nginx()
        defer { nginx.stop() }
        try copyFixture("photo.jpg", to: nginx.root)
        let home = try TemporaryDirectory()
        let list = try writeList([nginx.url("/photo.jpg")], in: home)
        let screen = try runProgram(
            URL(fileURLWithPath: "/usr/bin/python3"),
            [
                MisbehavingTerminalTests.tool, "kitty", "?,z,q", "--", "env", "-u", "SSH_CONNECTION", "-u", "SSH_TTY",
                "TERM=xterm-kitty", "NO_PROXY=127.0.0.1", "HOME=\(home.path)", Paths.binary.path,
                "--config", list, "--cache-dir", home.file("cache"),
            ],
            guardSeconds: 60
        )
        let out = screen.stdout
        let first = try XCTUnwrap(out.range(of: ",C=1,t=s,S="), "the first picture by shared memory")
        let id = out[..<first.lowerBound].components(separatedBy: "_Ga=T,").last?.split(separator: ",").first {
            $0.hasPrefix("i=")
        }
        let help = try XCTUnwrap(out.range(of: "Keys", range: first.upperBound..<out.endIndex), "the help box")
        let again = try XCTUnwrap(
            out.range(of: "\u{1B}_Ga=T,f=24,", range: help.upperBound..<out.endIndex),
            "shown again after the box"
        )
        XCTAssertEqual(
            out[again.upperBound...].split(separator: ",").first { $0.hasPrefix("i=") },
            id,
            "under its own id"
        )
        XCTAssertTrue(out[again.upperBound...].prefix(200).contains("m=1;"), "as base64: the object was read once")
        XCTAssertEqual(try shmObjects(), before, "nothing left in /dev/shm")
    }

    /// An animation `render` plays in a local kitty is kitty's to play: the
    /// first frame shown as a still, each later frame sent once (a=f, by
    /// shared memory) while it plays what it has (s=2), then looping as the
    /// GIF says (s=3, v=1: for ever) until --duration stops it (s=1) where
    /// it was. Nothing is left in /dev/shm.
    func testKittyPlaysARenderedAnimationItself() throws {
        let before = try shmObjects()
        let gif = Fixtures.formats.appendingPathComponent("animated.gif").path
        let render = try runProgram(
            URL(fileURLWithPath: "/usr/bin/python3"),
            [
                MisbehavingTerminalTests.tool, "kitty", "-", "--", "env", "-u", "SSH_CONNECTION", "-u", "SSH_TTY",
                "TERM=xterm-kitty", Paths.binary.path, "render", "--size", "20x5", "--duration", "1", gif,
            ],
            guardSeconds: 60
        )
        XCTAssertEqual(render.status, 0, render.stderr)
        let keys = render.stdout.matches(of: /\x1B_G(a=[^;\x1B]*)/).map { String($0.1) }
        XCTAssertEqual(keys.filter { $0.hasPrefix("a=T,") }.count, 1, "one picture: \(keys)")
        let frames = keys.filter { $0.hasPrefix("a=f,") }
        XCTAssertEqual(frames.count, 5, "the GIF's other five frames, each once: \(keys)")
        XCTAssertTrue(
            frames.allSatisfy { $0.contains(",t=s,") && $0.contains(",X=1,") && $0.contains(",z=") },
            "\(frames)"
        )
        let controls = keys.filter { $0.hasPrefix("a=a,") }.map {
            $0.split(separator: ",").filter { $0.hasPrefix("s=") || $0.hasPrefix("v=") }
        }
        XCTAssertEqual(controls.filter { !$0.isEmpty }, [["s=2"], ["s=3", "v=1"], ["s=1"]], "\(keys)")
        XCTAssertTrue(render.stdout.hasSuffix("\u{1B}[?25h"), "the cursor shown again")
        XCTAssertFalse(
            render.stderr.split(separator: "\n").contains { $0.hasPrefix("shm ") && $0.hasSuffix(" -1") },
            render.stderr
        )
        XCTAssertEqual(try shmObjects(), before, "nothing left in /dev/shm")
    }

    /// An animation in the screen in kitty: kitty keeps its frames. The
    /// still goes as a picture, then the next frame as the animation's
    /// picture; each other frame goes once, as a frame of it (a=f), and the
    /// loops after that are switches to frames kitty has (a=a,c=N), which
    /// never start kitty's own playback. q deletes it, frames and all.
    func testTheScreenHasKittyKeepAnAnimationsFrames() throws {
        let before = try shmObjects()
        let nginx = try Nginx()
        defer { nginx.stop() }
        try FileManager.default.copyItem(
            atPath: Fixtures.formats.appendingPathComponent("animated.gif").path,
            toPath: nginx.root.file("animated.gif")
        )
        let home = try TemporaryDirectory()
        let list = try writeList([nginx.url("/animated.gif")], in: home)
        let out = try run(
            "kitty",
            keys: "x,x,x,q",
            [
                "-u", "SSH_CONNECTION", "-u", "SSH_TTY", "TERM=xterm-kitty", "NO_PROXY=127.0.0.1",
                "HOME=\(home.path)", Paths.binary.path, "--config", list, "--cache-dir", home.file("cache"),
            ]
        )
        let keys = out.matches(of: /\x1B_G(a=[^;\x1B]*)/).map { String($0.1) }
        let value = { (key: String, keys: String) in
            keys.split(separator: ",").first { $0.hasPrefix(key) }.map { String($0.dropFirst(key.count)) }
        }
        let pictures = keys.filter { $0.hasPrefix("a=T,") }
        XCTAssertEqual(pictures.count, 2, "the still, then the animation's picture: \(pictures)")
        let id = try XCTUnwrap(pictures.last.flatMap { value("i=", $0) })
        let added = keys.filter { $0.hasPrefix("a=f,") }
        XCTAssertEqual(added.count, 5, "the GIF's six frames less the picture's, each once: \(added)")
        XCTAssertTrue(
            added.allSatisfy { value("i=", $0) == id && $0.contains(",t=s,") && !$0.contains(",z=") },
            "\(added)"
        )
        let switches = keys.filter { $0.hasPrefix("a=a,") }
        XCTAssertTrue(
            switches.allSatisfy { value("i=", $0) == id && value("s=", $0) == nil },
            "kitty's playback never started: \(switches)"
        )
        let numbers = switches.compactMap { value("c=", $0).flatMap(Int.init) }
        XCTAssertGreaterThan(numbers.count, 12, "two loops and more in 1.5 s of 40 ms frames: \(numbers)")
        XCTAssertEqual(Set(numbers), Set(1...6), "every frame kitty holds, by its number (1: the picture itself)")
        XCTAssertTrue(out.contains("\u{1B}_Ga=d,d=I,i=\(id),q=2\u{1B}\\"), "deleted at the end")
        XCTAssertEqual(try shmObjects(), before, "kitty read every object")
    }

    private func shmObjects() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: "/dev/shm").filter { $0.contains("urlcache") }.sorted()
    }

    func testKittysPictureIsDeletedOnExit() throws {
        let out = try kittyScreen(keys: "q")
        let shown = try XCTUnwrap(out.range(of: "\u{1B}_Ga=T,f=24,"), "the picture was sent")
        let id = out[shown.upperBound...].split(separator: ",").first { $0.hasPrefix("i=") }.map(String.init) ?? "?"
        XCTAssertTrue(
            out[shown.upperBound...].contains("\u{1B}_Ga=d,d=I,\(id),q=2\u{1B}\\"),
            "deleted on exit by its id \(id)"
        )
    }
}

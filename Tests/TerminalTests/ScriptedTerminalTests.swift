import Foundation
import URLCacheHarness
import URLCacheTestSupport
import XCTest

/// The terminals of 2026 that Debian 12 does not package, each played by
/// Tests/Tools/fake-terminal.py as its source says it answers (the
/// profiles there cite the files): urlcache picks what each draws best,
/// with no flags, and writes it well-formed. The environment is what
/// reaches a program there: over ssh, only TERM.
final class ScriptedTerminalTests: XCTestCase {
    let photo = Fixtures.images.appendingPathComponent("photo.jpg").path

    /// What `arguments` wrote on a terminal played as `profile`, with only
    /// `environment` set (and PATH, HOME).
    private func run(_ profile: String, _ environment: [String], _ arguments: [String]) throws -> String {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("urlcache-scripted-\(UUID())")
        defer { try? FileManager.default.removeItem(at: home) }
        let result = try runProgram(
            URL(fileURLWithPath: "/usr/bin/python3"),
            [MisbehavingTerminalTests.tool, profile, "-", "--", "env", "-i", "PATH=/usr/bin:/bin", "HOME=\(home.path)"]
                + environment + [Paths.binary.path] + arguments,
            guardSeconds: 60
        )
        assertExited(result.stderr)
        return String(decoding: Array(result.stdout.utf8), as: UTF8.self)
    }

    private func assertExited(_ stderr: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertTrue(stderr.contains("exit 0"), stderr, file: file, line: line)
    }

    /// `probe`'s line `name: value`.
    private func probe(_ out: String, _ name: String) -> String? {
        out.split(whereSeparator: \.isNewline).first { $0.hasPrefix(name + ": ") }.map {
            String($0.dropFirst(name.count + 2)).trimmingCharacters(in: .whitespaces)
        }
    }

    /// kitty's graphics commands written, their keys and payloads.
    private func kittyCommands(_ out: String) -> [(keys: [String: String], payload: Substring)] {
        out.components(separatedBy: "\u{1B}_G").dropFirst().compactMap { rest in
            guard let end = rest.range(of: "\u{1B}\\") else { return nil }
            let body = rest[..<end.lowerBound]
            let parts = body.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false)
            var keys: [String: String] = [:]
            for pair in parts[0].split(separator: ",") {
                let kv = pair.split(separator: "=", maxSplits: 1)
                if kv.count == 2 { keys[String(kv[0])] = String(kv[1]) }
            }
            return (keys, parts.count > 1 ? parts[1] : "")
        }
    }

    /// A kitty picture sent straight: one `a=T` placement in chunks of at
    /// most 4096 bytes of base64, the last `m=0`; no placeholder (`U=1`),
    /// no shared memory and no animation frames.
    private func assertKittyPicture(_ out: String, file: StaticString = #filePath, line: UInt = #line) {
        let sent = kittyCommands(out).filter { $0.keys["i"] != "31" && $0.keys["a"] != "q" }
        XCTAssertEqual(sent.filter { $0.keys["a"] == "T" }.count, 1, "one placement", file: file, line: line)
        XCTAssertFalse(sent.contains { $0.keys["U"] != nil || $0.keys["t"] == "s" || $0.keys["a"] == "f" })
        XCTAssertTrue(sent.allSatisfy { $0.payload.count <= 4096 }, "chunks of 4096", file: file, line: line)
        XCTAssertEqual(sent.last?.keys["m"], "0", "the last chunk closes it", file: file, line: line)
        XCTAssertTrue(sent.dropLast().allSatisfy { $0.keys["m"] == "1" }, file: file, line: line)
        XCTAssertTrue(
            sent.allSatisfy { Data(base64Encoded: String($0.payload)) != nil || $0.payload.isEmpty },
            "base64",
            file: file,
            line: line
        )
    }

    /// A sixel picture: DCS q with its raster size, at most `registers`
    /// colours defined, closed by ST.
    private func assertSixel(_ out: String, registers: Int, file: StaticString = #filePath, line: UInt = #line) {
        guard let start = out.range(of: "\u{1B}P0;1;0q\"1;1;"),
            let end = out.range(of: "\u{1B}\\", range: start.upperBound..<out.endIndex)
        else { return XCTFail("no sixel picture", file: file, line: line) }
        let body = out[start.upperBound..<end.lowerBound]
        let defined = Set(body.matches(of: /#(\d+);2;/).map { Int($0.1) ?? -1 })
        XCTAssertFalse(defined.isEmpty, file: file, line: line)
        XCTAssertLessThanOrEqual(defined.count, registers, file: file, line: line)
        XCTAssertTrue(defined.allSatisfy { (0..<registers).contains($0) }, file: file, line: line)
        XCTAssertFalse(body.contains("\u{1B}"), "nothing else inside the picture", file: file, line: line)
    }

    /// An iTerm2 inline image: one OSC 1337 File= with inline=1, its size
    /// in pixels and its PNG in base64, closed by BEL.
    private func assertITermPicture(_ out: String, file: StaticString = #filePath, line: UInt = #line) {
        let found = out.matches(
            of: /\x1B\]1337;File=inline=1;size=(\d+);width=\d+px;height=\d+px[^:\x07]*:([^\x07]*)\x07/
        )
        XCTAssertEqual(found.count, 1, "one inline image", file: file, line: line)
        guard let image = found.first, let png = Data(base64Encoded: String(image.2)) else {
            return XCTFail("no base64 PNG", file: file, line: line)
        }
        XCTAssertEqual(png.count, Int(image.1), "size= is the PNG's", file: file, line: line)
        XCTAssertEqual(Array(png.prefix(4)), [0x89, 0x50, 0x4E, 0x47], file: file, line: line)
    }

    func testITerm2GetsItsOwnPicturesByNameOrByItsAnswers() throws {
        // Over ssh LC_TERMINAL arrives (macOS's ssh sends LC_*): named.
        let named = ["TERM=xterm-256color", "LC_TERMINAL=iTerm2", "LC_TERMINAL_VERSION=3.5.15"]
        let byName = try run("iterm2", named, ["probe"])
        XCTAssertEqual(probe(byName, "format"), "iterm", byName)
        assertITermPicture(try run("iterm2", named, ["render", "--size", "20x5", photo]))
        // Only TERM: its XTVERSION names it, before and after its kitty
        // graphics (3.5.6), and no APC is sent (3.5.5 made it the title).
        for profile in ["iterm2", "iterm2-3.5.5"] {
            let asked = try run(profile, ["TERM=xterm-256color"], ["probe"])
            XCTAssertEqual(probe(asked, "format"), "iterm", "\(profile): \(asked)")
            XCTAssertEqual(probe(asked, "colours"), "truecolor", profile)
            let out = try run(profile, ["TERM=xterm-256color"], ["render", "--size", "20x5", photo])
            assertITermPicture(out)
            XCTAssertFalse(out.contains("\u{1B}_G"), "\(profile): no APC")
        }
    }

    func testWarpGetsKittyPicturesStraight() throws {
        // Warp's own shell, and over plain ssh (only TERM).
        for environment in [
            ["TERM=xterm-256color", "TERM_PROGRAM=WarpTerminal", "COLORTERM=truecolor"], ["TERM=xterm-256color"],
        ] {
            let found = try run("warp", environment, ["probe"])
            XCTAssertEqual(probe(found, "format"), "kitty", found)
            XCTAssertEqual(probe(found, "colours"), "truecolor", "\(environment)")
            assertKittyPicture(try run("warp", environment, ["render", "--size", "20x5", photo]))
        }
    }

    func testFootNewerThanDebiansGetsSixelByNameOrByItsAnswers() throws {
        for environment in [["TERM=foot"], ["TERM=xterm-256color"]] {
            let found = try run("foot", environment, ["probe"])
            XCTAssertEqual(probe(found, "format"), "sixel (1024 colour registers)", found)
            XCTAssertEqual(probe(found, "colours"), "truecolor", "\(environment)")
            assertSixel(try run("foot", environment, ["render", "--size", "20x5", photo]), registers: 1024)
        }
    }

    func testGhosttyAndWezTermOverSshGetKittyPicturesFromTheirAnswers() throws {
        for profile in ["ghostty", "wezterm"] {
            let ssh = ["TERM=xterm-256color"]
            let found = try run(profile, ssh, ["probe"])
            XCTAssertEqual(probe(found, "format"), "kitty", "\(profile): \(found)")
            XCTAssertEqual(probe(found, "colours"), "truecolor", profile)
            assertKittyPicture(try run(profile, ssh, ["render", "--size", "20x5", photo]))
        }
        // In Ghostty itself its name says so, and nothing is asked but kitty's medium.
        let named = try run("ghostty", ["TERM=xterm-ghostty", "TERM_PROGRAM=ghostty"], ["probe"])
        XCTAssertEqual(probe(named, "terminal"), "Ghostty")
    }

    func testVSCodeGetsKittyWithPicturesOnAndTruecolourArtWithout() throws {
        // VS Code keeps a WT_SESSION it was started with: not Windows Terminal.
        let vscode = ["TERM=xterm-256color", "TERM_PROGRAM=vscode", "COLORTERM=truecolor", "WT_SESSION=1"]
        let on = try run("vscode", vscode, ["probe"])
        XCTAssertEqual(probe(on, "format"), "kitty", on)
        XCTAssertTrue(probe(on, "terminal")?.hasPrefix("xterm.js") == true, on)
        assertKittyPicture(try run("vscode", vscode, ["render", "--size", "20x5", photo]))
        let off = try run("vscode-plain", vscode, ["probe"])
        XCTAssertEqual(probe(off, "format"), "symbols", off)
        XCTAssertEqual(probe(off, "colours"), "truecolor", "COLORTERM")
        let art = try run("vscode-plain", vscode, ["render", "--size", "20x5", photo])
        XCTAssertTrue(art.contains("\u{1B}[38;2;") && !art.contains("\u{1B}_Ga=T") && !art.contains("\u{1B}P0;1;0q"))
    }

    func testWindowsTerminalOverSshGetsSixelFromItsAnswers() throws {
        let ssh = ["TERM=xterm-256color"]
        let found = try run("windows-terminal", ssh, ["probe"])
        XCTAssertEqual(probe(found, "format"), "sixel (256 colour registers)", "no XTSMGRAPHICS answer: the default")
        XCTAssertEqual(probe(found, "colours"), "truecolor", "DECRQSS kept the direct colour")
        assertSixel(try run("windows-terminal", ssh, ["render", "--size", "20x5", photo]), registers: 1024)
    }

    func testContourGetsSixelNotKittyWhichTakesNoCompressedPixels() throws {
        for environment in [["TERM=contour"], ["TERM=xterm-256color"]] {
            let found = try run("contour", environment, ["probe"])
            XCTAssertEqual(probe(found, "format"), "sixel (1024 colour registers)", "its 4096, within ours")
            assertSixel(try run("contour", environment, ["render", "--size", "20x5", photo]), registers: 1024)
        }
    }

    func testInsideZellijThePicturesAreWhatZellijDrawsWhateverTheEnvironmentLeaks() throws {
        // Started from kitty: its variables came into the session, but it is
        // Zellij that answers, for the terminal attached now.
        let leaked = ["ZELLIJ=0", "TERM=xterm-kitty", "KITTY_WINDOW_ID=1", "TERM_PROGRAM=kitty"]
        let kitty = try run("zellij", leaked, ["probe"])
        XCTAssertEqual(probe(kitty, "terminal"), "Zellij(4500)", kitty)
        XCTAssertEqual(probe(kitty, "format"), "kitty", kitty)
        XCTAssertEqual(probe(kitty, "colours"), "truecolor", "Zellij passes direct colour on")
        assertKittyPicture(try run("zellij", leaked, ["render", "--size", "20x5", photo]))
        let sixel = try run("zellij-sixel", ["ZELLIJ=0", "TERM=foot"], ["probe"])
        XCTAssertEqual(probe(sixel, "format"), "sixel (1024 colour registers)", sixel)
        assertSixel(
            try run("zellij-sixel", ["ZELLIJ=0", "TERM=foot"], ["render", "--size", "20x5", photo]),
            registers: 1024
        )
        // Before 0.45 its DA1 said sixel whatever the terminal outside.
        let old = try run("zellij-0.44", ["ZELLIJ=0", "TERM=xterm-256color"], ["probe"])
        XCTAssertEqual(probe(old, "format"), "symbols", old)
    }
}

import Foundation
import URLCacheHarness
import URLCacheTestSupport
import XCTest

/// Pixels inside tmux: a real tmux 3.3a whose client runs in a scripted
/// terminal answering as kitty 0.35 (`Tests/Tools/outer-terminal.py`),
/// newer than Debian's kitty 0.26, which has no Unicode placeholders. What
/// reached that terminal is in its log; what tmux keeps is in capture-pane.
final class TmuxPixelTests: XCTestCase {
    var home: TemporaryDirectory!
    var session: TmuxSession?
    var outer: Process?
    var log: String { home.file("outer.log") }
    static let tool = Fixtures.packageRoot.appendingPathComponent("Tests/Tools/outer-terminal.py").path

    override func setUpWithError() throws { home = try TemporaryDirectory() }

    override func tearDown() {
        session = nil
        outer?.waitUntilExit()
        outer = nil
        home = nil
    }

    /// `arguments` in a tmux pane, started once the scripted kitty 0.35 has
    /// attached, so that tmux knows its client when urlcache asks; with the
    /// pane's allow-passthrough set to `passthrough` first.
    private func start(
        _ arguments: [String],
        passthrough: String? = nil,
        environment: [String: String] = [:]
    ) throws -> TmuxSession {
        let go = home.file("go")
        let wait = "while [ ! -e \(TmuxSession.quote(go)) ]; do sleep 0.1; done; exec \"$0\" \"$@\""
        var env = ["TERM": "tmux-256color", "HOME": home.path, "LANG": "C.UTF-8", "NO_PROXY": "127.0.0.1"]
        for (key, value) in environment { env[key] = value }
        let session = try TmuxSession(["sh", "-c", wait] + arguments, environment: env, columns: 100, rows: 29)
        self.session = session
        XCTAssertTrue(
            FileManager.default.fileExists(atPath: "/usr/share/terminfo/x/xterm-kitty"),
            "kitty's terminfo is missing: Scripts/install-deps --tests installs kitty"
        )
        let outer = Process()
        outer.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        outer.arguments = [TmuxPixelTests.tool, log, "--", "/usr/bin/tmux", "-L", session.socket, "attach"]
        outer.standardOutput = FileHandle.nullDevice
        outer.standardError = FileHandle.nullDevice
        try outer.run()
        self.outer = outer
        let deadline = Date().addingTimeInterval(20)
        while !(try session.tmux(["display-message", "-p", "#{client_termtype}"])).contains("kitty(0.35"),
            Date() < deadline
        {
            usleep(50_000)
        }
        XCTAssertTrue(
            try session.tmux(["display-message", "-p", "#{client_termtype}"]).contains("kitty(0.35"),
            "the client attached"
        )
        if let passthrough { try session.tmux(["set-option", "-p", "allow-passthrough", passthrough]) }
        FileManager.default.createFile(atPath: go, contents: nil)
        return session
    }

    /// The pane's lines that hold placeholder cells, and how many each holds.
    private func placeholderRows(_ screen: String) -> [Int] {
        screen.split(separator: "\n").map { $0.unicodeScalars.filter { $0.value == 0x10EEEE }.count }.filter { $0 > 0 }
    }

    /// Waits until `text` has reached the terminal outside (tmux writes a
    /// megabyte upload to its client at its own pace): a guard against
    /// hanging, not a timing assertion.
    private func waitForOuterLog(_ text: String) -> Bool {
        let deadline = Date().addingTimeInterval(30)
        while outerLog().range(of: text) == nil, Date() < deadline { usleep(50_000) }
        return outerLog().range(of: text) != nil
    }

    private func outerLog() -> String {
        String(decoding: (try? Data(contentsOf: URL(fileURLWithPath: log))) ?? Data(), as: UTF8.self)
    }

    /// The pane's own allow-passthrough: empty when it has none.
    private func passthrough(_ session: TmuxSession) throws -> String {
        try session.tmux(["show-options", "-pqv", "allow-passthrough"]).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// `render` with no flags: the upload with a virtual placement reaches
    /// the terminal outside, the placeholder cells are in tmux's grid, in the
    /// placement's rows and columns, before and after a window switch (when
    /// tmux draws them to the outer terminal again), and the pane's
    /// passthrough is as it was.
    func testRenderSendsPlaceholdersThatTmuxKeeps() throws {
        let photo = Fixtures.images.appendingPathComponent("photo.jpg").path
        // An upload of over 1.3 MB of base64, past tmux's 1 MiB limit for
        // one passthrough.
        let session = try start([Paths.binary.path, "render", "--size", "100x24", photo])
        let screen = session.waitForExit()
        XCTAssertTrue(screen.contains("EXIT=0"), screen)
        let upload = try XCTUnwrap(
            outerLog().range(of: "\u{1B}_Ga=T,U=1,").map { String(outerLog()[$0.lowerBound...].prefix(120)) },
            "no upload with a virtual placement reached the terminal outside"
        )
        let columns = try XCTUnwrap(upload.firstMatch(of: /c=(\d+)/).flatMap { Int($0.1) })
        let rows = try XCTUnwrap(upload.firstMatch(of: /r=(\d+)/).flatMap { Int($0.1) })
        XCTAssertEqual(placeholderRows(screen), Array(repeating: columns, count: rows), screen)
        // Every chunk came through: the base64 after the upload's keys is
        // the picture's s×v×3 bytes, and the last chunk says m=0.
        let width = try XCTUnwrap(upload.firstMatch(of: /s=(\d+)/).flatMap { Int($0.1) })
        let height = try XCTUnwrap(upload.firstMatch(of: /v=(\d+)/).flatMap { Int($0.1) })
        XCTAssertTrue(waitForOuterLog("\u{1B}_Gm=0;"), "the last chunk reached the terminal outside")
        let chunks = outerLog().components(separatedBy: "\u{1B}_G").drop {
            !$0.hasPrefix("a=T,U=1,") && !$0.hasPrefix("a=T,U=1")
        }
        let payload = chunks.prefix { !$0.hasPrefix("a=") || $0.hasPrefix("a=T,U=1,") }
        XCTAssertEqual(payload.last.map { $0.hasPrefix("m=0;") }, true, "the last chunk arrived")
        let base64 = payload.compactMap { $0.split(separator: ";", maxSplits: 1).last?.prefix { $0 != "\u{1B}" } }
            .joined()
        XCTAssertEqual(
            Data(base64Encoded: base64)?.count,
            width * height * 3,
            "the whole picture, \(payload.count) chunks"
        )
        XCTAssertGreaterThan(base64.utf8.count, 1 << 20, "past tmux's limit for one passthrough")
        XCTAssertEqual(try passthrough(session), "", "the pane's passthrough put back")

        // The first draw's cells have all reached the terminal outside
        // before the count starts: only the redraw is counted.
        let drawn = Date().addingTimeInterval(30)
        while outerLog().unicodeScalars.filter({ $0.value == 0x10EEEE }).count < rows * columns, Date() < drawn {
            usleep(50_000)
        }
        let before = outerLog().unicodeScalars.count
        try session.tmux(["new-window"])
        try session.tmux(["select-window", "-t", ":0"])
        let after = session.wait(for: "the placeholders after a window switch") {
            self.placeholderRows($0).count == rows
        }
        XCTAssertEqual(placeholderRows(after), Array(repeating: columns, count: rows))
        // tmux's grid has the cells at once; its redraw reaches the terminal
        // outside (its log) a moment later.
        func redrawn() -> Int {
            outerLog().unicodeScalars.dropFirst(before).filter { $0.value == 0x10EEEE }.count
        }
        let deadline = Date().addingTimeInterval(30)
        while redrawn() < rows * columns, Date() < deadline { usleep(50_000) }
        XCTAssertEqual(redrawn(), rows * columns, "tmux drew the cells to the terminal outside again")
    }

    /// The screen: placeholders in the image area while it is up, with
    /// passthrough on for its pane; on q the image is deleted outside and
    /// the pane's passthrough is as the user had it (here: off, set).
    func testScreenShowsPlaceholdersAndPutsPassthroughBack() throws {
        let nginx = try Nginx()
        defer { nginx.stop() }
        try copyFixture("earth.jpg", to: nginx.root)
        let list = try writeList([nginx.url("/earth.jpg")], in: home)
        let session = try start(
            [Paths.binary.path, "--config", list, "--cache-dir", home.file("cache")],
            passthrough: "off"
        )
        let screen = session.wait(for: "the picture as placeholders") { self.placeholderRows($0).count > 10 }
        XCTAssertTrue(screen.contains("Display Image"), screen)
        XCTAssertEqual(try passthrough(session), "on")
        XCTAssertTrue(
            waitForOuterLog("\u{1B}_Ga=T,U=1,"),
            "no upload with a virtual placement reached the terminal outside"
        )
        session.send("q")
        let after = session.waitForExit()
        XCTAssertTrue(after.contains("EXIT=0"), after)
        XCTAssertEqual(placeholderRows(after), [], "the screen took its cells away")
        XCTAssertTrue(waitForOuterLog("\u{1B}_Ga=d,d=I,"), "the image deleted in the terminal outside")
        XCTAssertEqual(try passthrough(session), "off")
    }

    /// Killed (SIGTERM), the screen still restores the terminal, deletes
    /// the image outside and puts the pane's passthrough back, here
    /// inherited (no value of its own), before it ends by the signal.
    func testScreenKilledPutsPassthroughBack() throws {
        let nginx = try Nginx()
        defer { nginx.stop() }
        try copyFixture("earth.jpg", to: nginx.root)
        let list = try writeList([nginx.url("/earth.jpg")], in: home)
        let session = try start([Paths.binary.path, "--config", list, "--cache-dir", home.file("cache")])
        session.wait(for: "the picture as placeholders") { self.placeholderRows($0).count > 10 }
        XCTAssertEqual(try passthrough(session), "on")
        let shell = try session.tmux(["display", "-p", "#{pane_pid}"]).trimmingCharacters(in: .whitespacesAndNewlines)
        let children = try runProgram(URL(fileURLWithPath: "/usr/bin/pgrep"), ["-P", shell])
        let pid = try XCTUnwrap(children.lines.compactMap { Int32($0) }.first, "no process under the pane's shell")
        kill(pid, SIGTERM)
        let after = session.waitForExit()
        XCTAssertTrue(after.contains("EXIT=143"), after)
        XCTAssertTrue(waitForOuterLog("\u{1B}_Ga=d,d=I,"), "the image deleted in the terminal outside")
        XCTAssertEqual(try passthrough(session), "", "no value of its own, as before")
    }
}

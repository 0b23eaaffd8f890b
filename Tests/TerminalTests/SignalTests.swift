import Foundation
import URLCacheHarness
import URLCacheTestSupport
import XCTest

#if canImport(Glibc)
import Glibc
#endif

/// Signals as a person sends them to the screen, in tmux: each ends the
/// screen with the terminal restored (main screen, cursor shown, icanon
/// and echo back) and the status the shell expects; Ctrl-Z stops the job
/// and `fg` brings the screen back.
final class SignalTests: ScriptedServerTestCase {
    override var served: [(fixture: String, name: String)] { [("sun.png", "sun.png")] }
    var session: TmuxSession?

    override func tearDown() {
        session = nil
        super.tearDown()
    }

    private var environment: [String: String] {
        [
            "TERM": "tmux-256color", "COLORTERM": "truecolor", "HOME": home.path, "NO_PROXY": "127.0.0.1",
            "LANG": "C.UTF-8",
        ]
    }

    private func arguments() throws -> [String] {
        [
            Paths.binary.path, "--config", try writeList([server.url("/plain/sun.png")], in: home), "--cache-dir",
            home.file("cache"),
            "--log-file", home.file("screen.log"),
        ]
    }

    /// The screen's pid, found by its private cache directory.
    private func screenPid() throws -> Int32 {
        let found = try runProgram(
            URL(fileURLWithPath: "/usr/bin/pgrep"),
            ["-f", "--", "--cache-dir \(home.file("cache"))"]
        )
        return try XCTUnwrap(found.lines.compactMap { Int32($0) }.first, "pgrep: \(found.stdout) \(found.stderr)")
    }

    func testTermHupAndQuitRestoreTheTerminalAndEndByTheirSignal() throws {
        // SIGQUIT's default action dumps core: not into the work tree.
        var core = rlimit()
        getrlimit(Int32(RLIMIT_CORE.rawValue), &core)
        core.rlim_cur = 0
        setrlimit(Int32(RLIMIT_CORE.rawValue), &core)
        for (signal, status) in [(SIGTERM, 143), (SIGHUP, 129), (SIGQUIT, 131)] {
            let tmux = try TmuxSession(try arguments(), environment: environment)
            session = tmux
            tmux.wait(forText: "Newly cached image")
            XCTAssertTrue(tmux.alternateScreenOn)
            kill(try screenPid(), signal)
            let after = tmux.waitForExit()
            XCTAssertTrue(after.contains("EXIT=\(status)"), "signal \(signal):\n\(after)")
            XCTAssertTrue(after.contains("icanon echo"), after)
            XCTAssertFalse(tmux.alternateScreenOn)
            XCTAssertEqual(
                try tmux.tmux(["display", "-p", "#{cursor_flag}"]).trimmingCharacters(in: .whitespacesAndNewlines),
                "1",
                "the cursor is shown"
            )
            session = nil
            try? FileManager.default.removeItem(atPath: home.file("cache"))
        }
        // The log holds what was shown: private, as the cache is.
        let mode = try FileManager.default.attributesOfItem(atPath: home.file("screen.log"))[.posixPermissions] as? Int
        XCTAssertEqual(mode, 0o600)
    }

    /// Ctrl-Z and fg in an interactive bash, as htop, less and vim behave.
    func testCtrlZStopsTheJobAndFgBringsTheScreenBack() throws {
        let tmux = try TmuxSession(
            ["bash", "--norc", "--noprofile", "-i"],
            environment: environment.merging(["PS1": "prompt$ "]) { $1 }
        )
        session = tmux
        tmux.wait(forText: "prompt$")
        tmux.send("-l", try arguments().map(TmuxSession.quote).joined(separator: " "))
        tmux.send("Enter")
        tmux.wait(forText: "Newly cached image")
        tmux.send("C-z")
        let stopped = tmux.wait(forText: "Stopped")
        XCTAssertTrue(stopped.contains("prompt$"), stopped)
        XCTAssertFalse(tmux.alternateScreenOn, "the shell's screen is back")
        tmux.send("-l", "stty -a | tr ' ' '\\n' | grep -E '^-?(icanon|echo)$' | tr '\\n' ' '; echo")
        tmux.send("Enter")
        tmux.wait(for: "the shell's terminal modes", { $0.contains("icanon echo") })
        tmux.send("-l", "fg")
        tmux.send("Enter")
        let back = tmux.wait(
            for: "the screen again",
            { $0.contains("Newly cached image") && $0.contains("[ Display Image (d) ]") }
        )
        XCTAssertFalse(back.contains("Stopped"), back)
        XCTAssertTrue(tmux.alternateScreenOn)
        tmux.send("d")
        tmux.wait(forText: "Previously cached image")
        tmux.send("q")
        tmux.send("-l", "echo DONE=$?")
        tmux.send("Enter")
        tmux.wait(forText: "DONE=0")
    }
}

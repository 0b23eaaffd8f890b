import Foundation
import URLCacheHarness
import URLCacheTestSupport
import XCTest

/// The commands that meet a person at a terminal: `clear`'s question
/// (FetchPolicyTests has the rest of `clear`).
final class ClearPromptTests: NginxTestCase {
    override func setUpWithError() throws {
        try super.setUpWithError()
        try copyFixture("earth.jpg", to: nginx.root)
    }

    func testClearAsksTheOriginalsQuestionOnATerminal() throws {
        let path = try urlcache(["fetch", "--url", nginx.url("/earth.jpg")], home: home).lines[2]
        let tmux = try TmuxSession(
            [Paths.binary.path, "clear", "--cache-dir", home.file("cache/urlcache")],
            environment: ["TERM": "xterm"],
            columns: 80,
            rows: 10
        )
        tmux.wait(forText: "Do you really want to clear the cache? [y/N]")
        tmux.send("y", "Enter")
        let end = tmux.waitForExit()
        XCTAssertTrue(end.contains("Cleared 1 cached image"), end)
        XCTAssertTrue(end.contains("EXIT=0"), end)
        XCTAssertFalse(FileManager.default.fileExists(atPath: path))
    }
}

/// A server that holds an entry's lock through another urlcache, met by
/// the screen (HostileServerTests has the same for `fetch`).
final class HeldEntryScreenTests: ScriptedServerTestCase {
    override var served: [(fixture: String, name: String)] { [("photo.jpg", "photo.jpg")] }

    private var cacheDir: String { home.file("cache") }

    /// The screen meets the same held lock: its status line names the
    /// holder, Esc cancels the wait (and no check by itself starts it
    /// again), Display Image waits anew, and it gives up at its own limit.
    func testTheScreenSaysWhomItWaitsForAndStaysResponsive() throws {
        let good = try urlcache(["fetch", "--url", server.url("/as/photo.jpg"), "--cache-dir", cacheDir], home: home)
        XCTAssertEqual(good.status, 0, good.stderr)
        let image = good.lines[2]
        try age(image, by: 25 * 3600)
        try "trickle".write(toFile: server.root.file("mode"), atomically: true, encoding: .utf8)
        let hanging = try startHangingFetch(server.url("/as/photo.jpg"), cacheDir: cacheDir)
        defer { if hanging.isRunning { hanging.terminate() } }
        let tmux = try TmuxSession(
            [
                Paths.binary.path, "--config", try writeList([server.url("/as/photo.jpg")], in: home),
                "--cache-dir", cacheDir, "--max-time", "4",
            ],
            environment: ["TERM": "tmux-256color", "HOME": home.path, "NO_PROXY": "127.0.0.1", "LANG": "C.UTF-8"]
        )
        tmux.wait(forText: "waiting for another urlcache (pid \(hanging.processIdentifier)) to finish with this image")
        tmux.send("Escape")
        tmux.wait(forText: "Download cancelled; showing the cached image")
        tmux.send("d")
        tmux.wait(forText: "waiting for another urlcache (pid \(hanging.processIdentifier))")
        let gaveUp = tmux.wait(forText: "another urlcache (pid \(hanging.processIdentifier)) is still working on this")
        XCTAssertNotNil(
            gaveUp.firstMatch(of: /Updated: \d{1,2} \w{3} \d{4} at/),
            "the cached copy's date stays: \(gaveUp)"
        )
        // Asked for, its failure is also an alert: closed first.
        tmux.wait(forText: "OK (Enter)")
        tmux.send("Enter")
        tmux.wait(for: "the alert closed") { !$0.contains("OK (Enter)") }
        tmux.send("q")
        XCTAssertTrue(tmux.waitForExit().contains("EXIT=0"))
        XCTAssertEqual(
            try Data(contentsOf: URL(fileURLWithPath: image)),
            try Data(contentsOf: Fixtures.images.appendingPathComponent("photo.jpg"))
        )
    }
}

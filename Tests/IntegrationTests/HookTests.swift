import Foundation
import URLCacheHarness
import URLCacheTestSupport
import XCTest

/// `onNewImage`: run after a new image is committed and only then, with
/// the image in its environment, never through a shell; a feed's hostile
/// title stays text. Its failure is a warning and the image is kept.
final class HookTests: ScriptedServerTestCase {
    override var served: [(fixture: String, name: String)] { [("earth.jpg", "earth.jpg"), ("sun.png", "sun.png")] }

    private var cacheDir: String { home.file("cache") }

    /// A list with one feed entry (its feed names earth.jpg under a hostile
    /// title) and one plain image, and the hook `command` for both.
    private func list(hook command: [String], entryHook: [String]? = nil) throws -> String {
        let feed =
            #"{"title": "$(touch PWNED) `touch PWNED2` \u001b[31mred", "copyright": "A. Person", "url": "/plain/earth.jpg"}"#
        try feed.write(toFile: server.root.file("feed.json"), atomically: true, encoding: .utf8)
        func array(_ strings: [String]) -> String {
            "<array>"
                + strings.map {
                    "<string>\($0.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;"))</string>"
                }.joined() + "</array>"
        }
        let own = entryHook.map { "<key>onNewImage</key>" + array($0) } ?? ""
        return try home.write(
            "hooked.plist",
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict>
            <key>onNewImage</key>\(array(command))
            <key>images</key><array>
              <dict><key>feed</key><string>\(server.url("/plain/feed.json"))</string></dict>
              <dict><key>url</key><string>\(server.url("/plain/sun.png"))</string><key>title</key><string>Sun</string>\(own)</dict>
            </array></dict></plist>
            """
        )
    }

    private func fetch(_ list: String, _ extra: [String] = ["--all"]) throws -> RunResult {
        try urlcache(["fetch", "--config", list, "--cache-dir", cacheDir] + extra, home: home)
    }

    /// A hook that appends its environment's URLCACHE_ variables to `log`.
    private func recorder(_ log: String) -> [String] {
        ["/bin/sh", "-c", "{ echo RUN; env | grep '^URLCACHE_' | sort; } >> \"$1\"", "recorder", log]
    }

    func testRunsForANewImageOnlyWithTheImageInItsEnvironment() throws {
        let log = home.file("hook.log")
        let list = try list(hook: recorder(log))
        let first = try fetch(list)
        XCTAssertEqual(first.status, 0, first.stderr)
        let text = try String(contentsOfFile: log, encoding: .utf8)
        XCTAssertEqual(text.components(separatedBy: "RUN\n").count - 1, 2, "once an entry: \(text)")
        let paths = first.lines.filter { $0.hasPrefix("   /") }.map { $0.trimmingCharacters(in: .whitespaces) }
        XCTAssertEqual(paths.count, 2)
        for path in paths { XCTAssertTrue(text.contains("URLCACHE_PATH=\(path)\n"), text) }
        XCTAssertTrue(text.contains("URLCACHE_URL=\(server.url("/plain/feed.json"))\n"), text)
        XCTAssertTrue(text.contains("URLCACHE_ENTRY=1\n") && text.contains("URLCACHE_ENTRY=2\n"), text)
        XCTAssertTrue(
            text.contains("URLCACHE_TITLE=$(touch PWNED) `touch PWNED2` \u{FFFD}[31mred\n"),
            "text, made terminal-safe: \(text)"
        )
        XCTAssertTrue(text.contains("URLCACHE_CREDIT=A. Person\n"), text)
        XCTAssertTrue(text.contains("URLCACHE_TITLE=Sun\n"), text)
        for name in ["PWNED", "PWNED2"] {
            XCTAssertFalse(FileManager.default.fileExists(atPath: home.file(name)), "a title is never a command")
            XCTAssertFalse(FileManager.default.fileExists(atPath: name), "a title is never a command")
        }

        // Fresh, then a 304 and an unchanged body: never run again.
        XCTAssertEqual(try fetch(list).status, 0)
        XCTAssertEqual(try fetch(list, ["--all", "--force"]).status, 0)
        let after = try String(contentsOfFile: log, encoding: .utf8)
        XCTAssertEqual(after.components(separatedBy: "RUN\n").count - 1, 2, "no run without a new image")
    }

    /// A hook inherits its standard descriptors and nothing else: not the
    /// connections libcurl keeps open between transfers, nor its wake-up
    /// pair, which a daemon the hook leaves running would hold for good.
    func testAHookInheritsNoSocket() throws {
        let log = home.file("fds.log")
        let list = try list(hook: ["/bin/sh", "-c", "ls -l /proc/$$/fd | grep -c socket >> \"$1\"; true", "fds", log])
        let result = try fetch(list)
        XCTAssertEqual(result.status, 0, result.stderr)
        let counts = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
        XCTAssertEqual(counts, ["0", "0"], "a run an entry, no socket in either")
    }

    func testAFailingMissingOrOwnHookIsAWarningAndTheImageStays() throws {
        let failing = try fetch(try list(hook: ["/bin/sh", "-c", "echo cannot set wallpaper >&2; exit 4"]))
        XCTAssertEqual(failing.status, 0, "a hook's failure is a warning")
        XCTAssertTrue(failing.stderr.contains("urlcache: onNewImage: cannot set wallpaper"), failing.stderr)
        XCTAssertTrue(
            failing.stderr.contains("warning: onNewImage /bin/sh exited with status 4; the image is kept"),
            failing.stderr
        )
        XCTAssertEqual(failing.lines.filter { $0 == "   Newly cached image" }.count, 2)

        try FileManager.default.removeItem(atPath: cacheDir)
        let missing = try fetch(try list(hook: ["no-such-wallpaper-setter", "--now"]))
        XCTAssertEqual(missing.status, 0)
        XCTAssertTrue(
            missing.stderr.contains("onNewImage no-such-wallpaper-setter could not be started: not found in PATH"),
            missing.stderr
        )

        // An entry's own hook replaces the list's.
        try FileManager.default.removeItem(atPath: cacheDir)
        let log = home.file("own.log")
        let own = try fetch(try list(hook: ["/bin/false"], entryHook: recorder(log)), ["--entry", "2"])
        XCTAssertEqual(own.status, 0, own.stderr)
        XCTAssertFalse(own.stderr.contains("warning"), own.stderr)
        XCTAssertTrue(try String(contentsOfFile: log, encoding: .utf8).contains("URLCACHE_TITLE=Sun"))
    }

    func testAListWhoseHookIsNoArrayOfStringsIsRefused() throws {
        let list = try home.write(
            "bad.plist",
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict><key>onNewImage</key><string>feh --bg-fill $URLCACHE_PATH</string>
            <key>images</key><array><string>\(server.url("/plain/sun.png"))</string></array></dict></plist>
            """
        )
        let result = try fetch(list, [])
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(
            result.stderr.contains(
                "\"onNewImage\" must be an array of strings: the program, then its arguments (no shell)"
            ),
            result.stderr
        )
    }
}

import Foundation
import URLCacheHarness
import URLCacheTestSupport
import XCTest

/// The screen's rough edges a new user met (#25), in tmux as a person meets them.
extension ScreenTests {
    /// A feed whose description runs past the box: the `i` box scrolls and
    /// says which lines it shows; the description's line breaks stay.
    func testTheAboutBoxScrollsALongDescription() throws {
        let lines = (1...60).map { "Line \($0) of the story." }.joined(separator: "\n")
        try """
        <rss version="2.0"><channel><title>T</title><item><title>Long story</title>
        <description>\(lines)</description>
        <enclosure url="\(nginx.url("/earth.jpg"))" type="image/jpeg"/></item></channel></rss>
        """.write(toFile: nginx.root.file("story.rss"), atomically: true, encoding: .utf8)
        let list = try home.write(
            "feed.plist",
            """
            <plist version="1.0"><array><dict><key>feed</key><string>\(nginx.url("/story.rss"))</string></dict></array></plist>
            """
        )
        let tmux = try open([], rows: 30, list: list)
        tmux.wait(forText: "Newly cached image")
        tmux.send("i")
        let top = tmux.wait(forText: "j k PgUp PgDn")
        XCTAssertTrue(top.contains("Line 1 of the story."), top)
        XCTAssertTrue(top.contains("Line 2 of the story."), "each line break kept: \(top)")
        XCTAssertFalse(top.contains("Line 60 of"), top)
        XCTAssertTrue(top.contains("lines 1–"), top)
        tmux.send("j")
        tmux.wait(forText: "lines 2–")
        tmux.send("NPage")
        tmux.send("NPage")
        tmux.send("NPage")
        let bottom = tmux.wait(forText: "Line 60 of the story.")
        XCTAssertTrue(bottom.contains("–61 of 61 · j k"), "the hint counts every line: \(bottom)")
        tmux.send("q")
        tmux.wait(for: "the box to close") { !$0.contains("j k PgUp PgDn") }
        tmux.send("q")
        XCTAssertTrue(tmux.waitForExit().contains("EXIT=0"))
    }

    /// The box's buttons take clicks; q cancels the question; f says when
    /// there are no pixels to switch to.
    func testBoxButtonsTakeClicksAndQCancelsTheQuestion() throws {
        let tmux = try open([nginx.url("/sun.png")], columns: 90, rows: 30)
        tmux.wait(forText: "Newly cached image")
        tmux.send("f")
        tmux.wait(forText: "This terminal shows no pixels here: block art only")
        tmux.send("c")
        let asked = tmux.wait(forText: "Do you really want to clear the cache?")
        XCTAssertTrue(tmux.click("[ Cancel (n) ]", in: asked))
        tmux.wait(for: "the question to close") { !$0.contains("Do you really want") }
        XCTAssertEqual(images().count, 1, "Cancel keeps the cache")
        tmux.send("c")
        tmux.wait(forText: "Do you really want to clear the cache?")
        tmux.send("q")
        let closed = tmux.wait(for: "q to close the question") { !$0.contains("Do you really want") }
        XCTAssertTrue(closed.contains("[ Display Image (d) ]"), "q closed the question, not the screen: \(closed)")
        XCTAssertEqual(images().count, 1)
        tmux.send("c")
        let again = tmux.wait(forText: "Do you really want to clear the cache?")
        XCTAssertTrue(tmux.click("[ OK (y) ]", in: again))
        tmux.wait(for: "the cache to clear") { _ in self.images().isEmpty }
        tmux.send("q")
        XCTAssertTrue(tmux.waitForExit().contains("EXIT=0"))
    }

    /// An entry that cannot be used shows its error and the others work; an
    /// entry never cached says "never"; neither opens a box.
    func testABadEntryShowsItsErrorAndTheOthersWork() throws {
        let list = try home.write(
            "mixed.plist",
            """
            <plist version="1.0"><array><string>\(nginx.url("/sun.png"))</string><string>not a url</string>
            <string>\(nginx.url("/missing.jpg"))</string></array></plist>
            """
        )
        let tmux = try open([], list: list)
        tmux.wait(forText: "Newly cached image")
        tmux.send("Right")
        let bad = tmux.wait(forText: "entry 2: \"not a url")
        XCTAssertTrue(bad.contains("Entry 2 (cannot be used)  2 of 3"), bad)
        XCTAssertTrue(bad.contains("Updated: never"), bad)
        XCTAssertFalse(bad.contains("OK (Enter)"), "no box to close: \(bad)")
        tmux.send("Right")
        let missing = tmux.wait(forText: "HTTP 404")
        XCTAssertTrue(missing.contains("Updated: never"), missing)
        XCTAssertFalse(missing.contains("OK (Enter)"), missing)
        tmux.send("d")
        tmux.wait(forText: "OK (Enter)")
        tmux.send("Enter")
        tmux.send("q")
        XCTAssertTrue(tmux.waitForExit().contains("EXIT=0"))
    }

    /// LANG=C: ncursesw writes nothing past ASCII there, so the toolbar, the
    /// boxes and the art are ASCII.
    func testACLocaleGetsASCII() throws {
        let tmux = try open([nginx.url("/earth.jpg")], environment: ["LANG": "C", "LC_ALL": "C"])
        let screen = tmux.wait(forText: "Newly cached image")
        XCTAssertTrue(screen.contains("[ < ] [ > ]"), screen)
        tmux.send("?")
        let help = tmux.wait(forText: "key closes this box.")
        XCTAssertTrue(help.contains("+----"), help)
        XCTAssertTrue(help.unicodeScalars.allSatisfy(\.isASCII), "nothing past ASCII: \(help)")
        XCTAssertTrue(help.contains(where: { "@%#*+=".contains($0) }), "the ascii art: \(help)")
        tmux.send("x")
        tmux.send("q")
        XCTAssertTrue(tmux.waitForExit().contains("EXIT=0"))
    }

    /// Emoji sequences are shown whole, as fetch prints them.
    func testEmojiSequencesAreShownWhole() throws {
        let list = try writeList(titled: [("Family 👨‍👩‍👧 flag 🇯🇵", nginx.url("/sun.png"))], in: home)
        let tmux = try open([], columns: 100, list: list)
        let screen = tmux.wait(forText: "Newly cached image")
        XCTAssertTrue(screen.contains("👨‍👩‍👧"), screen)
        XCTAssertTrue(screen.contains("🇯🇵"), screen)
        tmux.send("q")
        XCTAssertTrue(tmux.waitForExit().contains("EXIT=0"))
    }

    /// A TERM with no terminfo entry is named, and nothing is sent to that
    /// terminal first: no query shows up as text.
    func testAnUnknownTerminalTypeIsNamed() throws {
        let list = try writeList([nginx.url("/sun.png")], in: home)
        let tmux = try TmuxSession(
            [Paths.binary.path, "--config", list, "--cache-dir", cacheDir],
            environment: ["TERM": "nonexistent", "HOME": home.path, "LANG": "C.UTF-8"],
            columns: 100,
            rows: 10
        )
        session = tmux
        let screen = tmux.waitForExit()
        XCTAssertTrue(screen.contains("unknown terminal type TERM=nonexistent"), screen)
        XCTAssertFalse(screen.contains("Gi=31"), "no kitty query printed: \(screen)")
        XCTAssertTrue(screen.contains("EXIT=2"), screen)
    }

    /// A 503 with Retry-After, met in the screen: said on the status line
    /// with the image kept; Display Image asks nothing until then; `r`,
    /// which a person forces, still asks.
    func testRetryAfterIsHonouredInTheScreen() throws {
        let server = try ScriptedServer()
        defer { server.stop() }
        try copyFixture("earth.jpg", to: server.root)
        let script = server.root.file("script.json")
        try #"{"status": 200}"#.write(toFile: script, atomically: true, encoding: .utf8)
        let url = server.url("/scripted/earth.jpg")
        let seeded = try urlcache(
            ["fetch", "--url", url, "--cache-dir", cacheDir],
            home: home,
            environment: ["NO_PROXY": "127.0.0.1"]
        )
        XCTAssertEqual(seeded.status, 0, seeded.stderr)
        try age(seeded.lines[2], by: 25 * 3600)
        try #"{"status": 503, "headers": ["Retry-After: 600"]}"#.write(
            toFile: script,
            atomically: true,
            encoding: .utf8
        )

        let tmux = try open([url])
        let screen = tmux.wait(forText: "the server asked to wait until")
        XCTAssertTrue(screen.contains("Check failed, showing the cached image"), screen)
        XCTAssertGreaterThan(artWidth(screen), 20, "the image is kept: \(screen)")
        XCTAssertEqual(server.requests.count, 2)
        tmux.send("d")
        let asked = tmux.wait(forText: "request was made")
        XCTAssertTrue(asked.contains("OK (Enter)"), "pressed, so a box says it: \(asked)")
        XCTAssertEqual(server.requests.count, 2, "nothing asked before the time the server gave")
        tmux.send("Enter")
        tmux.wait(for: "the box to close") { !$0.contains("OK (Enter)") }
        tmux.send("r")
        tmux.wait(for: "the forced check") { _ in server.requests.count == 3 }
        // Its 503 opens a box once the check ends; Enter before it would be
        // lost, and q then only close the box.
        tmux.wait(forText: "OK (Enter)")
        tmux.send("Enter")
        tmux.wait(for: "the box to close") { !$0.contains("OK (Enter)") }
        tmux.send("q")
        XCTAssertTrue(tmux.waitForExit().contains("EXIT=0"))
    }
}

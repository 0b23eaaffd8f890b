import Foundation
import URLCacheHarness
import URLCacheTestSupport
import XCTest

/// The screen as a person meets it: the real binary in tmux against real
/// servers on 127.0.0.1.
final class ScreenTests: XCTestCase {
    var home: TemporaryDirectory!
    var nginx: Nginx!
    var session: TmuxSession?

    override func setUpWithError() throws {
        home = try TemporaryDirectory()
        nginx = try Nginx()
        try copyFixture("earth.jpg", to: nginx.root)
        try copyFixture("sun.png", to: nginx.root)
    }

    override func tearDown() {
        session = nil
        nginx?.stop()
        nginx = nil
        home = nil
    }

    var cacheDir: String { home.file("cache") }

    func open(
        _ urls: [String],
        columns: Int = 100,
        rows: Int = 32,
        extra: [String] = [],
        environment: [String: String] = [:],
        list given: String? = nil
    ) throws -> TmuxSession {
        let list = try given ?? writeList(urls, in: home)
        var env = [
            "TERM": "tmux-256color", "COLORTERM": "truecolor", "NO_COLOR": "", "HOME": home.path,
            "NO_PROXY": "127.0.0.1", "LANG": "C.UTF-8",
        ]
        for (key, value) in environment { env[key] = value }
        let session = try TmuxSession(
            [Paths.binary.path, "--config", list, "--cache-dir", cacheDir] + extra,
            environment: env,
            columns: columns,
            rows: rows
        )
        self.session = session
        return session
    }

    func images() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: cacheDir)) ?? []).filter { $0.hasSuffix(".img") }
    }

    /// Waits for `text` and for the art: the art is written just after the
    /// text ncurses draws, so a capture can fall between the two.
    @discardableResult
    private func wait(_ tmux: TmuxSession, forTextAndArt text: String) -> String {
        tmux.wait(for: "\"\(text)\" and the art") { $0.contains(text) && $0.contains(where: isBlockArt) }
    }

    /// The number of columns the art spans on the first image row.
    func artWidth(_ screen: String) -> Int {
        let lines = screen.split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.count > 3 else { return 0 }
        return lines[lines.count / 3].filter { isBlockArt($0) || $0 == " " }.count
    }

    func testFirstFrameShowsColouredArtStatusAndUpdated() throws {
        let tmux = try open([nginx.url("/earth.jpg"), nginx.url("/sun.png")])
        let screen = wait(tmux, forTextAndArt: "Newly cached image")
        XCTAssertNotNil(screen.firstMatch(of: /Updated: \d{1,2} \w{3} \d{4} at/), "the copy's date: \(screen)")
        XCTAssertTrue(screen.contains("1 of 2"), screen)
        XCTAssertTrue(screen.contains("[ Display Image (d) ] [ Clear Cache (c) ]"), screen)
        XCTAssertTrue(screen.contains("▀") || screen.contains("▄"), "block art on screen")
        let coloured = tmux.capture(escapes: true)
        XCTAssertTrue(coloured.contains("38;2;") && coloured.contains("48;2;"), "truecolour art")
        XCTAssertEqual(nginx.requests.count, 1)

        tmux.send("d")
        tmux.wait(forText: "Previously cached image")
        XCTAssertEqual(nginx.requests.count, 1, "Display Image on a fresh copy sends no request")

        tmux.send("Right")
        let second = tmux.wait(forText: "2 of 2")
        XCTAssertTrue(second.contains("127.0.0.1/sun.png"), second)
        tmux.wait(forText: "Newly cached image")
        XCTAssertEqual(nginx.requests.map(\.path), ["/earth.jpg", "/sun.png"])

        tmux.send("q")
        let end = tmux.waitForExit()
        XCTAssertTrue(end.contains("EXIT=0"), end)
        XCTAssertFalse(tmux.alternateScreenOn, "the terminal is back to its normal screen")
        XCTAssertTrue(
            end.contains("icanon echo") || end.contains("echo icanon"),
            "line editing and echo restored: \(end)"
        )
    }

    /// `a`: the catalogue in a box; Esc leaves everything as it was; a
    /// source picked with j and Enter is added to the list the screen
    /// reads, gone to, and checked at once (here it fails: the entry stays).
    func testTheCatalogueAddsASourceAndEscapeLeavesAllAsItWas() throws {
        let list = try writeList(titled: [("Earth", nginx.url("/earth.jpg"))], in: home)
        let before = try XCTUnwrap(FileManager.default.contents(atPath: list))
        // Whatever the network here, the source's check fails: through a
        // proxy that refuses.
        let tmux = try open([], environment: ["https_proxy": "http://127.0.0.1:1"], list: list)
        wait(tmux, forTextAndArt: "Earth")
        tmux.send("a")
        XCTAssertTrue(tmux.wait(forText: "Add a source").contains("▸ bing"))
        tmux.send("Escape")
        let closed = tmux.wait(forText: "Newly cached image")
        XCTAssertFalse(closed.contains("Add a source"), closed)
        XCTAssertEqual(FileManager.default.contents(atPath: list), before, "the list untouched")
        tmux.send("a")
        tmux.wait(forText: "Add a source")
        tmux.send("j")
        XCTAssertTrue(tmux.wait(forText: "▸ apod").contains("Astronomy Picture of the Day"))
        tmux.send("Enter")
        let added = tmux.wait(forText: "2 of 2")
        XCTAssertTrue(added.contains("Astronomy Picture of the Day"), added)
        let written = try String(contentsOfFile: list, encoding: .utf8)
        XCTAssertTrue(written.contains("science.nasa.gov/wp-json/wp/v2/apod-basic"), written)
        XCTAssertTrue(written.contains(nginx.url("/earth.jpg")), "the entry before it kept")
        // Checked at once, and failed: in a box, as for a Display Image pressed.
        XCTAssertTrue(tmux.wait(forText: "Error").contains("127.0.0.1"))
        tmux.send("Enter")
        tmux.send("q")
        XCTAssertTrue(tmux.waitForExit().contains("EXIT=0"))
    }

    /// The screen runs onNewImage on a thread of its own: keys are
    /// answered while the hook still runs, and the hook does finish.
    /// `--entry`: the screen opens at an entry, by number or by title, and
    /// checks that one first; a number the list has not is one line, exit 2.
    func testTheScreenOpensAtTheEntryAsked() throws {
        let urls = [nginx.url("/earth.jpg"), nginx.url("/sun.png")]
        let tmux = try open(urls, extra: ["--entry", "2"])
        let screen = wait(tmux, forTextAndArt: "Newly cached image")
        XCTAssertTrue(screen.contains("2 of 2"), screen)
        XCTAssertTrue(screen.contains("127.0.0.1/sun.png"), screen)
        XCTAssertEqual(nginx.requests.map(\.path), ["/sun.png"], "the entry asked is the one checked")
        tmux.send("q")
        XCTAssertTrue(tmux.waitForExit().contains("EXIT=0"))

        let list = try writeList(titled: [("Earth", urls[0]), ("Sun", urls[1])], in: home)
        let titled = try open([], extra: ["--entry", "sun"], list: list)
        XCTAssertTrue(wait(titled, forTextAndArt: "Sun").contains("2 of 2"))
        titled.send("q")
        XCTAssertTrue(titled.waitForExit().contains("EXIT=0"))

        let wrong = try urlcache(["--entry", "3", "--config", list, "--cache-dir", cacheDir], home: home)
        XCTAssertEqual(wrong.status, 2)
        XCTAssertEqual(wrong.stderr, "urlcache: --entry 3: the list has 2 entries (urlcache list shows them)\n")
    }

    func testTheHookRunsInTheBackground() throws {
        let marker = home.file("hook-done")
        let list = try home.write(
            "hooked.plist",
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict><key>onNewImage</key><array><string>/bin/sh</string><string>-c</string>
            <string>sleep 4; touch "$1"</string><string>hook</string><string>\(marker)</string></array>
            <key>images</key><array><string>\(nginx.url("/sun.png"))</string></array></dict></plist>
            """
        )
        let tmux = try open([], list: list)
        tmux.wait(forText: "Newly cached image")
        tmux.send("?")
        tmux.wait(forText: "key closes this box.")
        XCTAssertFalse(FileManager.default.fileExists(atPath: marker), "the help came while the hook still ran")
        tmux.send("Escape")
        let deadline = Date().addingTimeInterval(30)
        while !FileManager.default.fileExists(atPath: marker), Date() < deadline { usleep(100_000) }
        XCTAssertTrue(FileManager.default.fileExists(atPath: marker), "the hook ran to its end")
        tmux.send("q")
        XCTAssertTrue(tmux.waitForExit().contains("EXIT=0"))
    }

    func testALateTerminalReplyIsNotTakenForKeys() throws {
        let tmux = try open([nginx.url("/sun.png")])
        tmux.wait(forText: "Newly cached image")
        // kitty's answer and DA1, as a slow terminal would send them after
        // detection gave up. Taken for keys, DA1's "c" would open Clear
        // Cache's question, which "?" does not close: no help would come.
        _ = try tmux.tmux(["send-keys", "-l", "\u{1B}_Gi=31;OK\u{1B}\\\u{1B}[?62;4;22c"])
        tmux.send("?")
        let screen = tmux.wait(forText: "key closes this box.")
        XCTAssertFalse(screen.contains("Do you really want"), screen)
        XCTAssertFalse(screen.contains("62;4"), screen)
        tmux.send("Escape")
        tmux.wait(for: "the help to close") { !$0.contains("key closes this box") }
        tmux.send("c")
        tmux.wait(forText: "Do you really want to clear the cache?")
    }

    func testAFeedsTitleCreditAndDescriptionAndOffline() throws {
        let feed = try String(contentsOf: Fixtures.feeds.appendingPathComponent("apod.json"), encoding: .utf8)
            .replacingOccurrences(of: "{{BASE}}/image/hd/andromeda.jpg", with: nginx.url("/earth.jpg"))
        try Data(feed.utf8).write(to: URL(fileURLWithPath: nginx.root.file("apod.json")))
        let list = try home.write(
            "feed.plist",
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><array><dict><key>title</key><string>APOD</string>
            <key>feed</key><string>\(nginx.url("/apod.json"))</string></dict></array></plist>
            """
        )
        let tmux = try open([], list: list)
        let screen = wait(tmux, forTextAndArt: "Newly cached image")
        XCTAssertTrue(screen.contains("urlcache · APOD · Andromeda Rising © Jane Stargazer"), screen)
        tmux.send("i")
        let about = tmux.wait(forText: "quiet valley.")
        XCTAssertTrue(about.contains("What's that glowing over the ridge?"), about)
        tmux.send("Escape")
        tmux.send("o")
        tmux.send("r")
        let offline = tmux.wait(forText: "[offline] Offline: cached image, no request made")
        XCTAssertFalse(offline.contains("quiet valley."), "the box closed")
        XCTAssertEqual(nginx.requests.map(\.path), ["/apod.json", "/earth.jpg"], "offline: no request")
        tmux.send("q")
        tmux.waitForExit()
    }

    /// A feed offering its picture in several sizes (Wikipedia's, in
    /// MediaWiki's thumbnail steps): the screen takes the smallest that
    /// fills its picture area; `fetch`, for a wallpaper hook, then takes the
    /// largest, reading the feed again whole although it did not change.
    func testTheScreenTakesTheSizeThatFillsItAndFetchTheLargest() throws {
        let stem = "/wikipedia/commons/thumb/a/ab/Red_fox.jpg/"
        for width in [250, 300, 330, 450, 500, 600, 960, 1280, 1920, 3840] {
            try FileManager.default.createDirectory(
                atPath: nginx.root.file(String(stem.dropFirst())),
                withIntermediateDirectories: true
            )
            try copyFixture("earth.jpg", to: nginx.root, as: String(stem.dropFirst()) + "\(width)px-Red_fox.jpg")
        }
        let feed = try String(contentsOf: Fixtures.feeds.appendingPathComponent("wikipedia-potd.rss"), encoding: .utf8)
        try Data(feed.replacingOccurrences(of: "{{BASE}}", with: nginx.url("")).utf8)
            .write(to: URL(fileURLWithPath: nginx.root.file("potd.rss")))
        let list = try home.write(
            "feed.plist",
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><array><dict><key>title</key><string>POTD</string>
            <key>feed</key><string>\(nginx.url("/potd.rss"))</string></dict></array></plist>
            """
        )
        let tmux = try open([], list: list)
        wait(tmux, forTextAndArt: "Newly cached image")
        tmux.send("i")
        let about = tmux.wait(forText: " screen ")
        // The area is the picture's cells in the terminal's pixels (as tmux
        // answers CSI 16 t): the smallest step that fills it is taken.
        let words = about.components(separatedBy: "Size: ").last?.split(separator: " ") ?? []
        let area = words.count > 6 ? words[6].split(separator: "x").compactMap { Int($0) } : []
        XCTAssertEqual(area.count, 2, about)
        let widths = [250, 300, 330, 450, 500, 600, 960, 1280, 1920, 3840]
        let fills = widths.first { $0 >= area.first ?? 0 || $0 * 2667 / 4000 >= area.last ?? 0 } ?? 3840
        XCTAssertLessThan(fills, 3840, "the window is smaller than the largest")
        XCTAssertEqual(nginx.requests.map(\.path), ["/potd.rss", stem + "\(fills)px-Red_fox.jpg"])
        XCTAssertTrue(about.contains("Size: \(fills)x"), about)
        tmux.send("Escape")
        tmux.send("q")
        tmux.waitForExit()

        let fetch = try urlcache(["fetch", "--config", list, "--cache-dir", cacheDir], home: home)
        XCTAssertEqual(fetch.status, 0, fetch.stderr)
        XCTAssertTrue(fetch.lines.contains("Size: the largest of 10 sizes (3840x2560)"), fetch.stdout)
        XCTAssertEqual(nginx.requests.dropFirst(2).map(\.path), ["/potd.rss", stem + "3840px-Red_fox.jpg"])
        XCTAssertEqual(nginx.requests[2].ifModifiedSince, nil, "the feed read again whole")
        // The largest serves every ask after it: fresh, no request.
        let again = try urlcache(
            ["fetch", "--fetch-size", "screen", "--config", list, "--cache-dir", cacheDir],
            home: home
        )
        XCTAssertEqual(again.lines.first, "Previously cached image")
        let listed = try urlcache(["list", "--config", list, "--cache-dir", cacheDir], home: home)
        XCTAssertTrue(listed.stdout.contains("   Size: the largest of 10 sizes (3840x2560)"), listed.stdout)
        XCTAssertEqual(nginx.requests.count, 4)
    }

    func testBracketsStepThroughTheKeptImages() throws {
        try copyFixture("earth.jpg", to: nginx.root, as: "daily.jpg")
        let list = try writeList([nginx.url("/daily.jpg")], in: home)
        let first = try urlcache(["fetch", "--config", list, "--cache-dir", cacheDir], home: home)
        try copyFixture("sun.png", to: nginx.root, as: "daily.jpg")
        try age(first.lines[2], by: 25 * 3600)
        let tmux = try open([], list: list)
        let current = wait(tmux, forTextAndArt: "Newly cached image")
        tmux.send("[")
        let older = tmux.wait(forText: "2 of 2 · ")
        XCTAssertTrue(older.contains(UpdatedFormatDay.today()), older)
        // The art itself changes (the status alone changes at once): until
        // the kept image is decoded and drawn, `]` would be dropped.
        let art = { (screen: String) in screen.split(separator: "\n").filter { $0.contains(where: isBlockArt) } }
        tmux.wait(for: "the earlier image's art") {
            art($0) != art(current) && $0.contains("2 of 2") && self.artWidth($0) > 0
        }
        tmux.send("[")
        tmux.send("]")
        tmux.wait(forText: "1 of 2 · ")
        tmux.send("q")
        tmux.waitForExit()
        XCTAssertEqual(nginx.requests.count, 2, "the history needs no network")
    }

    func testClearCacheAsksThenEmptiesCacheAndFields() throws {
        let tmux = try open([nginx.url("/sun.png")])
        tmux.wait(forText: "Newly cached image")
        XCTAssertEqual(images().count, 1)
        tmux.send("c")
        tmux.wait(forText: "Do you really want to clear the cache?")
        tmux.send("n")
        tmux.wait(for: "the question to close") { !$0.contains("Do you really want") }
        XCTAssertEqual(images().count, 1, "Cancel keeps the cache")
        tmux.send("c")
        tmux.wait(forText: "Do you really want to clear the cache?")
        tmux.send("y")
        let screen = tmux.wait(for: "the fields to empty") {
            !$0.contains("Newly cached image") && !$0.contains("Do you really")
        }
        XCTAssertEqual(images(), [])
        XCTAssertTrue(
            screen.split(separator: "\n").contains { $0.trimmingCharacters(in: .whitespaces) == "Updated:" },
            screen
        )
        tmux.send("q")
        XCTAssertTrue(tmux.waitForExit().contains("EXIT=0"))
    }

    /// The toolbar answers the mouse as it answers keys.
    func testToolbarButtonsAnswerClicks() throws {
        let tmux = try open([nginx.url("/sun.png")], columns: 90, rows: 30)
        let screen = tmux.wait(forText: "Newly cached image")
        func click(_ label: String, in screen: String) {
            XCTAssertTrue(tmux.click(label, in: screen), "no \(label) on screen:\n\(screen)")
        }
        click("[ Clear Cache (c) ]", in: screen)
        tmux.wait(forText: "Do you really want to clear the cache?")
        tmux.send("n")
        let after = tmux.wait(for: "the question to close") { !$0.contains("Do you really want") }
        XCTAssertEqual(images().count, 1)
        click("[ Display Image (d) ]", in: after)
        tmux.wait(forText: "Previously cached image")
        XCTAssertEqual(nginx.requests.count, 1, "a click on Display Image follows the policy: fresh, no request")
        click("[ q ]", in: tmux.capture())
        XCTAssertTrue(tmux.waitForExit().contains("EXIT=0"))
    }

    func testSlowDownloadShowsProgressAndEscCancels() throws {
        let server = try ScriptedServer()
        defer { server.stop() }
        try copyFixture("earth.jpg", to: server.root)
        let tmux = try open([server.url("/slow/earth.jpg?delay=1")])
        let loading = tmux.wait(for: "a progress bar") { $0.contains("%") && $0.contains("Esc cancels") }
        XCTAssertTrue(loading.contains(" of "), loading)
        tmux.send("d")  // disabled while loading
        tmux.send("Escape")
        let screen = tmux.wait(forText: "Download cancelled")
        XCTAssertFalse(screen.contains("Error"), "a cancel is not an error")
        XCTAssertEqual(images(), [], "nothing cached")
        XCTAssertEqual(
            ((try? FileManager.default.contentsOfDirectory(atPath: cacheDir)) ?? []).filter { $0.contains(".tmp.") },
            []
        )
        tmux.send("q")
        XCTAssertTrue(tmux.waitForExit().contains("EXIT=0"))
    }

    /// RFC 5861 under `--freshness server`: a copy in its
    /// stale-while-revalidate window is drawn at once, said to be checked,
    /// while the (slow) check goes on; past the window the check comes first.
    func testAStaleWhileRevalidateCopyIsShownWhileItIsChecked() throws {
        let server = try ScriptedServer()
        defer { server.stop() }
        try copyFixture("earth.jpg", to: server.root)
        let url = server.url("/as/earth.jpg")
        func script(_ cacheControl: String, delay: Double) throws {
            try "scripted".write(toFile: server.root.file("mode"), atomically: true, encoding: .utf8)
            let json = try JSONSerialization.data(withJSONObject: [
                "status": 200, "headers": ["Cache-Control: " + cacheControl], "delay": delay,
            ])
            try json.write(to: URL(fileURLWithPath: server.root.file("script.json")))
        }
        for (cacheControl, window) in [("max-age=60, stale-while-revalidate=86400", true), ("max-age=60", false)] {
            try? FileManager.default.removeItem(atPath: cacheDir)
            try script(cacheControl, delay: 0)
            let first = try urlcache(
                ["fetch", "--url", url, "--cache-dir", cacheDir, "--freshness", "server"],
                home: home
            )
            XCTAssertEqual(first.status, 0, first.stderr)
            try age(first.lines[2], by: 2 * 3600)
            try script(cacheControl, delay: 3)
            let tmux = try open([url], extra: ["--freshness", "server"])
            let shown = tmux.wait(for: "the art") { $0.contains(where: isBlockArt) }
            if window {
                XCTAssertTrue(shown.contains("Stale copy shown while it is checked (stale-while-revalidate)"), shown)
                XCTAssertFalse(shown.contains("up to date"), shown)
                tmux.wait(forText: "Cached image is up to date")
            } else {
                XCTAssertTrue(shown.contains("Cached image is up to date"), "the check first: \(shown)")
                XCTAssertFalse(shown.contains("stale-while-revalidate"), shown)
            }
            tmux.send("q")
            XCTAssertTrue(tmux.waitForExit().contains("EXIT=0"))
        }
    }

    func testResizeReRendersAndTooSmallSaysSo() throws {
        // 800x600: more pixels than either window shows, so a larger window needs more of them.
        try copyFixture("large.png", to: nginx.root)
        let log = home.file("screen.log")
        let tmux = try open([nginx.url("/large.png")], columns: 80, rows: 24, extra: ["--log-file", log])
        let small = wait(tmux, forTextAndArt: "Newly cached image")
        let before = artWidth(small)
        tmux.resize(columns: 160, rows: 50)
        let large = tmux.wait(for: "a larger picture") { self.artWidth($0) > before + 20 }
        XCTAssertGreaterThan(artWidth(large), before)
        XCTAssertTrue(large.contains("Newly cached image"), "a decode for the new size changes nothing else: \(large)")
        XCTAssertEqual(nginx.requests.count, 1, "re-rendered from the cache, nothing fetched")
        let entries = try String(contentsOfFile: log, encoding: .utf8)
        XCTAssertTrue(
            entries.contains("window grew: decoding again"),
            "the grown window got the file decoded at its size: \(entries)"
        )
        tmux.resize(columns: 30, rows: 10)
        tmux.wait(forText: "Terminal too small")
        tmux.resize(columns: 80, rows: 24)
        tmux.wait(forText: "Newly cached image")
        tmux.send("C-c")
        XCTAssertTrue(tmux.waitForExit().contains("EXIT=0"), "Ctrl-C quits cleanly")
        XCTAssertFalse(tmux.alternateScreenOn)
    }

    func testAResizeDuringADownloadGetsTheImageDecodedForTheNewSize() throws {
        let server = try ScriptedServer()
        defer { server.stop() }
        try copyFixture("large.png", to: server.root)
        let log = home.file("screen.log")
        let tmux = try open([server.url("/slow/large.png?delay=1")], columns: 80, rows: 24, extra: ["--log-file", log])
        tmux.wait(for: "a progress bar") { $0.contains("%") && $0.contains("Esc cancels") }
        tmux.resize(columns: 160, rows: 50)
        let shown = wait(tmux, forTextAndArt: "Newly cached image")
        XCTAssertGreaterThan(artWidth(shown), 90, "laid out for the larger window: \(shown)")
        let entries = try String(contentsOfFile: log, encoding: .utf8)
        XCTAssertTrue(
            entries.contains("window grew: decoding again"),
            "decoded for 80x24 when the load started, then again for 160x50: \(entries)"
        )
        XCTAssertEqual(server.requests.count, 1, "decoded again from the cache, nothing fetched")
        tmux.send("q")
        XCTAssertTrue(tmux.waitForExit().contains("EXIT=0"))
    }

    func testErrorsComeUpInAnAlertAndKeepTheImage() throws {
        let tmux = try open([nginx.url("/earth.jpg")], extra: ["--refresh-interval", "0"])
        tmux.wait(forText: "Newly cached image")
        try FileManager.default.removeItem(atPath: nginx.root.file("earth.jpg"))
        tmux.send("d")
        let alert = tmux.wait(forText: "HTTP 404")
        XCTAssertTrue(alert.contains("OK (Enter)"), alert)
        tmux.send("Enter")
        let screen = tmux.wait(for: "the alert to close") { !$0.contains("OK (Enter)") }
        XCTAssertTrue(screen.contains("showing the cached image"), screen)
        XCTAssertTrue(screen.contains("▀") || screen.contains("▄"), "the image stays")
        XCTAssertEqual(images().count, 1)
        tmux.send("q")
        XCTAssertTrue(tmux.waitForExit().contains("EXIT=0"))
    }

    /// The terminal is restored, then the process ends by the signal, as
    /// the shell expects (143, 129): it used to exit 0 (#24).
    func testSigtermRestoresTheTerminal() throws {
        try signalRestoresTheTerminal("-TERM", status: 143)
    }

    func testSighupRestoresTheTerminal() throws {
        try signalRestoresTheTerminal("-HUP", status: 129)
    }

    private func signalRestoresTheTerminal(_ signal: String, status: Int) throws {
        let tmux = try open([nginx.url("/sun.png")])
        tmux.wait(forText: "Newly cached image")
        // Only the binary's own command line starts with its path (not the shell's).
        let killed = try runProgram(
            URL(fileURLWithPath: "/usr/bin/pkill"),
            [signal, "-f", "^\(Paths.binary.path) .*\(cacheDir)"]
        )
        XCTAssertEqual(killed.status, 0, "pkill found the process")
        let end = tmux.waitForExit()
        XCTAssertTrue(end.contains("EXIT=\(status)"), end)
        XCTAssertFalse(tmux.alternateScreenOn)
        XCTAssertTrue(end.contains("icanon echo") || end.contains("echo icanon"), end)
    }

    func testHostileTitleIsShownHarmlessly() throws {
        let list = try home.write(
            "evil.plist",
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><array>
            <dict><key>title</key><string>Evil &#27;[31mred&#27;[2J title</string>
            <key>url</key><string>\(nginx.url("/sun.png"))</string></dict>
            </array></plist>
            """
        )
        let session = try TmuxSession(
            [Paths.binary.path, "--config", list, "--cache-dir", cacheDir],
            environment: ["TERM": "tmux-256color", "HOME": home.path, "NO_PROXY": "127.0.0.1"]
        )
        self.session = session
        let screen = session.wait(forText: "Newly cached image")
        XCTAssertTrue(
            screen.contains("Evil \u{FFFD}[31mred\u{FFFD}[2J title"),
            "the escapes are shown, not obeyed: \(screen)"
        )
        session.send("q")
        XCTAssertTrue(session.waitForExit().contains("EXIT=0"))
    }

    func testDumbTerminalGetsAOneLineMessage() throws {
        let tmux = try open([nginx.url("/sun.png")], environment: ["TERM": "dumb"])
        let end = tmux.waitForExit()
        XCTAssertTrue(end.contains("EXIT=2"), end)
        XCTAssertTrue(end.contains("urlcache render"), end)
    }

    func testPaletteTerminalsGet256Colours() throws {
        let tmux = try open([nginx.url("/earth.jpg")], environment: ["COLORTERM": "", "TERM": "tmux-256color"])
        tmux.wait(forText: "Newly cached image")
        let coloured = tmux.capture(escapes: true)
        XCTAssertTrue(coloured.contains("38;5;") || coloured.contains("48;5;"), "256 colours")
        XCTAssertFalse(coloured.contains("38;2;"))
        tmux.send("q")
        _ = tmux.waitForExit()
    }

    /// A title as a feed might bring it: CJK, an emoji, longer than the line.
    private let fuji = "富士山の日の出 🌄 — Sunrise over Mount Fuji from Lake Kawaguchi"

    func testWideTitleStaysOnItsLineAt60Columns() throws {
        let list = try writeList(
            titled: [(fuji, nginx.url("/earth.jpg")), ("sun.png", nginx.url("/sun.png"))],
            in: home
        )
        let tmux = try open([], columns: 60, rows: 24, list: list)
        let screen = tmux.wait(forText: "Newly cached image")
        let lines = screen.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        XCTAssertTrue(lines[0].hasPrefix(" urlcache · 富士山の日の出 🌄"), lines[0])
        XCTAssertTrue(lines[0].trimmingCharacters(in: .whitespaces).hasSuffix("…  1 of 2"), lines[0])
        XCTAssertTrue(
            lines[1].allSatisfy { isBlockArt($0) || $0 == " " },
            "the picture's first row is art only: \(lines[1])"
        )
        XCTAssertTrue(lines[23].contains("[ Display(d) ]") && lines[23].contains("[ ? ] [ q ]"), lines[23])
        tmux.send("q")
        XCTAssertTrue(tmux.waitForExit().contains("EXIT=0"))
    }

    func testListCutsWideTitlesToTheTerminalWidth() throws {
        let list = try writeList(titled: [(fuji, nginx.url("/earth.jpg"))], in: home)
        let piped = try urlcache(["list", "--config", list, "--cache-dir", cacheDir], home: home)
        XCTAssertTrue(piped.stdout.contains("1. " + fuji), "piped, nothing is cut: \(piped.stdout)")
        let tmux = try TmuxSession(
            [Paths.binary.path, "list", "--config", list, "--cache-dir", cacheDir],
            environment: ["LANG": "C.UTF-8", "HOME": home.path],
            columns: 40,
            rows: 12
        )
        session = tmux
        let screen = tmux.waitForExit()
        let titleLine = screen.split(separator: "\n").first { $0.hasPrefix("1. ") }.map(String.init) ?? ""
        XCTAssertTrue(titleLine.hasPrefix("1. 富士山の日の出 🌄") && titleLine.hasSuffix("…"), screen)
        XCTAssertFalse(screen.contains("Kawaguchi"), "no line wrapped: \(screen)")
        XCTAssertTrue(screen.contains("not cached"), screen)
    }

    /// The screen's process, found under the tmux pane's shell.
    private func screenPID(_ tmux: TmuxSession) throws -> Int32 {
        let shell = try tmux.tmux(["display", "-p", "#{pane_pid}"]).trimmingCharacters(in: .whitespacesAndNewlines)
        let children = try runProgram(URL(fileURLWithPath: "/usr/bin/pgrep"), ["-P", shell])
        return try XCTUnwrap(
            children.lines.compactMap { Int32($0) }.first,
            "no process under the pane's shell \(shell)"
        )
    }

    func testIdleScreenMakesNoSystemCall() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/strace") else {
            throw XCTSkip("strace is not installed (Scripts/test installs it)")
        }
        let tmux = try open([nginx.url("/earth.jpg")])
        tmux.wait(forText: "Newly cached image")
        let pid = try screenPID(tmux)
        let trace = home.file("idle.trace")
        // Five idle seconds, every thread of the process traced.
        let strace = try runProgram(
            URL(fileURLWithPath: "/usr/bin/timeout"),
            ["-s", "INT", "5", "/usr/bin/strace", "-f", "-p", "\(pid)", "-o", trace]
        )
        let lines = try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n").map(String.init)
        if lines.isEmpty || strace.stderr.contains("Operation not permitted") {
            throw XCTSkip("strace could not attach here: \(strace.stderr)")
        }
        // Attaching and detaching interrupt the poll the loop sleeps in; anything else is a call the idle loop made.
        let calls = lines.filter { line in
            !line.contains("restart_syscall") && !line.contains("resumed>") && !line.contains("+++")
                && !line.contains("---")
                && !line.contains("<unfinished ...>")
        }
        XCTAssertEqual(calls, [], "system calls while idle:\n\(lines.joined(separator: "\n"))")
        // The sleep strace found the loop in, and resumed (poll, shown as restart_syscall).
        XCTAssertTrue(lines.contains { $0.contains("restart_syscall") || $0.contains("poll(") }, "\(lines)")
        tmux.send("q")
        XCTAssertTrue(tmux.waitForExit().contains("EXIT=0"))
    }

    func testFirstLaunchShowsTheBundledPictureLabelledAndKeepsItWhenTheCheckFails() throws {
        // The built-in list, nothing cached, and the network refused: the
        // proxy its https requests must go through is a closed port.
        let env = [
            "TERM": "tmux-256color", "COLORTERM": "truecolor", "NO_COLOR": "", "HOME": home.path, "LANG": "C.UTF-8",
            "XDG_CONFIG_HOME": home.file("config"), "https_proxy": "http://127.0.0.1:9", "no_proxy": "",
        ]
        let tmux = try TmuxSession(
            [Paths.binary.path, "--cache-dir", cacheDir],
            environment: env,
            columns: 100,
            rows: 32
        )
        session = tmux
        // The failure is said on the status line under the picture, naming
        // the proxy: no box stands between a new user and the picture.
        let screen = tmux.wait(forText: "could not reach the proxy 127.0.0.1:9 (https_proxy)")
        XCTAssertTrue(screen.contains("Updated: never (Bundled image, not yet downloaded)"), screen)
        XCTAssertFalse(screen.contains("OK (Enter)"), screen)
        XCTAssertGreaterThan(artWidth(screen), 20, "the picture stays after the failed check: \(screen)")
        XCTAssertEqual(images(), [], "the bundled picture is never written to the cache")
        // Nor can it be saved: it is not in the cache.
        tmux.send("s")
        tmux.wait(forText: "Nothing cached to save yet: Display Image first")
        XCTAssertFalse(FileManager.default.fileExists(atPath: home.file("Pictures")))
        tmux.send("q")
        XCTAssertTrue(tmux.waitForExit().contains("EXIT=0"))

        // The commands never show it as cached.
        let commandEnv = ["https_proxy": "http://127.0.0.1:9", "no_proxy": ""]
        let list = try urlcache(["list", "--cache-dir", cacheDir], home: home, environment: commandEnv)
        XCTAssertTrue(
            list.stdout.contains(
                "GOES-East full disk (GeoColor)\n   https://cdn.star.nesdis.noaa.gov/GOES19/ABI/FD/GEOCOLOR/1808x1808.jpg\n   not cached"
            ),
            list.stdout
        )
        let fetch = try urlcache(["fetch", "--cache-dir", cacheDir], home: home, environment: commandEnv)
        XCTAssertEqual(fetch.status, 1, fetch.stdout + fetch.stderr)
        XCTAssertEqual(fetch.stdout, "")
        let render = try urlcache(
            [
                "render", "https://cdn.star.nesdis.noaa.gov/GOES19/ABI/FD/GEOCOLOR/1808x1808.jpg", "--cache-dir",
                cacheDir,
            ],
            home: home,
            environment: commandEnv
        )
        XCTAssertEqual(render.status, 1)
        XCTAssertEqual(render.stdout, "")
        XCTAssertEqual(images(), [])
    }

    /// A download that is a truncated JPEG is not an image to keep (#24:
    /// it used to be cached and shown partially): the screen says what is
    /// wrong with it and caches nothing. A local file given to `render` is
    /// still shown as far as it goes (RenderCommandTests).
    func testTruncatedJPEGDownloadIsRefusedAndSaidSo() throws {
        try FileManager.default.copyItem(
            atPath: Fixtures.jpeg.appendingPathComponent("truncated.jpg").path,
            toPath: nginx.root.file("truncated.jpg")
        )
        let tmux = try open([nginx.url("/truncated.jpg")])
        tmux.wait(forText: "the server's image is cut short")
        XCTAssertEqual(images(), [])
        tmux.send("q")
        XCTAssertTrue(tmux.waitForExit().contains("EXIT=0"))
    }

    func testArtLeavesNoGhostsUnderBoxesOrBehindAnotherEntry() throws {
        let tmux = try open([nginx.url("/earth.jpg"), nginx.url("/missing.jpg")])
        wait(tmux, forTextAndArt: "Newly cached image")
        let blocks: (Character) -> Bool = isBlockArt
        tmux.send("?")
        let help = tmux.wait(forText: "key closes this box.")
        // Between the box's borders, nothing of the picture shows through.
        for line in help.split(separator: "\n") {
            guard let first = line.firstIndex(of: "│"), let last = line.lastIndex(of: "│"), first < last else {
                continue
            }
            XCTAssertFalse(line[line.index(after: first)..<last].contains(where: blocks), "inside the box: \(line)")
        }
        XCTAssertGreaterThan(artWidth(help), 10, "the picture around the box stays")
        tmux.send("x")
        let closed = tmux.wait(for: "the box to close") { !$0.contains("key closes this box") }
        XCTAssertGreaterThan(artWidth(closed), 20, "the picture is whole again: \(closed)")
        tmux.send("Right")
        let second = tmux.wait(forText: "HTTP 404")
        XCTAssertFalse(second.contains(where: blocks), "nothing of the first picture is left: \(second)")
        XCTAssertFalse(
            second.contains("OK (Enter)"),
            "moving to an entry reports on the status line, with no box: \(second)"
        )
        tmux.send("Left")
        let back = tmux.wait(for: "the first picture again") { self.artWidth($0) > 20 }
        XCTAssertTrue(back.contains("1 of 2"), back)
        tmux.send("q")
        XCTAssertTrue(tmux.waitForExit().contains("EXIT=0"))
    }
}

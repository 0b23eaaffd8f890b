import Foundation
import URLCacheHarness
import URLCacheTestSupport
import XCTest

/// The rough edges a new user met (#25), where they met them: the command
/// line, against a real server on 127.0.0.1.
final class RoughEdgeTests: XCTestCase {
    var home: TemporaryDirectory!
    var server: ScriptedServer!

    override func setUpWithError() throws {
        home = try TemporaryDirectory()
        server = try ScriptedServer()
        try copyFixture("earth.jpg", to: server.root)
    }

    override func tearDown() {
        server?.stop()
        server = nil
        home = nil
    }

    private var direct: [String: String] { ["NO_PROXY": "127.0.0.1"] }

    func testAMistypedCommandIsNamedWithTheOneMeant() throws {
        let result = try urlcache(["fecth", "--all"], home: home)
        XCTAssertEqual(result.status, 2)
        XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, result.stderr)
        XCTAssertTrue(result.stderr.contains("unknown command 'fecth'; did you mean 'fetch'?"), result.stderr)
        let far = try urlcache(["wallpaper"], home: home)
        XCTAssertEqual(far.status, 2)
        XCTAssertTrue(far.stderr.contains("unknown command 'wallpaper' (commands: show, fetch"), far.stderr)
    }

    func testNegativeNumbersAreRefusedInWords() throws {
        let entry = try urlcache(["fetch", "--entry", "-1"], home: home)
        XCTAssertEqual(entry.status, 2)
        XCTAssertTrue(entry.stderr.contains("--entry must be 1 or more"), entry.stderr)
        XCTAssertFalse(entry.stderr.contains("Missing value"), entry.stderr)
        let interval = try urlcache(["fetch", "--refresh-interval", "-1"], home: home)
        XCTAssertEqual(interval.status, 2)
        XCTAssertTrue(interval.stderr.contains("--refresh-interval must be 0 or more seconds"), interval.stderr)
    }

    /// Misspelt keys are warned of once each; a bad entry is reported where
    /// it is used and the others still work.
    func testAListWithMistakesStillWorksAndSaysWhatToFix() throws {
        let list = try home.write(
            "list.plist",
            """
            <plist version="1.0"><dict><key>refreshIntervall</key><integer>60</integer>
            <key>images</key><array>
            <dict><key>titel</key><string>Earth</string><key>url</key><string>\(server.url("/plain/earth.jpg"))</string></dict>
            <string>not a url</string>
            </array></dict></plist>
            """
        )
        let all = try urlcache(["fetch", "--all", "--config", list], home: home, environment: direct)
        XCTAssertEqual(all.status, 2, "an entry the list cannot use is a config error: \(all.stderr)")
        XCTAssertTrue(all.stdout.contains("Newly cached image"), all.stdout)
        let warnings = all.stderr.split(separator: "\n").filter { $0.contains("warning:") }
        XCTAssertEqual(warnings.count, 2, all.stderr)
        XCTAssertTrue(
            all.stderr.contains("unknown key \"refreshIntervall\"; did you mean \"refreshInterval\"?"),
            all.stderr
        )
        XCTAssertTrue(all.stderr.contains("entry 1: unknown key \"titel\"; did you mean \"title\"?"), all.stderr)
        XCTAssertTrue(all.stderr.contains("entry 2: \"not a url\" is not a URL"), all.stderr)

        let listed = try urlcache(["list", "--config", list], home: home)
        XCTAssertEqual(listed.status, 0, listed.stderr)
        XCTAssertTrue(
            listed.stdout.contains(
                "2. Entry 2 (cannot be used)\n   URL list \(list), entry 2: \"not a url\" is not a URL"
            ),
            listed.stdout
        )
        let second = try urlcache(["fetch", "--entry", "2", "--config", list], home: home)
        XCTAssertEqual(second.status, 2)
        XCTAssertTrue(second.stderr.hasSuffix("entry 2: \"not a url\" is not a URL\n"), second.stderr)
    }

    func testABrokenListSaysWhereAndANumberOutOfRangeSaysWhich() throws {
        let broken = try home.write(
            "broken.plist",
            "<plist><dict><key>keep</key>\n  <integer>3</intger></dict></plist>"
        )
        let result = try urlcache(["fetch", "--config", broken], home: home)
        XCTAssertEqual(result.status, 2)
        XCTAssertEqual(
            result.stderr,
            "urlcache: URL list \(broken), line 2, column 13: </intger> is not a plist element (did you mean </integer>?)\n"
        )
        let huge = try home.write(
            "huge.plist",
            "<plist><dict><key>refreshInterval</key><integer>123456789012345678901</integer></dict></plist>"
        )
        let range = try urlcache(["list", "--config", huge], home: home)
        XCTAssertEqual(range.status, 2)
        XCTAssertTrue(range.stderr.contains("123456789012345678901 is out of range at refreshInterval"), range.stderr)
        let port = try writeList(["http://127.0.0.1:99999/a.jpg"], in: home)
        let refused = try urlcache(["fetch", "--config", port], home: home)
        XCTAssertEqual(refused.status, 2, "a config error, found when the list is read")
        XCTAssertTrue(
            refused.stderr.contains("port 99999 in \"http://127.0.0.1:99999/a.jpg\" is out of range (1–65535)"),
            refused.stderr
        )
    }

    func testAProxyAndANonHTTPPortAreNamedForWhatTheyAre() throws {
        let proxied = try urlcache(
            ["fetch", "--url", "https://example.invalid/a.jpg"],
            home: home,
            environment: ["https_proxy": "http://127.0.0.1:9", "no_proxy": ""]
        )
        XCTAssertEqual(proxied.status, 1)
        XCTAssertTrue(proxied.stderr.contains("could not reach the proxy 127.0.0.1:9 (https_proxy)"), proxied.stderr)
        XCTAssertFalse(
            proxied.stderr.contains("example.invalid:"),
            "the image's host was never asked: \(proxied.stderr)"
        )
        let ssh = try urlcache(["fetch", "--url", server.url("/nothttp/earth.jpg")], home: home, environment: direct)
        XCTAssertEqual(ssh.status, 1)
        XCTAssertTrue(ssh.stderr.contains("127.0.0.1:\(server.port) did not answer in HTTP"), ssh.stderr)
        XCTAssertFalse(ssh.stderr.contains("redirect"), ssh.stderr)
    }

    func testAOneOffFeedAndItsHistory() throws {
        try """
        <rss version="2.0"><channel><title>T</title><item><title>Blue marble</title>
        <enclosure url="\(server.url("/plain/earth.jpg"))" type="image/jpeg"/></item></channel></rss>
        """.write(toFile: server.root.file("feed.rss"), atomically: true, encoding: .utf8)
        let feed = server.url("/plain/feed.rss")
        let fetched = try urlcache(["fetch", "--feed", feed], home: home, environment: direct)
        XCTAssertEqual(fetched.status, 0, fetched.stderr)
        XCTAssertTrue(fetched.stdout.contains("Title: Blue marble"), fetched.stdout)
        let history = try urlcache(["history", "--feed", feed], home: home)
        XCTAssertEqual(history.status, 0, history.stderr)
        XCTAssertTrue(history.stdout.contains("Blue marble  (current)"), history.stdout)
        let byURL = try urlcache(["history", "--url", server.url("/plain/earth.jpg")], home: home)
        XCTAssertEqual(byURL.status, 1, "the image was cached under its feed's entry")
        XCTAssertTrue(byURL.stderr.contains("nothing cached yet"), byURL.stderr)
        let select = try urlcache(["fetch", "--select", "url"], home: home)
        XCTAssertEqual(select.status, 2)
        XCTAssertTrue(select.stderr.contains("--select goes with --feed"), select.stderr)
    }

    func testJSONNestedTooDeepSaysSo() throws {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        try deep.write(toFile: server.root.file("deep.json"), atomically: true, encoding: .utf8)
        let result = try urlcache(["fetch", "--feed", server.url("/plain/deep.json")], home: home, environment: direct)
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(
            result.stderr.contains("JSON feed nested 100000 levels deep, past the limit of 500"),
            result.stderr
        )
    }

    func testColorsNoneWritesNoEscapeAtAll() throws {
        let art = try urlcache(
            ["render", "--colors", "none", "--size", "20x6", Fixtures.images.appendingPathComponent("earth.jpg").path],
            home: home
        )
        XCTAssertEqual(art.status, 0, art.stderr)
        XCTAssertFalse(art.stdout.contains("\u{1B}"), art.stdout.debugDescription)
        XCTAssertTrue(art.stdout.contains(where: { "▀▄▌▐█".contains($0) }), art.stdout)
    }

    /// A cache directory named by one letter, relative: it used to trap in
    /// Foundation's path code.
    func testAOneLetterRelativeCacheDirectory() throws {
        let result = try runProgram(
            Paths.binary,
            ["fetch", "--url", server.url("/plain/earth.jpg"), "--cache-dir", "c"],
            environment: ["HOME": home.path, "NO_PROXY": "127.0.0.1"],
            directory: home.path
        )
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.lines[2].hasPrefix("c/") || result.lines[2].contains("/c/"), result.stdout)
    }
}

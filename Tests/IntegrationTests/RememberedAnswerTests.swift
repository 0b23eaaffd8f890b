import Foundation
import URLCacheHarness
import URLCacheTestSupport
import XCTest

/// RFC 9111's thrift under `--freshness server`, from the RFC's text, with
/// the requests counted: a 404 or 410 with explicit freshness stands for
/// that long and nothing is asked (§4.2.2); a 301 or 308 with freshness is
/// followed directly (§3, §4.2.2); RFC 5861's stale-while-revalidate window
/// is the policy's and `list` says it. The cached image is kept throughout.
final class RememberedAnswerTests: ScriptedServerTestCase {
    override var served: [(fixture: String, name: String)] { [("earth.jpg", "earth.jpg")] }

    private var cacheDir: String { home.file("cache") }
    private var url: String { server.url("/as/earth.jpg") }

    private func fetch(_ extra: [String] = [], freshness: String = "server") throws -> RunResult {
        try urlcache(
            ["fetch", "--url", url, "--cache-dir", cacheDir, "--freshness", freshness] + extra,
            home: home,
            environment: ["TZ": "UTC"]
        )
    }

    /// The next answers: `status` with `headers` (a 200 is the image).
    private func script(_ status: Int, _ headers: [String] = []) throws {
        try "scripted".write(toFile: server.root.file("mode"), atomically: true, encoding: .utf8)
        let json = try JSONSerialization.data(withJSONObject: ["status": status, "headers": headers])
        try json.write(to: URL(fileURLWithPath: server.root.file("script.json")))
    }

    /// Caches the image with `headers`, then ages it two hours (stale
    /// under max-age=60); returns its path.
    private func cacheStaleCopy(_ headers: [String] = ["Cache-Control: max-age=60"]) throws -> String {
        try script(200, headers)
        let first = try fetch()
        XCTAssertEqual(first.status, 0, first.stderr)
        try age(first.lines[2], by: 2 * 3600)
        return first.lines[2]
    }

    private func requests(since count: Int) -> [String] { server.requests.dropFirst(count).map(\.path) }

    func testA404WithFreshnessStandsAndNothingIsAsked() throws {
        let image = try cacheStaleCopy()
        let bytes = try Data(contentsOf: URL(fileURLWithPath: image))
        try script(404, ["Cache-Control: max-age=3600"])
        var before = server.requests.count
        let refused = try fetch()
        XCTAssertEqual(refused.status, 3, refused.stderr)
        XCTAssertTrue(refused.stderr.contains("server answered HTTP 404"), refused.stderr)
        XCTAssertEqual(requests(since: before), ["/as/earth.jpg"])

        before = server.requests.count
        let remembered = try fetch()
        XCTAssertEqual(remembered.status, 3, remembered.stderr)
        XCTAssertEqual(requests(since: before), [], "the 404 stands: nothing asked")
        let line = remembered.stderr.trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertFalse(line.contains("\n"), line)
        // After 23:00 the hour ahead is tomorrow's, and its day is named.
        let match = try XCTUnwrap(
            line.firstMatch(of: /the server said 404 at (\d\d):(\d\d); asking again after (?:\d+ \w+ )?(\d\d):(\d\d)/),
            line
        )
        let minutes = { (h: Substring, m: Substring) in (Int(h)! * 60 + Int(m)!) }
        let span = (minutes(match.3, match.4) - minutes(match.1, match.2) + 1440) % 1440
        XCTAssertTrue((59...60).contains(span), "an hour between them: \(line)")
        XCTAssertEqual(remembered.lines.first, "Previously cached image (check failed)")
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: image)), bytes, "the cached image is kept")
        let list = try urlcache(
            ["list", "--config", try writeList([url], in: home), "--cache-dir", cacheDir, "--freshness", "server"],
            home: home,
            environment: ["TZ": "UTC"]
        )
        XCTAssertTrue(list.stdout.contains("the server said 404 at"), list.stdout)

        // --force asks anyway; the fixed rule never remembers.
        before = server.requests.count
        XCTAssertEqual(try fetch(["--force"]).status, 3)
        XCTAssertEqual(requests(since: before), ["/as/earth.jpg"])
        try age(image, by: 25 * 3600)
        before = server.requests.count
        XCTAssertEqual(try fetch(freshness: "fixed").status, 3)
        XCTAssertEqual(requests(since: before), ["/as/earth.jpg"])

        // Back: the image is current again, and the refusal forgotten.
        try script(200, ["Cache-Control: max-age=60"])
        XCTAssertEqual(try fetch(["--force"]).lines.first, "Cached image is up to date")
        try age(image, by: 2 * 3600)
        before = server.requests.count
        XCTAssertEqual(try fetch().status, 0)
        XCTAssertEqual(requests(since: before), ["/as/earth.jpg"])
    }

    /// RFC 9110 §10.2.3: a 429 or 503 with Retry-After, in seconds or as a
    /// date, is waited for under either rule; a person's --force still asks.
    func testRetryAfterIsWaitedFor() throws {
        let cases: [(status: Int, retryAfter: String, freshness: String, remembered: Bool)] = [
            (429, "120", "fixed", true),
            (503, "{now+3600}", "server", true),
            (503, "{now-60}", "fixed", false),
            (429, "soon", "fixed", false),
            (500, "120", "fixed", false),
        ]
        for (status, retryAfter, freshness, remembered) in cases {
            try? FileManager.default.removeItem(atPath: cacheDir)
            let image = try cacheStaleCopy()
            try age(image, by: 25 * 3600)
            try script(status, ["Retry-After: " + retryAfter])
            let asked = try fetch(freshness: freshness)
            XCTAssertEqual(asked.status, 3, asked.stderr)
            var before = server.requests.count
            let again = try fetch(freshness: freshness)
            XCTAssertEqual(again.status, 3, again.stderr)
            XCTAssertEqual(server.requests.count - before, remembered ? 0 : 1, "\(status) Retry-After: \(retryAfter)")
            guard remembered else { continue }
            XCTAssertNotNil(
                again.stderr.firstMatch(
                    of:
                        /the server asked to wait until (?:\d+ \w+ )?\d\d:\d\d \(HTTP \d+ at \d\d:\d\d\); no request was made/
                ),
                again.stderr
            )
            XCTAssertEqual(again.lines.first, "Previously cached image (check failed)", "the image is kept")
            before = server.requests.count
            XCTAssertEqual(try fetch(["--force"], freshness: freshness).status, 3)
            XCTAssertEqual(server.requests.count - before, 1, "a person asked")
        }
    }

    /// A Retry-After that comes before anything is cached is waited for
    /// as well, and `list` says until when; --force asks, and the image it
    /// brings replaces the remembered wait.
    func testRetryAfterIsWaitedForWithNothingCached() throws {
        try script(503, ["Retry-After: 120"])
        let asked = try fetch(freshness: "fixed")
        XCTAssertNotEqual(asked.status, 0, asked.stderr)
        XCTAssertEqual(server.requests.count, 1)
        let again = try fetch(freshness: "fixed")
        XCTAssertNotEqual(again.status, 0, again.stderr)
        XCTAssertEqual(server.requests.count, 1, "nothing asked while the wait stands")
        XCTAssertNotNil(
            again.stderr.firstMatch(
                of:
                    /the server asked to wait until (?:\d+ \w+ )?\d\d:\d\d \(HTTP 503 at \d\d:\d\d\); no request was made/
            ),
            again.stderr
        )
        let list = try urlcache(
            ["list", "--config", try writeList([url], in: home), "--cache-dir", cacheDir],
            home: home,
            environment: ["TZ": "UTC"]
        )
        XCTAssertTrue(list.stdout.contains("not cached"), list.stdout)
        XCTAssertTrue(list.stdout.contains("the server asked to wait until"), list.stdout)

        try script(200)
        let forced = try fetch(["--force"], freshness: "fixed")
        XCTAssertEqual(forced.lines.first, "Newly cached image", forced.stderr)
        XCTAssertEqual(server.requests.count, 2, "a person asked")
        try age(forced.lines[2], by: 25 * 3600)
        XCTAssertEqual(try fetch(freshness: "fixed").status, 0)
        XCTAssertEqual(server.requests.count, 3, "the wait went with the image's arrival")
    }

    func testOnlyExplicitFreshnessIsRemembered() throws {
        let cases: [(status: Int, headers: [String], remembered: Bool)] = [
            (410, ["Expires: {now+3600}"], true),
            (404, [], false),
            (404, ["Last-Modified: {now-864000}"], false),  // a heuristic is no reason to stop asking
            (404, ["Cache-Control: max-age=3600, no-cache"], false),
            (500, ["Cache-Control: max-age=3600"], false),
            (403, ["Cache-Control: max-age=3600"], false),
        ]
        for (status, headers, remembered) in cases {
            try? FileManager.default.removeItem(atPath: cacheDir)
            _ = try cacheStaleCopy()
            try script(status, headers)
            XCTAssertEqual(try fetch().status, 3)
            let before = server.requests.count
            let again = try fetch()
            XCTAssertEqual(again.status, 3, again.stderr)
            XCTAssertEqual(server.requests.count - before, remembered ? 0 : 1, "\(status) \(headers)")
        }
    }

    /// §4.2.2: a heuristic lifetime (10% of the time since Last-Modified:
    /// here a day) only for the statuses that allow one. A 200 and a 203
    /// are kept and reused without a request; a 201 is no image to keep.
    /// (A 404 with only Last-Modified: `testOnlyExplicitFreshnessIsRemembered`.)
    func testTheHeuristicFollowsTheStatusList() throws {
        let cases: [(status: Int, cached: Bool, asked: Int)] = [(200, true, 0), (203, true, 0), (201, false, 1)]
        for (status, cached, asked) in cases {
            try? FileManager.default.removeItem(atPath: cacheDir)
            try script(status, ["Last-Modified: {now-864000}"])
            let first = try fetch()
            XCTAssertEqual(first.status, cached ? 0 : 1, "\(status): \(first.stderr)")
            if cached { try age(first.lines[2], by: 3600) }
            let before = server.requests.count
            _ = try fetch()
            XCTAssertEqual(server.requests.count - before, asked, "HTTP \(status)")
        }
    }

    func testAPermanentRedirectWithFreshnessIsFollowedDirectly() throws {
        try script(301, ["Location: /plain/earth.jpg", "Cache-Control: max-age=3600"])
        var before = server.requests.count
        let first = try fetch()
        XCTAssertEqual(first.status, 0, first.stderr)
        XCTAssertEqual(requests(since: before), ["/as/earth.jpg", "/plain/earth.jpg"])
        let image = first.lines[2]
        try age(image, by: 2 * 3600)
        before = server.requests.count
        let again = try fetch()
        XCTAssertEqual(again.lines.first, "Cached image is up to date", again.stderr)
        XCTAssertEqual(requests(since: before), ["/plain/earth.jpg"], "straight to the target")
        XCTAssertEqual(server.requests.last?.status, 304, "asked conditionally")
        let list = try urlcache(
            ["list", "--config", try writeList([url], in: home), "--cache-dir", cacheDir, "--freshness", "server"],
            home: home
        )
        XCTAssertTrue(list.stdout.contains("moved permanently to \(server.url("/plain/earth.jpg"))"), list.stdout)

        // A 302, or a 308 without freshness, is asked through every time.
        for (status, headers) in [(302, ["Cache-Control: max-age=3600"]), (308, [])] {
            try? FileManager.default.removeItem(atPath: cacheDir)
            try script(status, ["Location: /plain/earth.jpg"] + headers)
            XCTAssertEqual(try fetch().status, 0)
            try age(image, by: 2 * 3600)
            before = server.requests.count
            XCTAssertEqual(try fetch().status, 0)
            XCTAssertEqual(requests(since: before), ["/as/earth.jpg", "/plain/earth.jpg"], "\(status)")
        }
    }

    func testStaleWhileRevalidateIsTheListsWindow() throws {
        let image = try cacheStaleCopy(["Cache-Control: max-age=60, stale-while-revalidate=86400"])
        let list = { [self] in
            try urlcache(
                ["list", "--config", try writeList([url], in: home), "--cache-dir", cacheDir, "--freshness", "server"],
                home: home
            ).stdout
        }
        var text = try list()
        XCTAssertTrue(text.contains("stale-while-revalidate for 22 h"), text)
        XCTAssertTrue(text.contains("shown at once and checked in the background (max-age)"), text)
        try age(image, by: 2 * 86400)
        text = try list()
        XCTAssertTrue(text.contains("stale: checked on the next Display Image"), text)
        try script(200, ["Cache-Control: max-age=3600, stale-while-revalidate=600"])
        XCTAssertEqual(try fetch().status, 0)
        text = try list()
        XCTAssertTrue(text.contains("(max-age), then stale-while-revalidate for 10 min"), text)
    }
}

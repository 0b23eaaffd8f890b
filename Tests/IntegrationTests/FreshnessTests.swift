import Foundation
import URLCacheHarness
import URLCacheTestSupport
import XCTest

/// `--freshness server` against nginx's real `expires` and `add_header`
/// headers, and the scripted server's Age, past Expires, bad dates and
/// conflicts: the requests counted over a sequence of `touch -d` steps.
final class ServerFreshnessTests: NginxTestCase {
    override func setUpWithError() throws {
        try super.setUpWithError()
        try copyFixture("earth.jpg", to: nginx.root)
    }

    private func fetch(_ url: String, _ extra: [String] = ["--freshness", "server"]) throws -> RunResult {
        try urlcache(["fetch", "--url", url] + extra, home: home)
    }

    func testNginxExpiresTenMinutes() throws {
        let url = nginx.url("/max10m/earth.jpg")
        let first = try fetch(url)
        XCTAssertEqual(first.status, 0, first.stderr)
        let path = first.lines[2]
        let list = try writeList([url], in: home)
        let listed = try urlcache(["list", "--config", list, "--freshness", "server"], home: home)
        // Whole minutes, rounded down: a second gone between the fetch and
        // the list (a busy machine) makes 10 minutes 9.
        XCTAssertNotNil(listed.stdout.firstMatch(of: /fresh for (10|9) min \(max-age\)/), listed.stdout)

        try age(path, by: 5 * 60)
        XCTAssertEqual(try fetch(url).lines.first, "Previously cached image")
        XCTAssertEqual(nginx.requests.count, 1, "5 minutes into 10: no request")

        try age(path, by: 11 * 60)
        XCTAssertEqual(try fetch(url).lines.first, "Cached image is up to date")
        XCTAssertEqual(nginx.requests.map(\.status), [200, 304], "11 minutes: one conditional request")

        try age(path, by: 11 * 60)
        XCTAssertEqual(try fetch(url, []).lines.first, "Previously cached image", "the fixed rule waits 24 hours")
        XCTAssertEqual(nginx.requests.count, 2)
        let fixed = try urlcache(["list", "--config", list], home: home)
        XCTAssertNotNil(fixed.stdout.firstMatch(of: /fresh for 23 h (49|48) min \(refreshInterval\)/), fixed.stdout)
    }

    func testNoCacheAlwaysAsksAndNoStoreWritesNothing() throws {
        let url = nginx.url("/nocache/earth.jpg")
        XCTAssertEqual(try fetch(url).status, 0)
        XCTAssertEqual(try fetch(url).lines.first, "Cached image is up to date")
        XCTAssertEqual(nginx.requests.map(\.status), [200, 304], "no-cache: every Display Image asks")

        let stored = try fetch(nginx.url("/nostore/earth.jpg"))
        XCTAssertEqual(stored.status, 0, stored.stderr)
        XCTAssertEqual(stored.lines.first, "Not cached: the server said no-store (shown once, nothing written)")
        XCTAssertFalse(stored.lines[2].hasPrefix(home.file("cache")), "the image is outside the cache")
        XCTAssertEqual(
            try Data(contentsOf: URL(fileURLWithPath: stored.lines[2])),
            try Data(contentsOf: Fixtures.images.appendingPathComponent("earth.jpg"))
        )
        let images = try FileManager.default.contentsOfDirectory(atPath: home.file("cache/urlcache")).filter {
            $0.hasSuffix(".img")
        }
        XCTAssertEqual(images.count, 1, "only the no-cache image is in the cache")
        XCTAssertEqual(try fetch(nginx.url("/nostore/earth.jpg")).lines.first?.hasPrefix("Not cached"), true)
        XCTAssertEqual(nginx.requests.map(\.status), [200, 304, 200, 200], "nothing kept: downloaded each time")
    }

    func testLastModifiedHeuristic() throws {
        // nginx's Last-Modified is the file's mtime: 100 minutes ago gives 10 minutes.
        try age(nginx.root.file("earth.jpg"), by: 100 * 60)
        let url = nginx.url("/earth.jpg")
        let path = try fetch(url).lines[2]
        try age(path, by: 9 * 60)
        XCTAssertEqual(try fetch(url).lines.first, "Previously cached image")
        try age(path, by: 11 * 60)
        XCTAssertEqual(try fetch(url).lines.first, "Cached image is up to date")
        XCTAssertEqual(nginx.requests.map(\.status), [200, 304])
    }

    func testAFailedCheckOfAMustRevalidateCopySaysItIsStale() throws {
        let server = try ScriptedServer()
        try copyFixture("earth.jpg", to: server.root)
        let url = server.url(
            "/headers/earth.jpg?h="
                + ("Cache-Control: max-age=60, must-revalidate".addingPercentEncoding(
                    withAllowedCharacters: .alphanumerics
                ) ?? "")
        )
        let path = try fetch(url).lines[2]
        let list = try writeList([url], in: home)
        XCTAssertTrue(
            try urlcache(["list", "--config", list, "--freshness", "server"], home: home).stdout.contains(
                "(max-age, must-revalidate)"
            )
        )
        server.stop()
        try age(path, by: 5 * 60)
        let failed = try fetch(url)
        XCTAssertEqual(failed.status, 3, failed.stderr)
        XCTAssertTrue(failed.stderr.contains("could not connect"), failed.stderr)
        XCTAssertTrue(
            failed.stderr.contains("the copy shown is stale and its server requires revalidation (must-revalidate)"),
            failed.stderr
        )
        XCTAssertEqual(failed.lines[2], path, "the copy is still there")
        XCTAssertFalse(
            try fetch(url, []).stderr.contains("must-revalidate"),
            "the fixed rule: fresh for 24 hours, nothing to say"
        )
    }

    /// no-cache: every use must be validated, so a failed check says the
    /// copy is stale as must-revalidate does; fetch exits 3, the copy stays.
    func testAFailedCheckOfANoCacheCopySaysItIsStale() throws {
        let server = try ScriptedServer()
        try copyFixture("earth.jpg", to: server.root)
        let url = server.url(
            "/headers/earth.jpg?h="
                + ("Cache-Control: no-cache".addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")
        )
        let path = try fetch(url).lines[2]
        server.stop()
        let failed = try fetch(url)
        XCTAssertEqual(failed.status, 3, failed.stderr)
        XCTAssertTrue(failed.stderr.contains("could not connect"), failed.stderr)
        XCTAssertTrue(
            failed.stderr.contains("the copy shown is stale and its server requires revalidation (no-cache)"),
            failed.stderr
        )
        XCTAssertEqual(failed.lines.first, "Previously cached image (check failed)")
        XCTAssertEqual(failed.lines[2], path, "the copy is still there")
    }

    func testScriptedAgePastExpiresBadDatesAndConflicts() throws {
        // Each case: its headers, and whether a copy checked 5 minutes ago is still fresh.
        try assertFreshAfterFiveMinutes([
            (["Cache-Control: max-age=600", "Age: 400"], false),
            (["Cache-Control: max-age=600", "Age: 100"], true),
            (["Expires: {now-60}"], false),
            (["Expires: {now+3600}", "Date: {now+0}"], true),
            (["Expires: {now+3600}", "Date: {now+3500}"], false),  // the server's clock, not ours
            (["Expires: next week"], false),
            (["Cache-Control: max-age=60", "Expires: {now+3600}"], false),
            (["Cache-Control: max-age=3600, no-cache"], false),
        ])
    }

    /// RFC 9111 and RFC 9110, one rule a case, with the requests counted:
    /// §5.3 an Expires that is no RFC 9110 date (each form curl_getdate
    /// took) or two of them is expired; §5.1 the first Age and the first
    /// member of its list, integers only; §4.2.3 the apparent age from a
    /// server clock an hour behind counts for half the lifetime at most, one
    /// an hour ahead not at all; §5.2.2.1 the first of two max-ages.
    func testRFCRulesCountedInRequests() throws {
        var cases: [(headers: [String], fresh: Bool)] = [
            "Tue, 24 Nov 2099 09:00:00 UTC", "Tue, 24 Nov 99 09:00:00 GMT", "Tue 24 Nov 2099 09:00:00 GMT",
            "Tue,  24 Nov 2099 09:00:00 GMT", "Tue, 24-Nov-2099 09:00:00 GMT", "Tue, 24 Nov 2099 9:00:00 GMT",
        ].map { (["Expires: " + $0], false) }
        cases += [
            (["Expires: {now+3600}", "Expires: {now+7200}"], false),
            (["Expires: {now+3600}"], true),
            (["Cache-Control: max-age=3600", "Age: 3500, 0"], false),
            (["Cache-Control: max-age=3600", "Age: 3500", "Age: 0"], false),
            (["Cache-Control: max-age=3600", "Age: 3500.0"], true),
            (["Cache-Control: max-age=3600", "Age: 3500a"], true),
            (["Cache-Control: max-age=900", "Date: {now+3600}"], true),
            (["Cache-Control: max-age=900", "Date: {now-3600}"], true),
            (["Cache-Control: max-age=500", "Date: {now-3600}"], false),
            (["Cache-Control: max-age=60", "Cache-Control: max-age=3600"], false),
        ]
        try assertFreshAfterFiveMinutes(cases)
    }

    /// Fetches each case's URL, ages the copy 5 minutes and fetches again:
    /// no request when it is fresh, one when it is not.
    private func assertFreshAfterFiveMinutes(
        _ cases: [(headers: [String], fresh: Bool)],
        file: StaticString = #filePath,
        line: UInt = #line
    ) throws {
        let server = try ScriptedServer()
        defer { server.stop() }
        try copyFixture("earth.jpg", to: server.root)
        for (headers, fresh) in cases {
            let query = headers.map { "h=" + ($0.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "") }
                .joined(separator: "&")
            let url = server.url("/headers/earth.jpg?" + query)
            let first = try fetch(url)
            XCTAssertEqual(first.status, 0, first.stderr, file: file, line: line)
            try age(first.lines[2], by: 5 * 60)
            let before = server.requests.count
            let again = try fetch(url)
            XCTAssertEqual(again.status, 0, again.stderr, file: file, line: line)
            XCTAssertEqual(server.requests.count - before, fresh ? 0 : 1, "\(headers)", file: file, line: line)
        }
    }
}

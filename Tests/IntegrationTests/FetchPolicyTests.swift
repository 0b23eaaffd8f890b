import Foundation
import URLCacheHarness
import URLCacheTestSupport
import XCTest

/// The caching policy end to end: the real binary against a real nginx, with
/// the requests and body bytes that crossed the wire read from its log.
final class FetchPolicyTests: NginxTestCase {
    override func setUpWithError() throws {
        try super.setUpWithError()
        try copyFixture("earth.jpg", to: nginx.root)
    }

    private func fetch(_ extra: [String] = []) throws -> RunResult {
        try urlcache(["fetch", "--url", nginx.url("/earth.jpg")] + extra, home: home)
    }

    func testFirstFetchDownloadsAndPrintsThreeLines() throws {
        let result = try fetch()
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.lines.count, 3)
        XCTAssertEqual(result.lines[0], "Newly cached image")
        XCTAssertTrue(result.lines[1].hasPrefix("Updated: "), result.lines[1])
        let cached = try Data(contentsOf: URL(fileURLWithPath: result.lines[2]))
        XCTAssertEqual(cached, try Data(contentsOf: Fixtures.images.appendingPathComponent("earth.jpg")))
        XCTAssertTrue(result.lines[2].hasPrefix(home.file("cache/urlcache/")), result.lines[2])
        let mode =
            try FileManager.default.attributesOfItem(atPath: home.file("cache/urlcache"))[.posixPermissions] as? Int
        XCTAssertEqual(mode, 0o700, "the cache directory is private")
        let requests = nginx.requests
        XCTAssertEqual(requests.count, 1)
        XCTAssertEqual(requests.first?.status, 200)
        XCTAssertEqual(requests.first?.bodyBytes, cached.count)
    }

    func testFreshCopyIsShownWithNoRequest() throws {
        XCTAssertEqual(try fetch().status, 0)
        let second = try fetch()
        XCTAssertEqual(second.status, 0, second.stderr)
        XCTAssertEqual(second.lines.first, "Previously cached image")
        XCTAssertEqual(nginx.requests.count, 1, "a fresh copy must cost no request at all")
    }

    func testStaleUnchangedCopyCostsOne304AndNoBody() throws {
        let first = try fetch()
        let path = first.lines[2]
        try age(path, by: 25 * 3600)
        let before = try modificationDate(path)
        let second = try fetch()
        XCTAssertEqual(second.status, 0, second.stderr)
        XCTAssertEqual(second.lines.first, "Cached image is up to date")
        let requests = nginx.requests
        XCTAssertEqual(requests.count, 2)
        XCTAssertEqual(requests.last?.status, 304)
        XCTAssertEqual(requests.last?.bodyBytes, 0)
        XCTAssertNotNil(requests.last?.ifNoneMatch, "the stored ETag is sent")
        XCTAssertNotNil(requests.last?.ifModifiedSince, "the stored Last-Modified is sent verbatim")
        XCTAssertGreaterThan(
            try modificationDate(path).timeIntervalSince(before),
            24 * 3600,
            "a successful check moves Updated to now"
        )
    }

    func testStaleChangedCopyIsReplaced() throws {
        let path = try fetch().lines[2]
        try copyFixture("earth2.jpg", to: nginx.root, as: "earth.jpg")
        try FileManager.default.setAttributes(
            [.modificationDate: Date().addingTimeInterval(60)],
            ofItemAtPath: nginx.root.file("earth.jpg")
        )
        try age(path, by: 25 * 3600)
        let second = try fetch()
        XCTAssertEqual(second.status, 0, second.stderr)
        XCTAssertEqual(second.lines.first, "Newly cached image")
        XCTAssertEqual(
            try Data(contentsOf: URL(fileURLWithPath: path)),
            try Data(contentsOf: Fixtures.images.appendingPathComponent("earth2.jpg"))
        )
        XCTAssertEqual(nginx.requests.last?.status, 200)
    }

    func testForceSkipsTheWaitButStaysConditional() throws {
        XCTAssertEqual(try fetch().status, 0)
        let forced = try fetch(["--force"])
        XCTAssertEqual(forced.lines.first, "Cached image is up to date")
        XCTAssertEqual(nginx.requests.map(\.status), [200, 304])
    }

    func testRefreshIntervalOptionShortensTheWait() throws {
        XCTAssertEqual(try fetch().status, 0)
        let checked = try fetch(["--refresh-interval", "0"])
        XCTAssertEqual(checked.lines.first, "Cached image is up to date")
        XCTAssertEqual(nginx.requests.count, 2)
    }

    func testRefreshIntervalFromTheList() throws {
        let list = try writeList(nginx.url("/earth.jpg"), settings: ["refreshInterval": 60], in: home)
        let first = try urlcache(["fetch", "--config", list], home: home)
        XCTAssertEqual(first.status, 0, first.stderr)
        try age(first.lines[2], by: 120)
        let second = try urlcache(["fetch", "--config", list], home: home)
        XCTAssertEqual(second.lines.first, "Cached image is up to date", "120 s is past the list's 60 s")
    }

    func testFailedCheckKeepsTheCopyAndExits3() throws {
        let path = try fetch().lines[2]
        try age(path, by: 25 * 3600)
        let before = try modificationDate(path)
        let url = nginx.url("/earth.jpg")
        nginx.stop()  // the server goes away
        let result = try urlcache(["fetch", "--url", url], home: home)
        XCTAssertEqual(result.status, 3)
        XCTAssertTrue(result.stderr.contains("could not connect"), result.stderr)
        XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, "one line: \(result.stderr)")
        XCTAssertEqual(try modificationDate(path), before, "Updated stays as it was")
        XCTAssertEqual(
            try Data(contentsOf: URL(fileURLWithPath: path)),
            try Data(contentsOf: Fixtures.images.appendingPathComponent("earth.jpg"))
        )
    }

    func testFailureWithNothingCachedExits1() throws {
        let result = try urlcache(["fetch", "--url", nginx.url("/missing.jpg")], home: home)
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.contains("HTTP 404"), result.stderr)
        XCTAssertEqual(result.stdout, "")
    }

    func testListShowsCachedState() throws {
        let list = try writeList([nginx.url("/earth.jpg"), nginx.url("/other.jpg")], in: home)
        XCTAssertEqual(try urlcache(["fetch", "--config", list], home: home).status, 0)
        let result = try urlcache(["list", "--config", list], home: home)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.contains("1. 127.0.0.1/earth.jpg"), result.stdout)
        XCTAssertTrue(result.stdout.contains("cached, Updated: "), result.stdout)
        XCTAssertTrue(
            result.stdout.contains("2. 127.0.0.1/other.jpg\n   \(nginx.url("/other.jpg"))\n   not cached"),
            result.stdout
        )
    }

    func testClearRemovesEveryImage() throws {
        let path = try fetch().lines[2]
        let refused = try urlcache(["clear"], home: home)
        XCTAssertEqual(refused.status, 2, "no terminal and no --yes: nothing is removed")
        XCTAssertTrue(FileManager.default.fileExists(atPath: path))
        let cleared = try urlcache(["clear", "--yes"], home: home)
        XCTAssertEqual(cleared.status, 0, cleared.stderr)
        XCTAssertTrue(cleared.stdout.hasPrefix("Cleared 1 cached image"), cleared.stdout)
        XCTAssertFalse(FileManager.default.fileExists(atPath: path))
        XCTAssertEqual(try fetch().lines.first, "Newly cached image")
    }
}

import Foundation
import URLCacheHarness
import URLCacheKit
import URLCacheTestSupport
import XCTest

/// Servers that ignore conditions, send no validators, cut the body short,
/// redirect badly, send HTML or hostile reason phrases.
final class MisbehavingServerTests: ScriptedServerTestCase {
    override var served: [(fixture: String, name: String)] { [("earth.jpg", "earth.jpg"), ("sun.png", "sun.png")] }

    private func fetch(_ path: String, _ extra: [String] = []) throws -> RunResult {
        try urlcache(["fetch", "--url", server.url(path)] + extra, home: home)
    }

    /// Fetches once, ages the copy past 24 h and fetches again.
    private func fetchTwice(_ path: String) throws -> (first: RunResult, second: RunResult) {
        let first = try fetch(path)
        XCTAssertEqual(first.status, 0, first.stderr)
        try age(first.lines[2], by: 25 * 3600)
        return (first, try fetch(path))
    }

    func testServerIgnoringConditionsIsUpToDateByItsETag() throws {
        let (first, second) = try fetchTwice("/ignore/earth.jpg")
        XCTAssertEqual(second.lines.first, "Cached image is up to date", second.stderr)
        XCTAssertEqual(
            try Data(contentsOf: URL(fileURLWithPath: first.lines[2])),
            try Data(contentsOf: Fixtures.images.appendingPathComponent("earth.jpg"))
        )
        XCTAssertEqual(server.requests.count, 2)
        XCTAssertNotNil(server.requests.last?.ifNoneMatch)
    }

    func testNoValidatorsComparesTheBytes() throws {
        let (first, second) = try fetchTwice("/novalidators/earth.jpg")
        XCTAssertEqual(second.lines.first, "Cached image is up to date")
        XCTAssertNil(server.requests.last?.ifNoneMatch)
        XCTAssertNil(server.requests.last?.ifModifiedSince)
        try copyFixture("earth2.jpg", to: server.root, as: "earth.jpg")
        try age(first.lines[2], by: 25 * 3600)
        let third = try fetch("/novalidators/earth.jpg")
        XCTAssertEqual(third.lines.first, "Newly cached image")
        XCTAssertEqual(
            try Data(contentsOf: URL(fileURLWithPath: third.lines[2])),
            try Data(contentsOf: Fixtures.images.appendingPathComponent("earth2.jpg"))
        )
    }

    func testETagOnlyServerAnswers304() throws {
        let (_, second) = try fetchTwice("/etagonly/earth.jpg")
        XCTAssertEqual(second.lines.first, "Cached image is up to date")
        XCTAssertEqual(server.requests.last?.status, 304)
        XCTAssertNil(server.requests.last?.ifModifiedSince)
    }

    func testLastModifiedOnlyIsSentVerbatim() throws {
        let (_, second) = try fetchTwice("/lmonly/earth.jpg")
        XCTAssertEqual(second.lines.first, "Cached image is up to date")
        XCTAssertEqual(server.requests.last?.status, 304)
        XCTAssertNil(server.requests.last?.ifNoneMatch)
        XCTAssertNotNil(server.requests.last?.ifModifiedSince)
    }

    func testUnparsableLastModifiedIsNotSentAndBytesDecide() throws {
        let (_, second) = try fetchTwice("/badlm/earth.jpg")
        XCTAssertEqual(second.lines.first, "Cached image is up to date")
        XCTAssertNil(server.requests.last?.ifModifiedSince)
        XCTAssertEqual(server.requests.last?.status, 200)
    }

    func testSlowDownloadCompletes() throws {
        let result = try fetch("/slow/earth.jpg")
        XCTAssertEqual(result.lines.first, "Newly cached image", result.stderr)
    }

    func testTruncatedDownloadIsNeverCached() throws {
        let result = try fetch("/truncated/earth.jpg")
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.contains("cut short"), result.stderr)
        let files = try FileManager.default.contentsOfDirectory(atPath: home.file("cache/urlcache"))
        XCTAssertFalse(files.contains { $0.hasSuffix(".img") || $0.contains(".tmp.") }, "\(files)")
    }

    func testRedirectIsFollowed() throws {
        let result = try fetch("/redirect/sun.png")
        XCTAssertEqual(result.lines.first, "Newly cached image", result.stderr)
        XCTAssertEqual(server.requests.map(\.path), ["/redirect/sun.png", "/plain/sun.png"])
    }

    func testRedirectToFileSchemeIsRefused() throws {
        let result = try fetch("/redirect-file")
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.contains("scheme other than http/https"), result.stderr)
    }

    func testRedirectLoopStops() throws {
        let result = try fetch("/redirect-loop")
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.contains("too many redirects"), result.stderr)
        XCTAssertEqual(server.requests.count, 6, "the first request and 5 redirects")
    }

    func testHeaderLineOverLibcurlsLimitIsNamed() throws {
        let result = try fetch("/hugeheader/sun.png")
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.contains("server sent a header line over 100 KB"), result.stderr)
        XCTAssertFalse(result.stderr.contains("Out of memory"), result.stderr)
    }

    func testHTMLPageIsAnErrorNamingStatusAndType() throws {
        let result = try fetch("/html")
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.contains("HTML text"), result.stderr)
        XCTAssertTrue(result.stderr.contains("HTTP 200, text/html"), result.stderr)
    }

    func testErrorStatusesNameStatusAndType() throws {
        for code in [404, 500] {
            let result = try fetch("/status/\(code)")
            XCTAssertEqual(result.status, 1)
            XCTAssertTrue(result.stderr.contains("HTTP \(code)"), result.stderr)
            XCTAssertTrue(result.stderr.contains("text/html"), result.stderr)
        }
    }

    func testEscapeSequencesFromTheServerNeverReachTheTerminal() throws {
        let result = try fetch("/escape")
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.contains("Evil"), result.stderr)
        XCTAssertFalse(
            result.stderr.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 || $0.value == 0x9B },
            result.stderr.debugDescription
        )
    }

    func testGzipBodyIsStoredDecoded() throws {
        let result = try fetch("/gzip/sun.png")
        XCTAssertEqual(result.lines.first, "Newly cached image", result.stderr)
        XCTAssertEqual(
            try Data(contentsOf: URL(fileURLWithPath: result.lines[2])),
            try Data(contentsOf: Fixtures.images.appendingPathComponent("sun.png"))
        )
        XCTAssertTrue(server.requests.first?.acceptEncoding?.contains("gzip") == true)
    }

    func testUserAgentNamesTheProgram() throws {
        _ = try fetch("/plain/sun.png")
        XCTAssertEqual(server.requests.first?.userAgent, "urlcache/" + URLCacheVersion.string)
    }

    /// A CDN that negotiates sends WebP to a client that asks for it; the
    /// body is cached and shown as what its bytes are.
    func testImagesAskForTheFormatsWeDecodeBestFirst() throws {
        try FileManager.default.copyItem(
            atPath: Fixtures.formats.appendingPathComponent("lossy.webp").path,
            toPath: server.root.file("day.webp")
        )
        try FileManager.default.copyItem(
            atPath: Fixtures.images.appendingPathComponent("photo.jpg").path,
            toPath: server.root.file("day.jpg")
        )
        let result = try fetch("/negotiate/day")
        XCTAssertEqual(result.lines.first, "Newly cached image", result.stderr)
        XCTAssertEqual(server.requests.first?.accept?.hasPrefix("image/avif,image/webp,"), true)
        let cached = try [UInt8](Data(contentsOf: URL(fileURLWithPath: result.lines[2])))
        XCTAssertEqual(Array(cached[8..<12]), Array("WEBP".utf8))
        let shown = try urlcache(["render", result.lines[2], "--size", "20x6"], home: home)
        XCTAssertEqual(shown.status, 0, shown.stderr)
    }

    /// A GIF whose first frame is whole but whose later frames are cut off
    /// is damage: never cached.
    func testAnAnimationCutAfterItsFirstFrameIsNotCached() throws {
        let gif = try Data(contentsOf: Fixtures.formats.appendingPathComponent("animated.gif"))
        try gif.prefix(gif.count * 3 / 4).write(to: URL(fileURLWithPath: server.root.file("cut.gif")))
        let result = try fetch("/plain/cut.gif")
        XCTAssertEqual(result.status, 1, result.stdout)
        XCTAssertTrue(result.stderr.contains("cut short"), result.stderr)
    }

    func testProxyVariablesAreHonoured() throws {
        // example.invalid cannot resolve: only the proxy can have answered.
        let result = try urlcache(
            ["fetch", "--url", "http://example.invalid/plain/sun.png"],
            home: home,
            environment: ["http_proxy": server.url(""), "NO_PROXY": "", "no_proxy": ""]
        )
        XCTAssertEqual(result.lines.first, "Newly cached image", result.stderr)
        XCTAssertEqual(server.requests.first?.proxied, true)
    }

    func testContentTypeIsNotTrustedTheBytesAre() throws {
        let result = try fetch("/mislabeled/sun.png")
        XCTAssertEqual(result.lines.first, "Newly cached image", result.stderr)
    }

    func testEndlessBodyStopsAtTheSizeLimit() throws {
        let list = try writeList(server.url("/endless"), settings: ["maxImageBytes": 1_048_576], in: home)
        let result = try urlcache(["fetch", "--config", list], home: home)
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.contains("larger than the 1 MiB limit"), result.stderr)
    }

    func testStalledTransferStopsAtTheStallTimeout() throws {
        // A byte every 2 s: a stall of 1 s is "no byte for 1 s".
        let list = try writeList(server.url("/stall/earth.jpg"), settings: ["stallTimeout": 1], in: home)
        let result = try urlcache(["fetch", "--config", list], home: home)
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.contains("stalled"), result.stderr)
    }

    /// Verification is on: nginx over HTTPS with a certificate no trust
    /// store holds is refused during the handshake, with one line that says
    /// so; no request is sent and nothing is stored.
    func testUntrustedCertificateIsRefused() throws {
        let https = try Nginx(tls: true)
        defer { https.stop() }
        try copyFixture("earth.jpg", to: https.root)
        let result = try urlcache(["fetch", "--url", https.url("/earth.jpg")], home: home)
        XCTAssertEqual(result.status, 1, result.stderr)
        let message = result.stderr.trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertFalse(message.contains("\n"), message)
        XCTAssertTrue(message.contains("TLS error"), message)
        XCTAssertTrue(message.lowercased().contains("certificate"), message)
        XCTAssertTrue(https.requests.isEmpty, "\(https.requests)")
        let stored = (try? FileManager.default.contentsOfDirectory(atPath: home.file("cache/urlcache"))) ?? []
        XCTAssertFalse(stored.contains { $0.hasSuffix(".img") }, "\(stored)")
    }

    func testFailedDownloadKeepsThePreviousImage() throws {
        try copyFixture("earth.jpg", to: server.root, as: "photo.jpg")
        let first = try fetch("/novalidators/photo.jpg")
        XCTAssertEqual(first.status, 0)
        try age(first.lines[2], by: 25 * 3600)
        let before = try modificationDate(first.lines[2])
        // The same URL now breaks: the file is gone (404).
        try FileManager.default.removeItem(atPath: server.root.file("photo.jpg"))
        let second = try fetch("/novalidators/photo.jpg")
        XCTAssertEqual(second.status, 3)
        XCTAssertTrue(second.stderr.contains("HTTP 404"), second.stderr)
        XCTAssertEqual(second.lines.last, first.lines[2])
        XCTAssertEqual(try modificationDate(first.lines[2]), before)
        XCTAssertEqual(
            try Data(contentsOf: URL(fileURLWithPath: first.lines[2])),
            try Data(contentsOf: Fixtures.images.appendingPathComponent("earth.jpg"))
        )
    }
}

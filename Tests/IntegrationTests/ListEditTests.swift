import Foundation
import URLCacheHarness
import URLCacheTestSupport
import XCTest

/// `urlcache sources`, `add` and `remove`, as a person meets them: the
/// catalogue, an image or a page added and checked at once, mistakes in one
/// line with the list untouched, an entry taken out with its images kept
/// unless `--purge`.
final class ListEditTests: ScriptedServerTestCase {
    override var served: [(fixture: String, name: String)] { [("photo.jpg", "photo.jpg")] }

    /// The person's own list, where `add` writes it.
    private var own: String { home.file("config/urlcache/URLCache.plist") }

    private func run(_ arguments: [String]) throws -> RunResult {
        try urlcache(arguments, home: home, environment: ["NO_PROXY": "127.0.0.1", "LANG": "de_AT.UTF-8"])
    }

    func testSourcesListsTheCatalogueWithBingInTheLocalesMarket() throws {
        let result = try run(["sources"])
        XCTAssertEqual(result.status, 0, result.stderr)
        for name in [
            "bing", "apod", "wikimedia", "nasa-iotd", "earth-observatory", "epod", "goes-east", "goes-west",
            "himawari", "sdo", "suvi", "eso-potw",
        ] {
            XCTAssertTrue(result.lines.contains { $0.hasPrefix(name + " ") }, "\(name) listed")
        }
        XCTAssertTrue(result.stdout.contains("mkt=de-AT"), "Bing's market from LANG")
        XCTAssertTrue(result.stdout.contains("DEMO_KEY"), "APOD's shared key is said")
    }

    func testAddMakesTheOwnListFromTheBuiltInOneAndGuessesAFeedFromItsAnswer() throws {
        _ = try server.root.write(
            "page.html",
            "<html><head><title>A site</title><meta property=\"og:image\" content=\"/plain/photo.jpg\"></head></html>"
        )
        let image = try run(["add", server.url("/plain/photo.jpg"), "--title", "Photo"])
        XCTAssertEqual(image.status, 0, image.stderr)
        XCTAssertEqual(image.lines, ["Entry 7 of \(own): Photo (image)"], "after the built-in six")
        let page = try run(["add", server.url("/plain/page.html")])
        XCTAssertEqual(page.status, 0, page.stderr)
        XCTAssertTrue(page.stdout.hasSuffix("(feed)\n"), page.stdout)
        let listed = try run(["list"])
        XCTAssertTrue(listed.stdout.contains("8. "), listed.stdout)
        XCTAssertTrue(listed.stdout.contains("feed: " + server.url("/plain/page.html")), "kept as a feed")
        XCTAssertTrue(listed.stdout.contains("Image: " + server.url("/plain/photo.jpg")), "and checked at once")
        // The same address again is the same entry, with no request and no warning.
        let again = try run(["add", server.url("/plain/photo.jpg")])
        XCTAssertEqual(again.lines, ["Entry 7 of \(own) already: Photo (image)"])
        // One no server answers: added with a warning once, then only named.
        let closed = "http://127.0.0.1:9/nowhere.jpg"
        let first = try run(["add", closed])
        XCTAssertTrue(first.stderr.hasPrefix("urlcache: warning: not checked ("), first.stderr)
        let second = try run(["add", closed])
        XCTAssertEqual(second.lines, ["Entry 9 of \(own) already: 127.0.0.1/nowhere.jpg (image)"])
        XCTAssertEqual(second.stderr, "", "not checked again, no \"added\" said")
    }

    func testMistakesAreOneLineAndLeaveTheListAsItWas() throws {
        XCTAssertEqual(try run(["add", server.url("/plain/photo.jpg"), "--title", "Photo"]).status, 0)
        let before = try XCTUnwrap(FileManager.default.contents(atPath: own))
        let cases: [([String], Int32, String)] = [
            (
                ["add", "goes-est"], 2,
                "urlcache: 'goes-est' is neither a source of `urlcache sources` nor an http(s) URL; did you mean 'goes-east'?"
            ),
            (
                ["add", "ftp://example.com/a.jpg"], 2,
                "urlcache: 'ftp://example.com/a.jpg': scheme \"ftp\" is not allowed (http or https only)"
            ),
            (["add", server.url("/plain/missing.jpg")], 1, "nothing added"),
            (["remove", "99"], 2, "urlcache: remove 99: the list has 7 entries (urlcache list shows them)"),
            (["remove", "Phot"], 2, "did you mean"),
        ]
        for (arguments, status, message) in cases {
            let result = try run(arguments)
            XCTAssertEqual(result.status, status, "\(arguments): \(result.stderr)")
            XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, "one line: \(result.stderr)")
            XCTAssertTrue(result.stderr.contains(message), result.stderr)
            XCTAssertEqual(FileManager.default.contents(atPath: own), before, "\(arguments): the list untouched")
        }
    }

    func testRemoveTakesTheEntryOutAndItsImagesOnlyWithPurge() throws {
        XCTAssertEqual(try run(["add", server.url("/plain/photo.jpg"), "--title", "Photo"]).status, 0)
        let cached = { try FileManager.default.contentsOfDirectory(atPath: self.home.file("cache/urlcache")) }
        let images = try cached().filter { $0.hasSuffix(".img") }.count
        let removed = try run(["remove", "photo"])
        XCTAssertEqual(removed.status, 0, removed.stderr)
        XCTAssertEqual(removed.lines, ["Removed entry 7: Photo (\(server.url("/plain/photo.jpg")))"])
        XCTAssertFalse(try run(["list"]).stdout.contains("7. "))
        XCTAssertEqual(try cached().filter { $0.hasSuffix(".img") }.count, images, "its image stays")
        XCTAssertEqual(try run(["add", server.url("/plain/photo.jpg")]).status, 0)
        let purged = try run(["remove", "7", "--purge"])
        XCTAssertEqual(purged.lines.last, "Deleted its 1 cached image", purged.stdout)
        XCTAssertEqual(try cached().filter { $0.hasSuffix(".img") }.count, images - 1)
    }
}

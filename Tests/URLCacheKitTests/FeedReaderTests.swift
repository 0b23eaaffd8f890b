import Foundation
import XCTest
@testable import URLCacheKit
import URLCacheTestSupport

/// The three feed readers on fixtures shaped like the real feeds, and on
/// the bad inputs the issue lists.
final class FeedReaderTests: XCTestCase {
    let base = "http://feeds.test"
    let feedURL = URL(string: "http://feeds.test/daily/feed")!

    private func fixture(_ name: String) throws -> [UInt8] {
        let text = try String(contentsOf: Fixtures.feeds.appendingPathComponent(name), encoding: .utf8)
        return Array(text.replacingOccurrences(of: "{{BASE}}", with: base).utf8)
    }

    private func read(_ bytes: [UInt8], type: String? = nil, select: String? = nil) throws -> FeedItem {
        try FeedReader.read(bytes, contentType: type, feedURL: feedURL, select: select)
    }

    private func image(_ item: FeedItem) -> String? {
        if case let .image(url) = item.media { return url.absoluteString }
        return nil
    }

    private func failure(_ bytes: [UInt8], type: String? = nil, select: String? = nil) -> FeedError? {
        do { _ = try read(bytes, type: type, select: select); return nil } catch { return error as? FeedError }
    }

    func testAPODPrefersHDAndKeepsItsWords() throws {
        let item = try read(fixture("apod.json"), type: "application/json")
        XCTAssertEqual(image(item), "http://feeds.test/image/hd/andromeda.jpg")
        XCTAssertEqual(item.title, "Andromeda Rising")
        XCTAssertEqual(item.credit, "Jane Stargazer", "whitespace around the copyright folded")
        XCTAssertEqual(item.description, "What's that glowing over the ridge? It's the Andromeda Galaxy, M31, rising & shining above a quiet valley.")
        XCTAssertEqual(image(try read(fixture("apod.json"), select: "url")), "http://feeds.test/image/andromeda_1024.jpg")
    }

    func testAPODVideoDayIsNoImage() throws {
        let item = try read(fixture("apod-video.json"))
        XCTAssertEqual(item.media, .other(kind: "video", link: "https://www.youtube.com/embed/abc123?rel=0"))
        XCTAssertEqual(item.title, "The Corona in Motion")
    }

    func testBingsRelativeURLResolvesAgainstTheHost() throws {
        let item = try read(fixture("bing.json"))
        XCTAssertEqual(image(item), "http://feeds.test/th?id=OHR.LakeReflection_EN-US1234567890_1920x1080.jpg&rf=LaDigue_1920x1080.jpg&pid=hp")
        XCTAssertEqual(item.title, "Still waters")
        XCTAssertEqual(item.credit, "Mountain lake at dawn, Patagonia (© A. Photographer/Agency)")
    }

    func testRSSTakesTheNewestItemsLargestMediaContent() throws {
        let item = try read(fixture("media.rss"), type: "application/rss+xml")
        XCTAssertEqual(image(item), "http://feeds.test/fern_large.jpg", "the 1600×1200 image, not the video or the small one")
        XCTAssertEqual(item.title, "Frost on the fern")
        XCTAssertEqual(item.credit, "Ola Nordmann / Example Photo")
        XCTAssertEqual(item.description, "Ice crystals on a fern at sunrise.\n\nTaken with a macro lens.")
        XCTAssertEqual(item.link, "https://example.org/potd/2026-11-22")
    }

    func testCommonsRSSTakesTheImgInTheEscapedDescription() throws {
        let item = try read(fixture("commons-potd.rss"))
        XCTAssertEqual(image(item), "http://feeds.test/commons/thumb/Old_bridge.jpg/1280px-Old_bridge.jpg")
        XCTAssertEqual(item.description, "An old stone bridge over the river at dusk & its reflection.")
        XCTAssertEqual(item.title, "Wikimedia Commons picture of the day for November 23")
    }

    func testAtomTakesTheNewestEntrysEnclosure() throws {
        let item = try read(fixture("feed.atom"), type: "application/atom+xml")
        XCTAssertEqual(image(item), "http://feeds.test/daily/images/orion.jpg", "relative to the feed's URL")
        XCTAssertEqual(item.title, "Orion & the Running Man")
        XCTAssertEqual(item.credit, "Sam Skywatcher")
        XCTAssertEqual(item.description, "The nebula in Orion’s sword.")
        XCTAssertEqual(item.link, "https://example.net/night/orion")
    }

    func testPageOGImageNotTheOneInAScript() throws {
        let item = try read(fixture("page.html"), type: "text/html; charset=utf-8")
        XCTAssertEqual(image(item), "http://feeds.test/gallery/lighthouse.jpg")
        XCTAssertEqual(item.title, "Lighthouse in the storm")
        XCTAssertEqual(item.credit, "R. Keeper")
        XCTAssertEqual(item.description, "Waves break over the lighthouse at Hook Head & the spray glows.")
        let fallback = Array(#"<html><head><link rel="image_src" href="//cdn.test/a.png"><title>T</title></head></html>"#.utf8)
        XCTAssertEqual(image(try read(fallback)), "http://cdn.test/a.png")
    }

    func testBadFeedsSayWhy() {
        XCTAssertEqual(failure(Array("<html><head><title>x</title></head><body><img src=a.jpg></body></html>".utf8)), .pageWithoutImage)
        XCTAssertEqual(failure(Array(#"{"title": "x"}"#.utf8)), .missingKey(path: "hdurl, url, image, images.0.url"))
        XCTAssertEqual(failure(Array(#"{"images": []}"#.utf8), select: "images.0.url"), .missingKey(path: "images.0.url"))
        XCTAssertEqual(failure(Array(#"{"url": 42}"#.utf8), select: "url"), .notAString(path: "url", found: "a number"))
        XCTAssertEqual(failure(Array(#"{"url": 42}"#.utf8)), .notAString(path: "url", found: "a number"))
        XCTAssertEqual(failure(Array("<rss version=\"2.0\"><channel><title>Empty</title></channel></rss>".utf8)), .noItem(kind: "RSS/Atom feed"))
        XCTAssertEqual(failure(Array(#"{"url": "file:///etc/passwd"}"#.utf8)),
                       .badImageURL(text: "file:///etc/passwd", reason: "scheme file is not allowed (http or https only)"))
        XCTAssertEqual(failure(Array(#"{"url": "/daily/feed"}"#.utf8)), .pointsAtItself)
        XCTAssertEqual(failure(Array("{not json".utf8)), .badJSON)
        XCTAssertEqual(failure(Array("GIF89a".utf8), type: "image/gif"), .unknownKind(contentType: "image/gif"))
        for error in [FeedError.pageWithoutImage, .noItem(kind: "RSS/Atom feed"), .pointsAtItself, .tooLarge(limit: 2 << 20)] {
            XCTAssertFalse(error.description.contains("\n"))
        }
    }

    func testDeclaredEntitiesAreNeverExpandedNorFetched() throws {
        // Billion laughs: ten levels of ten; expanded it would be 3 GB.
        var doctype = "<!DOCTYPE rss [\n<!ENTITY lol \"lol\">\n"
        for level in 1...9 {
            doctype += "<!ENTITY lol\(level) \"" + String(repeating: "&lol\(level - 1 == 0 ? "" : String(level - 1));", count: 10) + "\">\n"
        }
        doctype += "<!ENTITY xxe SYSTEM \"file:///etc/passwd\">\n]>\n"
        let feed = doctype + """
            <rss version="2.0"><channel><item><title>&lol9; &xxe;</title>
            <enclosure url="http://feeds.test/a.jpg" type="image/jpeg"/></item></channel></rss>
            """
        let item = try read(Array(feed.utf8))
        XCTAssertEqual(item.title, "&lol9; &xxe;", "left as written")
        XCTAssertEqual(image(item), "http://feeds.test/a.jpg")
    }

    func testScannerSurvivesBrokenMarkup() {
        for text in ["<", "<a", "<a href=", "<a href=\"x", "<!--", "<![CDATA[", "<!DOCTYPE [", "</", "&#xFFFFFFFF;", "&#0;", "<?xml",
                     "<item><enclosure url='x.jpg'", "<rss><channel><item></channel>", "&#55296;"] {
            var scanner = MarkupScanner(Array(text.utf8))
            var count = 0
            while scanner.next() != nil, count < 100 { count += 1 }
            XCTAssertLessThan(count, 100, text)
        }
        XCTAssertEqual(EntityDecoder.decode("&#55296;&#0;&#x41;&amp;&unknown;"), "\u{FFFD}\u{FFFD}A&&unknown;")
    }
}

/// Every input the fuzzer ever found, and every feed fixture, through each
/// feed reader: an item or a FeedError, never a crash or a hang.
final class FeedFuzzRegressionTests: XCTestCase {
    func testFuzzFindingsAndFixturesReadCleanly() throws {
        var paths: [URL] = []
        for dir in [Fixtures.fuzz, Fixtures.feeds] {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []
            paths += names.sorted().map { dir.appendingPathComponent($0) }
        }
        XCTAssertGreaterThan(paths.count, 5)
        let url = URL(string: "https://feeds.test/daily/feed.xml")!
        var items = 0
        for path in paths {
            let bytes = Array(try Data(contentsOf: path))
            for kind in [FeedKind.json, .xml, .html] {
                if (try? FeedReader.read(bytes, as: kind, feedURL: url, select: nil)) != nil { items += 1 }
            }
        }
        XCTAssertGreaterThan(items, 0, "the fixtures at least give items")
    }
}

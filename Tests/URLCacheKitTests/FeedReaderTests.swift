import Foundation
import URLCacheTestSupport
import XCTest

@testable import URLCacheKit

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
        do {
            _ = try read(bytes, type: type, select: select)
            return nil
        } catch { return error as? FeedError }
    }

    func testAPODPrefersHDAndKeepsItsWords() throws {
        let item = try read(fixture("apod.json"), type: "application/json")
        XCTAssertEqual(image(item), "http://feeds.test/image/hd/andromeda.jpg")
        XCTAssertEqual(item.title, "Andromeda Rising")
        XCTAssertEqual(item.credit, "Jane Stargazer", "whitespace around the copyright folded")
        XCTAssertEqual(
            item.description,
            "What's that glowing over the ridge? It's the Andromeda Galaxy, M31, rising & shining above a quiet valley."
        )
        XCTAssertEqual(
            image(try read(fixture("apod.json"), select: "url")),
            "http://feeds.test/image/andromeda_1024.jpg"
        )
    }

    func testAPODVideoDayIsNoImage() throws {
        let item = try read(fixture("apod-video.json"))
        XCTAssertEqual(item.media, .other(kind: "video", link: "https://www.youtube.com/embed/abc123?rel=0"))
        XCTAssertEqual(item.title, "The Corona in Motion")
    }

    func testBingsRelativeURLResolvesAgainstTheHost() throws {
        let item = try read(fixture("bing.json"))
        XCTAssertEqual(
            image(item),
            "http://feeds.test/th?id=OHR.LakeReflection_EN-US1234567890_1920x1080.jpg&rf=LaDigue_1920x1080.jpg&pid=hp"
        )
        XCTAssertEqual(item.title, "Still waters")
        XCTAssertEqual(item.credit, "Mountain lake at dawn, Patagonia (© A. Photographer/Agency)")
    }

    func testRSSTakesTheNewestItemsLargestMediaContent() throws {
        let item = try read(fixture("media.rss"), type: "application/rss+xml")
        XCTAssertEqual(
            image(item),
            "http://feeds.test/fern_large.jpg",
            "the 1600×1200 image, not the video or the small one"
        )
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
        let fallback = Array(
            #"<html><head><link rel="image_src" href="//cdn.test/a.png"><title>T</title></head></html>"#.utf8
        )
        XCTAssertEqual(image(try read(fallback)), "http://cdn.test/a.png")
    }

    // Shapes captured from the real services (issue: feeds as the real
    // services write them), one fixture each.

    func testAnArrayOfDaysTakesTheNewestOrIndexesFromTheEnd() throws {
        let days = try fixture("apod-days.json")
        let item = try read(days, type: "application/json")
        XCTAssertEqual(image(item), "http://feeds.test/image/2611/comet.jpg", "by its date, not its place")
        XCTAssertEqual(item.title, "Two Tails")
        XCTAssertEqual(image(try read(days, select: "-1.url")), "http://feeds.test/image/2611/saturn_1024.jpg")
        XCTAssertEqual(image(try read(days, select: "0.hdurl")), "http://feeds.test/image/2611/pleiades.jpg")
        XCTAssertEqual(
            image(try read(days, select: "url")),
            "http://feeds.test/image/2611/comet_1024.jpg",
            "a key applies to today"
        )
        let undated = Array(#"[{"url": "/a.jpg"}, {"url": "/b.jpg"}]"#.utf8)
        XCTAssertEqual(image(try read(undated)), "http://feeds.test/b.jpg", "no dates: the last")
        XCTAssertEqual(failure(undated, select: "-3.url"), .missingKey(path: "-3.url"))
    }

    func testJSONPWithJavaScriptEscapes() throws {
        let feed = try fixture("flickr.js")
        XCTAssertEqual(FeedKind.sniff(feed, contentType: "application/javascript"), .json)
        let item = try read(feed, type: "application/javascript", select: "items.0.media.m")
        XCTAssertEqual(image(item), "http://feeds.test/flickr/5300000001_ab12cd34ef_m.jpg")
        XCTAssertEqual(item.title, "It's a fern, frozen")
        XCTAssertEqual(item.description?.contains(#"fern \ at dawn"#), true, item.description ?? "")
        XCTAssertEqual(
            JSONText.unwrapped(Array(#"cb({"a": "x\\'y"});"#.utf8)),
            Array(#"{"a": "x\\'y"}"#.utf8),
            "an escaped backslash stays"
        )
    }

    func testBingsXMLArchiveAndWholeTagNames() throws {
        let feed = try fixture("bing.xml")
        for type in ["text/xml", "text/html", nil] {
            XCTAssertEqual(
                FeedKind.sniff(feed, contentType: type),
                .xml,
                "<headline> is no <head> (\(type ?? "no type"))"
            )
        }
        let item = try read(feed, type: "text/xml")
        XCTAssertEqual(
            image(item),
            "http://feeds.test/th?id=OHR.LakeReflection_EN-US1234567890_1920x1080.jpg&rf=LaDigue_1920x1080.jpg&pid=hp"
        )
        XCTAssertEqual(item.title, "Still waters")
        XCTAssertEqual(item.credit, "Mountain lake at dawn, Patagonia (© A. Photographer/Agency)")
        XCTAssertEqual(item.link, "https://www.bing.com/search?q=Patagonia")
        XCTAssertEqual(FeedKind.sniff(Array("<headline>x</headline>".utf8), contentType: nil), .xml)
        XCTAssertEqual(FeedKind.sniff(Array("<!-- hi --><head><title>x</title></head>".utf8), contentType: nil), .html)
        XCTAssertEqual(FeedKind.sniff(Array("<metadata><x/></metadata>".utf8), contentType: "application/xml"), .xml)
    }

    func testWidthOnlyMediaAndThumbnailsLast() throws {
        let item = try read(fixture("media-width.rss"))
        XCTAssertEqual(image(item), "http://feeds.test/harbour_1920.jpg", "the widest, not the 0×0 product's first")
        XCTAssertEqual(image(try read(fixture("thumbnail-only.rss"))), "http://feeds.test/dunes_medium.jpg")
        let a = ImageCandidate(url: "a", width: "800", height: "600")
        let b = ImageCandidate(url: "b", width: "1000")
        XCTAssertTrue(a.isSmaller(than: b), "no common product: the widths")
        XCTAssertTrue(ImageCandidate(url: "c").isSmaller(than: ImageCandidate(url: "d", height: "10")))
    }

    func testSrcsetsLargestCandidate() throws {
        let item = try read(fixture("wikipedia-potd.rss"))
        XCTAssertEqual(image(item), "http://feeds.test/wikipedia/commons/thumb/a/ab/Red_fox.jpg/600px-Red_fox.jpg")
        XCTAssertEqual(item.description, "The red fox is the largest of the true foxes.")
        func largest(_ srcset: String, src: String?) -> String? {
            ImageSizes(img: ["srcset": srcset, "src": src].compactMapValues { $0 })?.picture
        }
        XCTAssertEqual(largest("a.jpg 320w, b.jpg 1280w, c.jpg 640w", src: "s.jpg"), "b.jpg")
        XCTAssertEqual(largest("a.jpg, b.jpg 2x", src: nil), "b.jpg")
        XCTAssertEqual(
            largest("a.jpg,b.jpg 2x", src: nil),
            "a.jpg,b.jpg",
            "a comma inside a URL is the URL's (HTML's rule)"
        )
        XCTAssertEqual(largest("", src: "s.jpg"), "s.jpg")
        XCTAssertEqual(largest("x.jpg 3x", src: nil), "x.jpg")
        // With a declared width, a density is that many times as wide.
        XCTAssertEqual(
            ImageSizes(img: ["src": "s.jpg", "width": "300", "height": "200", "srcset": "b.jpg 2x"])?.sizes.map(
                \.width
            ),
            [300, 600]
        )
    }

    func testAPicturesOwnHeadingBesideItIsItsTitleWhereThePagesIsTheSites() throws {
        let item = try read(fixture("picture-heading.html"), type: "text/html")
        XCTAssertEqual(image(item), "http://feeds.test/daily/image/2611/horsehead_big.jpg")
        XCTAssertEqual(item.title, "The Horsehead in Infrared", "not the site's title, nor the credit's label")
        // A page that names its item keeps that name.
        let named =
            #"<html><head><title>Site</title><meta property="og:title" content="Its own"></head><body><b>Heading</b><img src="a.jpg"></body></html>"#
        XCTAssertEqual(try read(Array(named.utf8)).title, "Its own")
        let bare = #"<html><head><title>Site</title></head><body><img src="a.jpg"></body></html>"#
        XCTAssertEqual(try read(Array(bare.utf8)).title, "Site", "no heading: the page's title")
    }

    func testAListingOrderedByRankGivesItsFirstItemAndOneByDateItsNewest() throws {
        let top = try read(fixture("top-listing.rss"))
        XCTAssertEqual(image(top), "http://feeds.test/top/fog.jpg", "out of date order: the publisher's first")
        XCTAssertEqual(top.title, "Fog over the valley at dawn")
        let day = { (hour: Double) in Date(timeIntervalSince1970: 1_800_000_000 + hour * 3600) }
        XCTAssertEqual(XMLFeedReader.pick([day(3), day(2), day(1)]), 0, "newest first")
        XCTAssertEqual(XMLFeedReader.pick([day(1), day(2), day(3)]), 2, "oldest first (Wikimedia's)")
        XCTAssertEqual(XMLFeedReader.pick([day(2), day(3), day(1)]), 0, "by rank")
        XCTAssertEqual(XMLFeedReader.pick([day(1), nil, day(3)]), 0, "an item without a date")
    }

    func testAPODsOwnPageByItsLinkedFullSizeImage() throws {
        let item = try read(fixture("astropix.html"), type: "text/html")
        XCTAssertEqual(image(item), "http://feeds.test/daily/image/2611/comet_big.jpg")
        XCTAssertEqual(item.title, "Two Tails", "the picture's own heading, beside it, over the page's title")
        let page =
            #"<html><body><header><img src="logo.png" width="600" height="100"></header><main><img src="a.jpg" width="200" height="100"><img srcset="b.jpg 400w, c.jpg 1600w" src="b.jpg" width="400" height="300"></main></body></html>"#
        XCTAssertEqual(
            image(try read(Array(page.utf8))),
            "http://feeds.test/daily/c.jpg",
            "the main content's largest; the header's logo skipped"
        )
    }

    func testDaysThatAreNoPicture() throws {
        let other = try read(fixture("apod-other.json"))
        XCTAssertEqual(other.media, .other(kind: "other", link: nil))
        XCTAssertEqual(other.title, "Explore the Sky")
        XCTAssertEqual(
            DisplayOutcome.notAnImageToday(kind: "other", link: nil).statusLine,
            "Today's item is not an image (other); showing the previous image"
        )
        let video = try read(fixture("apod-video-thumbs.json"))
        XCTAssertEqual(
            video.media,
            .still(
                URL(string: "http://feeds.test/vi/abc123/0.jpg")!,
                kind: "video",
                link: "https://www.youtube.com/embed/abc123?rel=0"
            )
        )
        XCTAssertEqual(
            DisplayOutcome.stillOfToday(kind: "video", link: "https://y.test/v", new: true).statusLine,
            "Today's item is a video: https://y.test/v (a still of it is shown)"
        )
    }

    func testBadFeedsSayWhy() {
        XCTAssertEqual(
            failure(Array("<html><head><title>x</title></head><body><p>words only</p></body></html>".utf8)),
            .pageWithoutImage
        )
        XCTAssertEqual(failure(Array(#"{"title": "x"}"#.utf8)), .missingKey(path: "hdurl, url, image, images.0.url"))
        XCTAssertEqual(
            failure(Array(#"{"images": []}"#.utf8), select: "images.0.url"),
            .missingKey(path: "images.0.url")
        )
        XCTAssertEqual(failure(Array(#"{"url": 42}"#.utf8), select: "url"), .notAString(path: "url", found: "a number"))
        XCTAssertEqual(failure(Array(#"{"url": 42}"#.utf8)), .notAString(path: "url", found: "a number"))
        XCTAssertEqual(
            failure(Array("<rss version=\"2.0\"><channel><title>Empty</title></channel></rss>".utf8)),
            .noItem(kind: "RSS/Atom feed")
        )
        XCTAssertEqual(
            failure(Array(#"{"url": "file:///etc/passwd"}"#.utf8)),
            .badImageURL(text: "file:///etc/passwd", reason: "scheme file is not allowed (http or https only)")
        )
        XCTAssertEqual(failure(Array(#"{"url": "/daily/feed"}"#.utf8)), .pointsAtItself)
        XCTAssertEqual(failure(Array("{not json".utf8)), .badJSON)
        XCTAssertEqual(failure(Array("GIF89a".utf8), type: "image/gif"), .unknownKind(contentType: "image/gif"))
        for error in [
            FeedError.pageWithoutImage, .noItem(kind: "RSS/Atom feed"), .pointsAtItself, .tooLarge(limit: 2 << 20),
        ] {
            XCTAssertFalse(error.description.contains("\n"))
        }
    }

    func testDeclaredEntitiesAreNeverExpandedNorFetched() throws {
        // Billion laughs: ten levels of ten; expanded it would be 3 GB.
        var doctype = "<!DOCTYPE rss [\n<!ENTITY lol \"lol\">\n"
        for level in 1...9 {
            doctype +=
                "<!ENTITY lol\(level) \""
                + String(repeating: "&lol\(level - 1 == 0 ? "" : String(level - 1));", count: 10) + "\">\n"
        }
        doctype += "<!ENTITY xxe SYSTEM \"file:///etc/passwd\">\n]>\n"
        let feed =
            doctype + """
                <rss version="2.0"><channel><item><title>&lol9; &xxe;</title>
                <enclosure url="http://feeds.test/a.jpg" type="image/jpeg"/></item></channel></rss>
                """
        let item = try read(Array(feed.utf8))
        XCTAssertEqual(item.title, "&lol9; &xxe;", "left as written")
        XCTAssertEqual(image(item), "http://feeds.test/a.jpg")
    }

    func testScannerSurvivesBrokenMarkup() {
        for text in [
            "<", "<a", "<a href=", "<a href=\"x", "<!--", "<![CDATA[", "<!DOCTYPE [", "</", "&#xFFFFFFFF;", "&#0;",
            "<?xml",
            "<item><enclosure url='x.jpg'", "<rss><channel><item></channel>", "&#55296;",
        ] {
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

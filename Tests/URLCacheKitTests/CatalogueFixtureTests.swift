import Foundation
import URLCacheTestSupport
import XCTest

@testable import URLCacheKit

/// Every feed of the catalogue read from a fixture in its publisher's
/// shape (Tests/Fixtures/feeds/SOURCES.md says where each shape was read),
/// as a fetch reads it: the catalogue's own select, its own address to
/// resolve against. The live sources are image addresses: nothing to read.
final class CatalogueFixtureTests: XCTestCase {
    /// The fixture, the image the day's item names (a relative one resolved
    /// against the catalogue's address, as Bing's), and its title.
    let expected: [String: (fixture: String, image: String, title: String)] = [
        "bing": (
            "bing.json",
            "https://www.bing.com/th?id=OHR.LakeReflection_EN-US1234567890_1920x1080.jpg&rf=LaDigue_1920x1080.jpg&pid=hp",
            "Still waters"
        ),
        "apod": (
            "apod-science.json",
            "http://feeds.test/dynamicimage/assets/science/cds/apod/2026/10/etna_moon.jpg?w=4000&h=2667",
            "Harvest Moon with Erupting Mount Etna"
        ),
        "apod-api": ("apod.json", "http://feeds.test/image/hd/andromeda.jpg", "Andromeda Rising"),
        "wikimedia": (
            "commons-potd.rss",
            "http://feeds.test/commons/thumb/Old_bridge.jpg/1280px-Old_bridge.jpg",
            "Wikimedia Commons picture of the day for November 23"
        ),
        "wikipedia": (
            "wikipedia-potd.rss",
            "http://feeds.test/wikipedia/commons/thumb/a/ab/Red_fox.jpg/600px-Red_fox.jpg",
            "Wikipedia picture of the day for November 23"
        ),
        "nasa-iotd": (
            "nasa-iotd.rss",
            "http://feeds.test/wp-content/uploads/2026/11/iss074e012345.jpg",
            "Aurora over the Space Station"
        ),
        // Its feed names a thumbnail only (docs/url-list.md says so).
        "earth-observatory": (
            "earth-observatory.rss",
            "http://feeds.test/images/imagerecords/154000/154195/tibet_oli_2026331_th.jpg",
            "Snow Dusts the Tibetan Plateau"
        ),
        "epod": (
            "epod.html",
            "http://feeds.test/.a/6a0105371bb32c970b02c8d3c1bc3f200c-750wi",
            "Lenticular Clouds over Mount Shasta"
        ),
        "eso-potw": (
            "eso-potw.rss",
            "http://feeds.test/images/news/potw2648a.jpg",
            "ESO's Extremely Large Telescope from space"
        ),
        "esa-webb": (
            "eso-potw.rss",
            "http://feeds.test/images/news/potw2648a.jpg",
            "ESO's Extremely Large Telescope from space"
        ),
    ]

    func testEveryFeedOfTheCatalogueIsReadFromItsFixture() throws {
        let feeds = Catalogue.sources.filter { $0.feed != nil }
        XCTAssertEqual(Set(feeds.map(\.name)), Set(expected.keys), "each feed has its fixture")
        for source in feeds {
            let want = try XCTUnwrap(expected[source.name])
            let text = try String(
                contentsOf: Fixtures.feeds.appendingPathComponent(want.fixture),
                encoding: .utf8
            )
            let item = try FeedReader.read(
                Array(text.replacingOccurrences(of: "{{BASE}}", with: "http://feeds.test").utf8),
                contentType: nil,
                feedURL: try XCTUnwrap(source.entry(environment: [:])?.url),
                select: source.feed?.select
            )
            guard case let .image(url) = item.media else { return XCTFail("\(source.name): no image") }
            XCTAssertEqual(url.absoluteString, want.image, source.name)
            XCTAssertEqual(item.title, want.title, source.name)
        }
    }
}

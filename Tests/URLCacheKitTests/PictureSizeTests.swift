import BlockArt
import Foundation
import URLCacheTestSupport
import XCTest

@testable import URLCacheKit

/// The sizes a document offers of its picture, read from fixtures with
/// several, and the choice `size: largest|screen` makes among them.
final class PictureSizeTests: XCTestCase {
    let base = "http://feeds.test"
    let feedURL = URL(string: "http://feeds.test/daily/feed")!

    private func read(_ name: String) throws -> FeedItem {
        let text = try String(contentsOf: Fixtures.feeds.appendingPathComponent(name), encoding: .utf8)
        let bytes = Array(text.replacingOccurrences(of: "{{BASE}}", with: base).utf8)
        return try FeedReader.read(bytes, contentType: nil, feedURL: feedURL, select: nil)
    }

    private func pick(_ item: FeedItem, _ ask: SizeAsk) -> String? { ask.pick(item.sizes)?.url.absoluteString }

    private func screen(_ width: Int, _ height: Int) -> SizeAsk { .screen(PixelSize(width: width, height: height)) }

    func testBingOffersItsArchiveSizesFromUHDDown() throws {
        let item = try read("bing.json")
        let id = "http://feeds.test/th?id=OHR.LakeReflection_EN-US1234567890_"
        let tail = ".jpg&rf=LaDigue_1920x1080.jpg&pid=hp"
        XCTAssertEqual(
            item.sizes.map(\.url.absoluteString),
            ["1280x720", "1366x768", "1920x1080", "UHD"].map { id + $0 + tail }
        )
        XCTAssertEqual(item.sizes.last?.sizeText, "3840x2160")
        XCTAssertEqual(pick(item, .largest), id + "UHD" + tail)
        XCTAssertEqual(pick(item, screen(1300, 700)), id + "1280x720" + tail, "720 rows fill a 700-row area")
        XCTAssertEqual(pick(item, screen(160, 88)), id + "1280x720" + tail, "block art: the smallest")
        XCTAssertEqual(pick(item, screen(5000, 3000)), id + "UHD" + tail, "none fills: the largest")
        // The XML archive names the same picture the same way.
        XCTAssertEqual(try read("bing.xml").sizes.count, 4)
    }

    func testMediaWikiThumbnailsGoUpToTheOriginalsWidthInItsSteps() throws {
        let item = try read("wikipedia-potd.rss")
        let stem = "http://feeds.test/wikipedia/commons/thumb/a/ab/Red_fox.jpg/"
        // src 300 wide (300x200), srcset 1.5x and 2x, the file 4000x2667.
        XCTAssertEqual(
            item.sizes.map(\.width),
            [250, 300, 330, 450, 500, 600, 960, 1280, 1920, 3840]
        )
        XCTAssertEqual(item.sizes.first { $0.width == 960 }?.height, 640, "heights from the file's shape")
        XCTAssertEqual(pick(item, .largest), stem + "3840px-Red_fox.jpg")
        XCTAssertEqual(pick(item, screen(1000, 600)), stem + "960px-Red_fox.jpg", "640 rows fill 600")
        XCTAssertEqual(pick(item, screen(120, 60)), stem + "250px-Red_fox.jpg")
        // The feed's own picture is still the largest it names.
        if case let .image(url) = item.media { XCTAssertEqual(url.absoluteString, stem + "600px-Red_fox.jpg") }
    }

    func testAThumbnailWithNoOriginalSizeOffersOnlySmallerSteps() throws {
        let item = try read("commons-potd.rss")
        XCTAssertEqual(item.sizes.map(\.width), [250, 330, 500, 960, 1280])
        XCTAssertEqual(item.sizes.last?.height, 853)
        XCTAssertEqual(pick(item, .largest), "http://feeds.test/commons/thumb/Old_bridge.jpg/1280px-Old_bridge.jpg")
    }

    func testMediaContentWidthsAndAPODsTwoAddresses() throws {
        let media = try read("media-width.rss")
        XCTAssertEqual(media.sizes.map(\.width), [640, 1024, 1920])
        XCTAssertEqual(pick(media, screen(800, 400)), "http://feeds.test/harbour_1024.jpg")
        // APOD says no sizes: its url is the smaller, hdurl the larger; a
        // screen ask cannot know the smaller fills, so takes the larger.
        let apod = try read("apod.json")
        XCTAssertEqual(
            apod.sizes.map(\.url.absoluteString),
            ["http://feeds.test/image/andromeda_1024.jpg", "http://feeds.test/image/hd/andromeda.jpg"]
        )
        XCTAssertEqual(pick(apod, screen(160, 88)), "http://feeds.test/image/hd/andromeda.jpg")
        // The page: the linked file is the full size, the shown one smaller.
        let page = try read("astropix.html")
        XCTAssertEqual(page.sizes.map(\.url.lastPathComponent), ["comet_1024.jpg", "comet_big.jpg"])
        // One size: no offers at all.
        XCTAssertEqual(try read("feed.atom").sizes, [])
    }

    func testACopyTakenSmallerIsNoAnswerToALargerAsk() throws {
        let item = try read("bing.json")
        let ask = screen(1300, 700)
        let offer = try XCTUnwrap(ask.pick(item.sizes))
        let taken = try XCTUnwrap(TakenSize.taking(offer, of: item.sizes, for: ask))
        XCTAssertEqual(taken.summary, "1280x720 of 4 sizes, for a 1300x700 screen")
        XCTAssertTrue(ask.isServed(by: taken))
        XCTAssertTrue(screen(800, 400).isServed(by: taken), "a smaller window: the copy fills it")
        XCTAssertFalse(screen(1900, 1000).isServed(by: taken), "a larger window")
        XCTAssertFalse(SizeAsk.largest.isServed(by: taken), "a wallpaper hook's fetch")
        XCTAssertTrue(SizeAsk.screenFirst(PixelSize(width: 4000, height: 3000)).isServed(by: taken))
        let largest = try XCTUnwrap(TakenSize.taking(item.sizes[3], of: item.sizes, for: .largest))
        XCTAssertEqual(largest.summary, "the largest of 4 sizes (3840x2160)")
        XCTAssertTrue(SizeAsk.largest.isServed(by: largest))
        XCTAssertTrue(SizeAsk.largest.isServed(by: nil), "a record from before sizes")
        // screenFirst is the screen's: screen sized until the entry has an image.
        let first = SizeAsk.screenFirst(PixelSize(width: 10, height: 10))
        XCTAssertEqual(first.settled(hasCopy: false), screen(10, 10))
        XCTAssertEqual(first.settled(hasCopy: true), .largest)
        XCTAssertEqual(SizeAsk.given(.screen, area: nil, screenDefault: true), .largest, "no terminal")
        XCTAssertEqual(SizeAsk.given(nil, area: PixelSize(width: 9, height: 9), screenDefault: false), .largest)
    }

    func testTheTakenSizeIsKeptInTheRecordFile() throws {
        var record = CacheRecord(url: "http://feeds.test/feed")
        record.image.size = TakenSize(width: 1280, height: 720, offered: 4, largest: false, area: "1300x700")
        let read = try XCTUnwrap(CacheRecord.decode(record.encoded()))
        XCTAssertEqual(read.image.size, record.image.size)
        XCTAssertEqual(CacheRecord.decode(Data(#"{"url": "x", "size": 3}"#.utf8))?.image.size, nil, "damaged: ignored")
    }
}

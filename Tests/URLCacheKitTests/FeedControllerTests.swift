import Foundation
import URLCacheTestSupport
import XCTest

@testable import URLCacheKit

/// The feed path's decisions through a stand-in transport: what is asked,
/// and what is recorded when the image fails.
final class FeedControllerTests: XCTestCase {
    private var directory: URL!
    private let feedURL = URL(string: "http://feeds.example/apod.json")!
    private let now = Date(timeIntervalSince1970: 1_800_000_000)

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("urlcache-feed-\(UUID().uuidString)")
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: directory) }

    private func controller(_ transport: StandInTransport, at date: Date) -> URLCacheController {
        URLCacheController(
            cache: DiskCache(directory: directory.path),
            transport: transport,
            clock: FixedClock(date: date)
        )
    }

    private var entry: URLEntry { URLEntry(url: feedURL, feed: FeedSpec()) }

    private func feed(_ image: String, etag: String) -> StandInTransport.Reply {
        .response(
            ResponseHead(
                status: 200,
                reason: "OK",
                contentType: "application/json",
                validators: Validators(etag: etag)
            ),
            body: [Array(#"{"title": "Today", "hdurl": "\#(image)"}"#.utf8)]
        )
    }

    private func image(_ status: Int, etag: String? = nil, fill: UInt8 = 7) -> StandInTransport.Reply {
        let bytes = TinyPNG.bytes(gray: fill)
        return .response(
            ResponseHead(
                status: status,
                reason: status == 200 ? "OK" : "Not Found",
                contentType: "image/png",
                validators: Validators(etag: etag)
            ),
            body: status == 200 ? [bytes] : [Array("gone".utf8)]
        )
    }

    func testAFailedImageRecordsNothingSoTheFeedIsReadAgain() throws {
        let first = StandInTransport([feed("/a.png", etag: "\"f1\""), image(200, etag: "\"i1\"")])
        XCTAssertEqual(
            controller(first, at: now.addingTimeInterval(-200_000)).display(entry).result,
            .success(.newlyCached)
        )
        XCTAssertEqual(first.requests.map(\.url.path), ["/apod.json", "/a.png"])
        // One maxTime for the whole check: the feed and its image share one deadline.
        let deadlines = first.requests.map(\.limits.deadline)
        XCTAssertNotNil(deadlines.first ?? nil)
        XCTAssertEqual(deadlines.first, deadlines.last)
        if let deadline = deadlines.first ?? nil {
            XCTAssertLessThanOrEqual((deadline - .now).seconds, first.requests[1].limits.maxTime)
            // A transfer started long ago has no time left, whatever the deadline.
            XCTAssertLessThan(first.requests[1].limits.timeLeft(since: .now - .seconds(400)), 0)
        }

        // A new item whose image is missing: the error, and the old record kept.
        let failing = StandInTransport([feed("/b.png", etag: "\"f2\""), image(404)])
        let report = controller(failing, at: now.addingTimeInterval(-100_000)).display(entry)
        guard case let .failure(.announcedImage(url, error)) = report.result else { return XCTFail("\(report.result)") }
        XCTAssertEqual(url, "http://feeds.example/b.png")
        XCTAssertEqual(error, .httpStatus(status: 404, reason: "Not Found", contentType: "image/png"))
        XCTAssertEqual(failing.requests.first?.ifNoneMatch, "\"f1\"")
        XCTAssertEqual(
            report.copy?.metadata?.feedValidators.etag,
            "\"f1\"",
            "the feed's new validators are not recorded"
        )
        XCTAssertEqual(report.copy?.metadata?.image.url, "http://feeds.example/a.png")

        // So the next check asks with the old validators, and gets the new item again.
        let again = StandInTransport([feed("/b.png", etag: "\"f2\""), image(200, etag: "\"i2\"", fill: 9)])
        XCTAssertEqual(controller(again, at: now).display(entry).result, .success(.newlyCached))
        XCTAssertEqual(again.requests.first?.ifNoneMatch, "\"f1\"")
        XCTAssertNil(again.requests.last?.ifNoneMatch, "a new image URL is asked plainly")
    }

    func testTheSameImageURLIsAskedConditionally() throws {
        let first = StandInTransport([feed("/a.png", etag: "\"f1\""), image(200, etag: "\"i1\"")])
        _ = controller(first, at: now.addingTimeInterval(-200_000)).display(entry)
        let second = StandInTransport([feed("/a.png", etag: "\"f2\""), image(304, etag: "\"i1\"")])
        let report = controller(second, at: now).display(entry)
        XCTAssertEqual(report.result, .success(.upToDate))
        XCTAssertEqual(second.requests.last?.ifNoneMatch, "\"i1\"")
        XCTAssertEqual(report.copy?.metadata?.feedValidators.etag, "\"f2\"")
        XCTAssertEqual(report.copy?.metadata?.image.validators.etag, "\"i1\"")
    }

    func testAnUnchangedImageKeepsTheDayItWasFirstSeen() throws {
        let plain = URLEntry(url: URL(string: "http://images.example/a.png")!)
        let start = now.addingTimeInterval(-2 * 86_400)
        XCTAssertEqual(
            controller(StandInTransport([image(200, etag: "\"i1\"")]), at: start).display(plain).result,
            .success(.newlyCached)
        )
        XCTAssertEqual(
            controller(StandInTransport([image(304, etag: "\"i1\"")]), at: now).display(plain).result,
            .success(.upToDate)
        )
        let history = try DiskCache(directory: directory.path).history(plain.url)
        XCTAssertEqual(history.count, 1)
        XCTAssertEqual(history.first?.firstSeen, start, "a 304 is a check, not a new image")
    }

    func testOfflineAsksNothing() throws {
        let transport = StandInTransport([])
        var offline = controller(transport, at: now)
        offline.offline = true
        XCTAssertEqual(offline.display(entry).result, .failure(.offlineNothingCached))
        XCTAssertTrue(transport.requests.isEmpty)
    }

    /// A 304 to a feed asked with no condition confirms nothing: with no
    /// copy, there is nothing to confirm; with one, it is not the copy's.
    func testAFeedsUnaskedNotModifiedConfirmsNothing() throws {
        let unasked = StandInTransport.Reply.response(ResponseHead(status: 304, reason: "Not Modified"), body: [])
        let none = StandInTransport([unasked])
        XCTAssertEqual(controller(none, at: now).display(entry).result, .failure(.notModifiedWithoutCopy))
        XCTAssertNil(none.requests.first?.ifNoneMatch)

        // A copy whose feed gave no validators is checked with a plain GET.
        let plainFeed = StandInTransport.Reply.response(
            ResponseHead(status: 200, reason: "OK", contentType: "application/json"),
            body: [Array(#"{"title": "Today", "hdurl": "/a.png"}"#.utf8)]
        )
        let first = StandInTransport([plainFeed, image(200, etag: "\"i1\"")])
        XCTAssertEqual(controller(first, at: now).display(entry).result, .success(.newlyCached))
        let later = StandInTransport([unasked])
        let report = controller(later, at: now.addingTimeInterval(200_000)).display(entry)
        XCTAssertEqual(report.result, .failure(.unaskedNotModified))
        XCTAssertNil(later.requests.first?.ifNoneMatch)
        XCTAssertEqual(report.copy?.metadata?.image.url, "http://feeds.example/a.png", "the copy is kept")
    }

    /// A feed over its limit is refused by its Content-Length before its
    /// validators are looked at, even when they show it unchanged.
    func testAFeedOverItsLimitIsRefusedEvenWhenItsHeadersShowItUnchanged() throws {
        let first = StandInTransport([feed("/a.png", etag: "\"f1\""), image(200, etag: "\"i1\"")])
        XCTAssertEqual(controller(first, at: now).display(entry).result, .success(.newlyCached))
        let huge = StandInTransport([
            .response(
                ResponseHead(
                    status: 200,
                    reason: "OK",
                    contentType: "application/json",
                    contentLength: 3 << 20,
                    validators: Validators(etag: "\"f1\"")
                ),
                body: []
            )
        ])
        let report = controller(huge, at: now.addingTimeInterval(200_000)).display(entry)
        XCTAssertEqual(report.result, .failure(.feed(.tooLarge(limit: 2 << 20))))
    }
}

import Foundation
import Synchronization
import URLCacheTestSupport
import XCTest

@testable import URLCacheKit

final class ControllerTests: XCTestCase {
    var directory: URL!
    let url = URL(string: "http://images.example/sun.png")!
    let now = Date(timeIntervalSince1970: 1_800_000_000)
    private let png = TinyPNG.bytes(gray: 7)
    private let otherPNG = TinyPNG.bytes(gray: 9)

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("urlcache-unit-\(UUID().uuidString)")
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    var cache: DiskCache { DiskCache(directory: directory.path) }

    func controller(_ transport: StandInTransport, at date: Date? = nil) -> URLCacheController {
        URLCacheController(cache: cache, transport: transport, clock: FixedClock(date: date ?? now))
    }

    func head(
        _ status: Int,
        etag: String? = nil,
        lastModified: String? = nil,
        type: String? = "image/png"
    ) -> ResponseHead {
        ResponseHead(
            status: status,
            reason: "R",
            contentType: type,
            validators: Validators(etag: etag, lastModified: lastModified)
        )
    }

    /// Caches `png` with an ETag, checked a day and a half ago.
    func seed(etag: String? = "\"v1\"") throws {
        let seeding = StandInTransport([.response(head(200, etag: etag), body: [png])])
        let report = controller(seeding, at: now.addingTimeInterval(-130_000)).display(url)
        XCTAssertEqual(report.result, .success(.newlyCached))
    }

    private func stagingFiles() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.contains(".tmp.") }
    }

    func testFreshCopyAsksNothing() throws {
        try seed()
        let transport = StandInTransport([])
        let report = controller(transport, at: now.addingTimeInterval(-129_000)).display(url)
        XCTAssertEqual(report.result, .success(.previouslyCached))
        XCTAssertTrue(transport.requests.isEmpty)
    }

    func testFirstDownloadIsCommittedWithItsValidators() throws {
        let transport = StandInTransport([
            .response(
                head(200, etag: "\"v1\"", lastModified: "Sat, 01 Nov 2026 10:00:00 GMT"),
                body: [Array(png[0..<10]), Array(png[10...])]
            )
        ])
        let report = controller(transport).display(url)
        XCTAssertEqual(report.result, .success(.newlyCached))
        let copy = try XCTUnwrap(report.copy)
        XCTAssertEqual(Array(try Data(contentsOf: URL(fileURLWithPath: copy.imagePath))), png)
        XCTAssertEqual(copy.updated, now)
        XCTAssertEqual(copy.metadata?.image.validators.etag, "\"v1\"")
        XCTAssertNil(transport.requests.first?.ifNoneMatch, "nothing cached: a plain GET")
        XCTAssertEqual(try stagingFiles(), [])
    }

    func testNotModifiedKeepsStoredValidatorsWhenItSendsNone() throws {
        try seed()
        let transport = StandInTransport([.response(head(304, type: nil), body: [])])
        let report = controller(transport).display(url)
        XCTAssertEqual(report.result, .success(.upToDate))
        XCTAssertEqual(transport.requests.first?.ifNoneMatch, "\"v1\"")
        XCTAssertEqual(report.copy?.metadata?.image.validators.etag, "\"v1\"")
        XCTAssertEqual(report.copy?.updated, now, "a successful check moves Updated")
    }

    func testNotModifiedWithNewValidatorsStoresThem() throws {
        try seed()
        let report = controller(StandInTransport([.response(head(304, etag: "\"v2\""), body: [])])).display(url)
        XCTAssertEqual(report.result, .success(.upToDate))
        XCTAssertEqual(report.copy?.metadata?.image.validators.etag, "\"v2\"")
    }

    func testNotModifiedWithoutACopyIsAnError() throws {
        let report = controller(StandInTransport([.response(head(304), body: [])])).display(url)
        XCTAssertEqual(report.result, .failure(.notModifiedWithoutCopy))
        XCTAssertNil(report.copy)
    }

    func testHeadersShowingTheSameETagStopBeforeTheBody() throws {
        try seed()
        // A server that ignores conditions: 200 with the same ETag, and a body never read.
        let report = controller(StandInTransport([.response(head(200, etag: "\"v1\""), body: [otherPNG])])).display(url)
        XCTAssertEqual(report.result, .success(.upToDate))
        let copy = try XCTUnwrap(report.copy)
        XCTAssertEqual(Array(try Data(contentsOf: URL(fileURLWithPath: copy.imagePath))), png, "the body was not taken")
    }

    func testErrorStatusKeepsTheCopy() throws {
        try seed()
        let report = controller(
            StandInTransport([.response(head(500, type: "text/html"), body: [Array("<html>".utf8)])])
        ).display(url)
        XCTAssertEqual(report.result, .failure(.httpStatus(status: 500, reason: "R", contentType: "text/html")))
        XCTAssertEqual(report.copy?.updated, now.addingTimeInterval(-130_000), "Updated is unchanged")
    }

    func testHTMLBodyIsRejectedAndNeverStored() throws {
        let page = Array("<!DOCTYPE html><html><body>not found</body></html>".utf8)
        let report = controller(StandInTransport([.response(head(200, type: "text/html"), body: [page])])).display(url)
        XCTAssertEqual(report.result, .failure(.notAnImage(what: "HTML text", status: 200, contentType: "text/html")))
        XCTAssertNil(report.copy)
        XCTAssertEqual(try stagingFiles(), [], "the staged bytes are gone")
    }

    func testShortNonImageBodyIsRejectedAtTheEnd() throws {
        let report = controller(StandInTransport([.response(head(200), body: [Array("GIF8".utf8)])])).display(url)
        XCTAssertEqual(
            report.result,
            .failure(.notAnImage(what: "GIF of an unknown version", status: 200, contentType: "image/png"))
        )
        XCTAssertEqual(try stagingFiles(), [])
    }

    /// A body that decodes, but as an image too large to show, is not kept
    /// either; it is not called damaged.
    func testAnImageTooLargeToShowIsNotKeptNorCalledDamaged() throws {
        try seed()
        let bomb = Array(try Data(contentsOf: Fixtures.images.appendingPathComponent("bomb.png")))
        let report = controller(StandInTransport([.response(head(200, etag: "\"v2\""), body: [bomb])])).display(url)
        XCTAssertEqual(report.result, .failure(.cannotShow(detail: "image too large: 100000×100000")))
        XCTAssertEqual(Array(try Data(contentsOf: URL(fileURLWithPath: try XCTUnwrap(report.copy).imagePath))), png)
    }

    func testEmptyBodyIsNamed() throws {
        let report = controller(StandInTransport([.response(head(200), body: [])])).display(url)
        XCTAssertEqual(report.result, .failure(.notAnImage(what: "empty file", status: 200, contentType: "image/png")))
    }

    func testSameBytesWithoutValidatorsAreUpToDate() throws {
        try seed(etag: nil)
        let transport = StandInTransport([.response(head(200), body: [png])])
        let report = controller(transport).display(url)
        XCTAssertEqual(report.result, .success(.upToDate))
        XCTAssertNil(transport.requests.first?.ifNoneMatch)
        XCTAssertEqual(report.copy?.updated, now)
        XCTAssertEqual(try stagingFiles(), [])
    }

    func testChangedImageReplacesTheCopy() throws {
        try seed()
        let report = controller(StandInTransport([.response(head(200, etag: "\"v2\""), body: [otherPNG])])).display(url)
        XCTAssertEqual(report.result, .success(.newlyCached))
        let copy = try XCTUnwrap(report.copy)
        XCTAssertEqual(Array(try Data(contentsOf: URL(fileURLWithPath: copy.imagePath))), otherPNG)
        XCTAssertEqual(copy.metadata?.image.validators.etag, "\"v2\"")
    }

    func testTransportFailureKeepsTheCopy() throws {
        try seed()
        let report = controller(StandInTransport([.failure(.cannotResolve(host: "images.example"))])).display(url)
        XCTAssertEqual(report.result, .failure(.transport(.cannotResolve(host: "images.example"))))
        XCTAssertEqual(report.copy?.updated, now.addingTimeInterval(-130_000))
    }

    func testForceChecksAFreshCopy() throws {
        try seed()
        let transport = StandInTransport([.response(head(304), body: [])])
        let report = controller(transport, at: now.addingTimeInterval(-129_000)).display(url, force: true)
        XCTAssertEqual(report.result, .success(.upToDate))
        XCTAssertEqual(transport.requests.count, 1)
    }

    func testCacheThatCannotBeCreatedIsReported() throws {
        let file = directory.path + "-file"
        FileManager.default.createFile(atPath: file, contents: Data())
        defer { try? FileManager.default.removeItem(atPath: file) }
        let blocked = URLCacheController(
            cache: DiskCache(directory: file),
            transport: StandInTransport([]),
            clock: FixedClock(date: now)
        )
        XCTAssertEqual(blocked.display(url).result, .failure(.cache(.notADirectory(path: file))))
    }
}

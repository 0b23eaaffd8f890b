import Foundation
import URLCacheTestSupport
import XCTest

@testable import URLCacheKit

/// The `.meta` reader, which reads files anyone who can write the cache can
/// edit: the fuzzer's seeds and findings replayed, and a link never read.
final class CacheRecordReaderTests: XCTestCase {
    func testARecordAsTheCacheWritesItReadsWhole() throws {
        let record = try XCTUnwrap(
            CacheRecord.decode(try Data(contentsOf: Fixtures.cache.appendingPathComponent("feed-entry.meta")))
        )
        XCTAssertEqual(record.caption.title, "Edge-on galaxy")
        XCTAssertEqual(
            record.feedValidators,
            Validators(etag: "W/\"f1\"", lastModified: "Mon, 23 Nov 2026 21:12:55 GMT")
        )
        XCTAssertEqual(record.freshness.lifetime?.reason, "max-age")
        XCTAssertEqual(record.freshness.lifetime?.mustRevalidate, true)
    }

    /// The record's groups are the Swift side's: its file is the flat
    /// object every earlier version wrote and read, key for key.
    func testTheFileIsTheFlatObjectItAlwaysWas() throws {
        let file = try Data(contentsOf: Fixtures.cache.appendingPathComponent("feed-entry.meta"))
        var every = try XCTUnwrap(JSONSerialization.jsonObject(with: file) as? [String: Any])
        every["etag"] = "\"i1\""
        every["lastModified"] = "Sun, 22 Nov 2026 10:00:00 GMT"
        every["contentType"] = "image/jpeg"
        every["cacheControl"] = "max-age=60"
        every["expires"] = "Mon, 23 Nov 2026 22:00:00 GMT"
        every["refusal"] = ["status": 404, "at": 1, "until": 2]
        every["movedTo"] = ["target": "https://b.example/feed", "at": 1, "until": 2]
        every["patience"] = ["status": 503, "at": 1, "until": 2]
        every["failures"] = ["count": 2, "at": 1, "until": 2]
        let written = try JSONSerialization.data(withJSONObject: every)
        let record = try XCTUnwrap(CacheRecord.decode(written))
        XCTAssertEqual(
            record.image.validators,
            Validators(etag: "\"i1\"", lastModified: "Sun, 22 Nov 2026 10:00:00 GMT")
        )
        XCTAssertEqual(record.remembered.failures?.count, 2)
        let again = try XCTUnwrap(JSONSerialization.jsonObject(with: record.encoded()) as? [String: Any])
        XCTAssertEqual(again as NSDictionary, every as NSDictionary)
        XCTAssertEqual(
            Set(again.keys),
            [
                "url", "etag", "lastModified", "contentType", "imageURL", "feedETag", "feedLastModified",
                "title", "credit", "description", "link", "firstSeen", "lifetime", "cacheControl",
                "expires", "refusal", "movedTo", "patience", "failures",
            ]
        )
    }

    func testEveryFuzzInputAndFixtureReadsOrIsRefused() throws {
        var paths: [URL] = []
        for dir in [Fixtures.fuzz, Fixtures.feeds, Fixtures.cache] {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []
            paths += names.sorted().map { dir.appendingPathComponent($0) }
        }
        XCTAssertGreaterThan(paths.count, 5)
        var records = 0
        for path in paths {
            guard let record = CacheRecord.decode(try Data(contentsOf: path)) else { continue }
            records += 1
            XCTAssertFalse(record.url.terminalSafe.unicodeScalars.contains { $0.value < 0x20 })
        }
        XCTAssertGreaterThan(records, 0)
    }

    func testALinkInPlaceOfARecordIsNotRead() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("urlcache-unit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let link = dir.appendingPathComponent("x.meta").path
        try FileManager.default.createSymbolicLink(
            atPath: link,
            withDestinationPath: Fixtures.cache.appendingPathComponent("feed-entry.meta").path
        )
        XCTAssertNil(CacheRecord.read(link))
        XCTAssertNotNil(CacheRecord.read(Fixtures.cache.appendingPathComponent("feed-entry.meta").path))
    }
}

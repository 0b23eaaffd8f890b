import Foundation
import XCTest
@testable import URLCacheKit
import URLCacheTestSupport

/// The `.meta` reader, which reads files anyone who can write the cache can
/// edit: the fuzzer's seeds and findings replayed, and a link never read.
final class CacheRecordReaderTests: XCTestCase {
    func testARecordAsTheCacheWritesItReadsWhole() throws {
        let record = try XCTUnwrap(CacheMetadata.decode(try Data(contentsOf: Fixtures.cache.appendingPathComponent("feed-entry.meta"))))
        XCTAssertEqual(record.title, "Edge-on galaxy")
        XCTAssertEqual(record.feedValidators, Validators(etag: "W/\"f1\"", lastModified: "Mon, 23 Nov 2026 21:12:55 GMT"))
        XCTAssertEqual(record.lifetime?.reason, "max-age")
        XCTAssertEqual(record.lifetime?.mustRevalidate, true)
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
            guard let record = CacheMetadata.decode(try Data(contentsOf: path)) else { continue }
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
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: Fixtures.cache.appendingPathComponent("feed-entry.meta").path)
        XCTAssertNil(CacheMetadata.read(link))
        XCTAssertNotNil(CacheMetadata.read(Fixtures.cache.appendingPathComponent("feed-entry.meta").path))
    }
}

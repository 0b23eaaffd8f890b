import Foundation
import XCTest

@testable import URLCacheKit

/// The policy as a pure function of the copy, the clock and the validators.
final class RefreshPolicyTests: XCTestCase {
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    private func copy(
        age: TimeInterval,
        etag: String? = "\"abc\"",
        lastModified: String? = "Sat, 01 Nov 2026 10:00:00 GMT"
    ) -> CachedCopy {
        CachedCopy(
            imagePath: "/x.img",
            updated: now.addingTimeInterval(-age),
            metadata: CacheRecord(url: "http://h/x.jpg", etag: etag, lastModified: lastModified)
        )
    }

    private func plan(_ cached: CachedCopy?, force: Bool = false, interval: TimeInterval = 86_400) -> RefreshPolicy.Plan
    {
        RefreshPolicy.plan(cached: cached, now: now, interval: interval, force: force)
    }

    func testNoCopyDownloads() {
        XCTAssertEqual(plan(nil), .download)
    }

    func testWithin24HoursUsesTheCopy() {
        XCTAssertEqual(plan(copy(age: 0)), .useCached)
        XCTAssertEqual(plan(copy(age: 86_399)), .useCached)
    }

    func testAt24HoursChecksWithBothValidators() {
        XCTAssertEqual(
            plan(copy(age: 86_400)),
            .check(ifNoneMatch: "\"abc\"", ifModifiedSince: "Sat, 01 Nov 2026 10:00:00 GMT")
        )
    }

    func testForceChecksAFreshCopy() {
        XCTAssertEqual(
            plan(copy(age: 5), force: true),
            .check(ifNoneMatch: "\"abc\"", ifModifiedSince: "Sat, 01 Nov 2026 10:00:00 GMT")
        )
    }

    func testIntervalIsAnInput() {
        XCTAssertEqual(
            plan(copy(age: 61), interval: 60),
            .check(ifNoneMatch: "\"abc\"", ifModifiedSince: "Sat, 01 Nov 2026 10:00:00 GMT")
        )
        XCTAssertEqual(plan(copy(age: 59), interval: 60), .useCached)
    }

    func testFarFutureModificationTimeIsStale() {
        XCTAssertEqual(
            plan(copy(age: -3 * 86_400)),
            .check(ifNoneMatch: "\"abc\"", ifModifiedSince: "Sat, 01 Nov 2026 10:00:00 GMT")
        )
    }

    func testUnparsableOrFutureLastModifiedIsNotSent() {
        XCTAssertEqual(
            plan(copy(age: 90_000, etag: nil, lastModified: "around noon")),
            .check(ifNoneMatch: nil, ifModifiedSince: nil)
        )
        XCTAssertEqual(
            plan(copy(age: 90_000, etag: nil, lastModified: "Mon, 01 Jan 2035 00:00:00 GMT")),
            .check(ifNoneMatch: nil, ifModifiedSince: nil)
        )
    }

    func testMissingMetadataChecksWithoutConditions() {
        let bare = CachedCopy(imagePath: "/x.img", updated: now.addingTimeInterval(-90_000), metadata: nil)
        XCTAssertEqual(plan(bare), .check(ifNoneMatch: nil, ifModifiedSince: nil))
    }

    func testETagDecidesWhenTheServerSendsOne() {
        let stored = Validators(etag: "\"a\"", lastModified: "Sat, 01 Nov 2026 10:00:00 GMT")
        func decide(_ received: Validators) -> Bool? {
            RefreshPolicy.headersShowUnchanged(stored: stored, received: received, now: now)
        }
        XCTAssertEqual(decide(Validators(etag: "\"a\"", lastModified: "Sun, 02 Nov 2026 10:00:00 GMT")), true)
        XCTAssertEqual(
            decide(Validators(etag: "\"b\"", lastModified: stored.lastModified)),
            false,
            "a changed ETag with the same Last-Modified is a new image"
        )
        XCTAssertNil(decide(Validators()), "no validators: compare the bytes")
    }

    func testLastModifiedDecidesOnlyWithoutETags() {
        let stored = Validators(etag: nil, lastModified: "Sat, 01 Nov 2026 10:00:00 GMT")
        func decide(_ received: Validators) -> Bool? {
            RefreshPolicy.headersShowUnchanged(stored: stored, received: received, now: now)
        }
        XCTAssertEqual(decide(Validators(lastModified: "Sat, 01 Nov 2026 10:00:00 GMT")), true)
        XCTAssertEqual(decide(Validators(lastModified: "Sun, 02 Nov 2026 10:00:00 GMT")), false)
        XCTAssertNil(decide(Validators(lastModified: "Mon, 01 Jan 2035 00:00:00 GMT")), "a future date decides nothing")
    }

    func testOutcomeLinesAreTheOriginals() {
        XCTAssertEqual(DisplayOutcome.previouslyCached.statusLine, "Previously cached image")
        XCTAssertEqual(DisplayOutcome.newlyCached.statusLine, "Newly cached image")
        XCTAssertEqual(DisplayOutcome.upToDate.statusLine, "Cached image is up to date")
    }
}

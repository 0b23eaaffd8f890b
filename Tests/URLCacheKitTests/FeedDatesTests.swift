import Foundation
import XCTest

@testable import URLCacheKit

/// Feed dates are read leniently on purpose (RSS is written by hand and by
/// every CMS); HTTP dates strictly (HTTPTests). One instant, many spellings.
final class FeedDatesTests: XCTestCase {
    /// 2025-11-12 10:00:00 UTC.
    let expected = Date(timeIntervalSince1970: 1_762_941_600)

    func testRFC822InItsVariants() {
        for text in [
            "Wed, 12 Nov 2025 10:00:00 GMT", "Wed, 12 Nov 2025 10:00:00 +0000", "12 Nov 2025 10:00:00 UT",
            "Wed, 12 Nov 2025 11:00:00 +0100", "Wed, 12 Nov 2025 05:00:00 EST", "Wed, 12 Nov 2025 02:00 PST",
            "wed, 12 nov 2025 10:00:00 gmt", "Wed 12 Nov 25 10:00:00 GMT", "Wednesday, 12-Nov-25 10:00:00 GMT",
            "Wed Nov 12 10:00:00 2025", "12 November 2025 10:00:00 Z", "  Wed, 12 Nov 2025 10:00:00 UTC\n",
        ] {
            XCTAssertEqual(FeedDates.parse(text), expected, text)
        }
        XCTAssertEqual(
            FeedDates.parse("Sun, 2 Nov 2025 9:05:00 GMT"),
            Date(timeIntervalSince1970: 1_762_074_300),
            "one-digit day and hour"
        )
    }

    func testRFC3339AndISO8601() {
        for text in [
            "2025-11-12T10:00:00Z", "2025-11-12T11:00:00+01:00", "2025-11-12T10:00:00.250Z", "2025-11-12 10:00:00z",
            "2025-11-12T05:00:00-0500", "2025-11-12T10:00Z",
        ] {
            XCTAssertEqual(
                FeedDates.parse(text)?.timeIntervalSince1970.rounded(.down),
                expected.timeIntervalSince1970,
                text
            )
        }
        XCTAssertEqual(
            FeedDates.parse("2025-11-12"),
            Date(timeIntervalSince1970: 1_762_905_600),
            "a date alone is midnight UTC"
        )
    }

    func testWhatIsNoDate() {
        for text in [
            "", "yesterday", "2025-13-01T00:00:00Z", "Wed, 31 Nov 2025 10:00:00 GMT", "12 Nov 2025 25:00:00 GMT",
            "Wed, 12 Nov 2025 10:00:00 +01", "2025-11-12T10:00:00 nonsense",
        ] {
            XCTAssertNil(FeedDates.parse(text), text)
        }
    }
}

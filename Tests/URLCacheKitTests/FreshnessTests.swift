import Foundation
import XCTest

@testable import URLCacheKit

/// HTTP's freshness rules for a private cache, as a pure function of a
/// response head and the time it came.
final class FreshnessTests: XCTestCase {
    let now = Date(timeIntervalSince1970: 1_795_000_000)
    let day: TimeInterval = 86_400

    private func http(_ offset: TimeInterval) -> String { httpDate(now.addingTimeInterval(offset)) }

    private func lifetime(
        cacheControl: String? = nil,
        expires: String? = nil,
        date: String? = nil,
        age: String? = nil,
        lastModified: String? = nil,
        cap: TimeInterval = 86_400
    ) -> Lifetime {
        Lifetime.of(
            ResponseHead(
                status: 200,
                validators: Validators(lastModified: lastModified),
                cacheControl: cacheControl,
                expires: expires,
                date: date,
                age: age
            ),
            now: now,
            cap: cap
        )
    }

    func testMaxAgeLessTheAge() {
        XCTAssertEqual(lifetime(cacheControl: "public, max-age=600"), Lifetime(seconds: 600, reason: "max-age"))
        XCTAssertEqual(lifetime(cacheControl: "max-age=600", age: "100"), Lifetime(seconds: 500, reason: "max-age"))
        XCTAssertEqual(lifetime(cacheControl: "max-age=600", age: "900").seconds, 0, "older than its lifetime: stale")
        XCTAssertEqual(lifetime(cacheControl: "max-age=600", age: "-5").seconds, 600, "a negative Age counts as 0")
        XCTAssertEqual(lifetime(cacheControl: "max-age=soon").seconds, 0, "an unreadable max-age is stale")
    }

    func testNoCacheNoStoreMustRevalidate() {
        XCTAssertEqual(lifetime(cacheControl: "no-cache"), Lifetime(seconds: 0, reason: "no-cache"))
        XCTAssertEqual(lifetime(cacheControl: "No-Store"), Lifetime(seconds: 0, reason: "no-store", noStore: true))
        XCTAssertEqual(
            lifetime(cacheControl: "max-age=60, must-revalidate"),
            Lifetime(seconds: 60, reason: "max-age", mustRevalidate: true)
        )
    }

    func testExpiresAgainstTheServersDate() {
        // The server's clock runs an hour behind ours: Expires − Date decides, not Expires − now; the
        // apparent age (an hour) counts, bounded to half the lifetime (RFC 9111 §4.2.3, #23).
        XCTAssertEqual(
            lifetime(expires: http(-3600 + 300), date: http(-3600)),
            Lifetime(seconds: 150, reason: "Expires")
        )
        XCTAssertEqual(lifetime(expires: http(-60), date: http(0)).seconds, 0, "Expires in the past")
        XCTAssertEqual(
            lifetime(expires: "0", date: http(0)),
            Lifetime(seconds: 0, reason: "Expires"),
            "a bad Expires is in the past"
        )
        XCTAssertEqual(lifetime(expires: http(300), date: "not a date").seconds, 300, "a bad Date: our clock instead")
        XCTAssertEqual(lifetime(expires: http(300), date: http(0), age: "60").seconds, 240)
    }

    /// RFC 9111 §4.2.3 and §5.1: the first Age, the first member of a list,
    /// only a non-negative integer; the apparent age from Date, bounded.
    func testAgeFormsAndTheApparentAge() {
        XCTAssertEqual(lifetime(cacheControl: "max-age=9000", age: "7200, 0").seconds, 1800, "the first member")
        XCTAssertEqual(lifetime(cacheControl: "max-age=9000", age: "7200.0").seconds, 9000, "not an integer: ignored")
        XCTAssertEqual(lifetime(cacheControl: "max-age=9000", age: "7200a").seconds, 9000)
        XCTAssertEqual(lifetime(cacheControl: "max-age=9000", age: " 60 ").seconds, 8940)
        XCTAssertEqual(
            lifetime(cacheControl: "max-age=600", date: http(-100)).seconds,
            501,
            "Date 100 s ago: at least 99 s old (Date names a whole second)"
        )
        XCTAssertEqual(lifetime(cacheControl: "max-age=600", date: http(0)).seconds, 600, "Date this second: no age")
        XCTAssertEqual(
            lifetime(cacheControl: "max-age=600", date: http(3600)).seconds,
            600,
            "a server clock ahead: no age"
        )
        XCTAssertEqual(
            lifetime(cacheControl: "max-age=600", date: http(-3600)).seconds,
            300,
            "a server clock an hour behind: the apparent age counts for half the lifetime at most"
        )
        XCTAssertEqual(
            lifetime(cacheControl: "max-age=600", date: http(-3600), age: "500").seconds,
            100,
            "Age counts in full"
        )
    }

    /// RFC 9111 §4.2.2: a heuristic lifetime only for the statuses RFC 9110
    /// §15.1 calls heuristically cacheable.
    func testHeuristicOnlyForTheStatusesThatAllowIt() {
        for status in [200, 203, 204, 206, 300, 301, 308, 404, 405, 410, 414, 501] {
            let head = ResponseHead(status: status, validators: Validators(lastModified: http(-6000)), date: http(0))
            XCTAssertEqual(
                Lifetime.of(head, now: now, cap: day),
                Lifetime(seconds: 600, reason: "Last-Modified"),
                "\(status)"
            )
        }
        for status in [201, 202, 302, 307, 400, 403, 500, 503] {
            let head = ResponseHead(status: status, validators: Validators(lastModified: http(-6000)), date: http(0))
            XCTAssertEqual(Lifetime.of(head, now: now, cap: day).seconds, 0, "\(status) is not reused")
            let explicit = ResponseHead(status: status, cacheControl: "max-age=60", date: http(0))
            XCTAssertEqual(Lifetime.of(explicit, now: now, cap: day).seconds, 60, "\(status) with explicit freshness")
        }
    }

    func testAnExpiresThatIsNoDateOrTwoOfThemIsExpired() {
        for bad in [
            "Tue, 24 Nov 2026 09:00:00 UTC", "Tue, 24 Nov 26 09:00:00 GMT", "Tue 24 Nov 2026 09:00:00 GMT",
            "Tue,  24 Nov 2026 09:00:00 GMT", "Tue, 24-Nov-2026 09:00:00 GMT", "Tue, 24 Nov 2026 9:00:00 GMT", "0",
            "-1",
        ] {
            XCTAssertEqual(lifetime(expires: bad, date: http(0)).seconds, 0, bad)
        }
        XCTAssertEqual(lifetime(expires: http(3600) + ", " + http(7200), date: http(0)).seconds, 0, "two Expires lines")
        XCTAssertEqual(lifetime(expires: http(3600), date: http(0)).seconds, 3600)
    }

    func testConflictingHeaders() {
        XCTAssertEqual(
            lifetime(cacheControl: "max-age=60", expires: http(3600), date: http(0)).reason,
            "max-age",
            "max-age beats Expires"
        )
        XCTAssertEqual(lifetime(cacheControl: "max-age=60, max-age=3600").seconds, 60, "the first of two")
        XCTAssertEqual(lifetime(cacheControl: "max-age=3600, no-cache").reason, "no-cache", "no-cache beats max-age")
    }

    func testLastModifiedHeuristicAndTheCap() {
        XCTAssertEqual(
            lifetime(date: http(0), lastModified: http(-6000)),
            Lifetime(seconds: 600, reason: "Last-Modified")
        )
        XCTAssertEqual(
            lifetime(date: http(0), lastModified: http(-30 * day)),
            Lifetime(seconds: day, reason: "Last-Modified, capped by refreshInterval")
        )
        XCTAssertEqual(
            lifetime(cacheControl: "max-age=31536000", cap: 3600),
            Lifetime(seconds: 3600, reason: "max-age, capped by refreshInterval")
        )
        XCTAssertEqual(
            lifetime(date: http(0), lastModified: http(600)).reason,
            "refreshInterval",
            "a future Last-Modified says nothing"
        )
        XCTAssertEqual(
            lifetime(),
            Lifetime(seconds: day, reason: "refreshInterval"),
            "no word from the server: the fixed rule"
        )
    }
}

import Foundation
import XCTest

@testable import URLCacheKit

/// Negative and redirect caching (RFC 9111 §3, §4.2.2) and RFC 5861's
/// stale-while-revalidate, as pure functions of a head and the time.
final class RememberedTests: XCTestCase {
    let now = Date(timeIntervalSince1970: 1_795_000_000)
    let url = URL(string: "http://images.test/a/day.jpg")!

    private func http(_ offset: TimeInterval) -> String { httpDate(now.addingTimeInterval(offset)) }

    private func head(
        _ status: Int,
        cacheControl: String? = nil,
        expires: String? = nil,
        lastModified: String? = nil
    ) -> ResponseHead {
        ResponseHead(
            status: status,
            validators: Validators(lastModified: lastModified),
            cacheControl: cacheControl,
            expires: expires,
            date: http(0)
        )
    }

    func testOnlyA404Or410WithExplicitFreshnessIsARefusal() {
        XCTAssertEqual(
            Refusal.of(head(404, cacheControl: "max-age=3600"), now: now, cap: 86_400),
            Refusal(status: 404, at: now, until: now.addingTimeInterval(3600))
        )
        XCTAssertEqual(
            Refusal.of(head(410, expires: http(600)), now: now, cap: 86_400)?.until,
            now.addingTimeInterval(600)
        )
        XCTAssertEqual(
            Refusal.of(head(404, cacheControl: "max-age=999999"), now: now, cap: 86_400)?.until,
            now.addingTimeInterval(86_400),
            "capped as every lifetime"
        )
        XCTAssertNil(Refusal.of(head(404), now: now, cap: 86_400))
        XCTAssertNil(Refusal.of(head(404, lastModified: http(-86_400)), now: now, cap: 86_400))
        XCTAssertNil(Refusal.of(head(404, cacheControl: "max-age=3600, no-cache"), now: now, cap: 86_400))
        XCTAssertNil(Refusal.of(head(404, cacheControl: "max-age=0"), now: now, cap: 86_400))
        XCTAssertNil(Refusal.of(head(500, cacheControl: "max-age=3600"), now: now, cap: 86_400))
        let refusal = Refusal(status: 404, at: now, until: now.addingTimeInterval(60))
        XCTAssertTrue(refusal.stands(at: now.addingTimeInterval(59)))
        XCTAssertFalse(refusal.stands(at: now.addingTimeInterval(60)))
        XCTAssertFalse(refusal.stands(at: now.addingTimeInterval(-1)), "a clock set back does not freeze it")
    }

    func testRetryAfterInSecondsOrAsADateOnTheServersClock() {
        func retry(_ status: Int, _ value: String?, date: String? = nil) -> Patience? {
            var answer = head(status)
            answer.retryAfter = value
            if let date { answer.date = date }
            return Patience.of(answer, now: now, cap: 86_400)
        }
        XCTAssertEqual(retry(429, "120"), Patience(status: 429, at: now, until: now.addingTimeInterval(120)))
        XCTAssertEqual(retry(503, http(3600))?.until, now.addingTimeInterval(3600))
        XCTAssertEqual(
            retry(503, http(3600), date: http(1800))?.until,
            now.addingTimeInterval(1800),
            "against the server's Date"
        )
        XCTAssertEqual(retry(429, "9999999")?.until, now.addingTimeInterval(86_400), "capped")
        XCTAssertNil(retry(429, "-5"))
        XCTAssertNil(retry(429, "12.5"))
        XCTAssertNil(retry(503, http(-60)), "already past")
        XCTAssertNil(retry(500, "120"))
        XCTAssertNil(retry(429, nil))
        let patience = Patience(status: 429, at: now, until: now.addingTimeInterval(120))
        XCTAssertTrue(patience.stands(at: now.addingTimeInterval(119)))
        XCTAssertFalse(patience.stands(at: now.addingTimeInterval(120)))
        XCTAssertFalse(patience.stands(at: now.addingTimeInterval(-86_400)), "a clock set back does not freeze it")
    }

    func testAPermanentRedirectWithFreshnessIsRemembered() {
        let hop = RedirectHop(status: 301, location: "/b/day.jpg", cacheControl: "max-age=600", date: http(0))
        XCTAssertEqual(
            MovedPermanently.of(hop, from: url, now: now, cap: 86_400),
            MovedPermanently(target: "http://images.test/b/day.jpg", at: now, until: now.addingTimeInterval(600))
        )
        var other = hop
        other.status = 308
        XCTAssertNotNil(MovedPermanently.of(other, from: url, now: now, cap: 86_400))
        other.status = 302
        XCTAssertNil(MovedPermanently.of(other, from: url, now: now, cap: 86_400), "a temporary redirect")
        other = hop
        other.cacheControl = nil
        XCTAssertNil(MovedPermanently.of(other, from: url, now: now, cap: 86_400), "no explicit freshness")
        other = hop
        other.location = "file:///etc/passwd"
        XCTAssertNil(MovedPermanently.of(other, from: url, now: now, cap: 86_400))
        other.location = url.absoluteString
        XCTAssertNil(MovedPermanently.of(other, from: url, now: now, cap: 86_400), "to itself")
        XCTAssertNil(MovedPermanently(target: "http://x.test/", at: now, until: now).target(at: now))
    }

    func testTheParserKeepsTheChainsFirstPermanentHop() {
        func parse(_ lines: [String]) -> ResponseHead? {
            var parser = ResponseHeadParser()
            return lines.lazy.compactMap { parser.take($0) }.first
        }
        let moved = parse([
            "HTTP/1.1 301 Moved Permanently\r\n", "Location: /b.jpg\r\n", "Cache-Control: max-age=60\r\n", "\r\n",
            "HTTP/1.1 200 OK\r\n", "Cache-Control: max-age=5\r\n", "\r\n",
        ])
        XCTAssertEqual(moved?.status, 200)
        XCTAssertEqual(moved?.cacheControl, "max-age=5", "the final response's own")
        XCTAssertEqual(
            moved?.permanentRedirect,
            RedirectHop(status: 301, location: "/b.jpg", cacheControl: "max-age=60")
        )
        let temporaryFirst = parse([
            "HTTP/1.1 302 Found\r\n", "Location: /a.jpg\r\n", "\r\n",
            "HTTP/1.1 308 Permanent Redirect\r\n", "Location: /b.jpg\r\n", "\r\n", "HTTP/1.1 200 OK\r\n", "\r\n",
        ])
        XCTAssertNil(temporaryFirst?.permanentRedirect, "only the entry's own URL's move is remembered")
    }

    func testStaleWhileRevalidateWindow() {
        let lifetime = Lifetime.of(
            head(200, cacheControl: "max-age=600, stale-while-revalidate=3600"),
            now: now,
            cap: 86_400
        )
        XCTAssertEqual(lifetime.staleWhileRevalidate, 3600)
        XCTAssertNil(
            Lifetime.of(head(200, cacheControl: "max-age=600, stale-while-revalidate=soon"), now: now, cap: 86_400)
                .staleWhileRevalidate
        )
        XCTAssertNil(
            Lifetime.of(
                head(200, cacheControl: "max-age=600, must-revalidate, stale-while-revalidate=60"),
                now: now,
                cap: 86_400
            )
            .staleWhileRevalidate,
            "must-revalidate forbids it"
        )
        XCTAssertNil(
            Lifetime.of(head(200, cacheControl: "no-cache, stale-while-revalidate=60"), now: now, cap: 86_400)
                .staleWhileRevalidate
        )
        let checked = now
        func standing(after seconds: TimeInterval) -> RefreshPolicy.Standing {
            RefreshPolicy.standing(
                updated: checked,
                interval: 600,
                staleWhileRevalidate: 3600,
                now: checked.addingTimeInterval(seconds)
            )
        }
        XCTAssertEqual(standing(after: 100), .fresh(left: 500))
        XCTAssertEqual(standing(after: 600), .revalidating(left: 3600))
        XCTAssertEqual(standing(after: 4199), .revalidating(left: 1))
        XCTAssertEqual(standing(after: 4200), .stale)
        XCTAssertEqual(
            RefreshPolicy.standing(
                updated: checked,
                interval: 600,
                staleWhileRevalidate: 0,
                now: checked.addingTimeInterval(601)
            ),
            .stale
        )
    }
}

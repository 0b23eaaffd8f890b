import Foundation
import URLCacheTestSupport
import XCTest

@testable import URLCacheKit

/// Automatic checks back off after failures in a row, on an injected clock.
extension ControllerTests {
    func testTheWaitDoublesFromFiveMinutesUpToTheInterval() {
        let waits = (1...6).map { FailureStreak.wait(after: $0, cap: 86_400) }
        XCTAssertEqual(waits, [300, 600, 1200, 2400, 4800, 9600])
        XCTAssertEqual(FailureStreak.wait(after: 5, cap: 3600), 3600, "capped by refreshInterval")
        XCTAssertEqual(FailureStreak.wait(after: 10_000, cap: 86_400), 86_400, "no overflow however long the streak")
        let first = FailureStreak.after(nil, failedAt: now, cap: 86_400)
        let second = FailureStreak.after(first, failedAt: now.addingTimeInterval(400), cap: 86_400)
        XCTAssertEqual(second.count, 2)
        XCTAssertEqual(second.until, now.addingTimeInterval(1000))
        XCTAssertTrue(second.stands(at: now.addingTimeInterval(999)))
        XCTAssertFalse(second.stands(at: now.addingTimeInterval(1000)))
    }

    func testAutomaticChecksBackOffAndASuccessEndsTheStreak() throws {
        try seed()
        // A stale copy, and the server down: the streak starts.
        let down = StandInTransport([.failure(.cannotConnect(host: "images.example", detail: "refused"))])
        let failed = controller(down).display(URLEntry(url: url), automatic: true)
        XCTAssertEqual(failed.copy?.metadata?.remembered.failures?.count, 1)
        XCTAssertEqual(failed.copy?.metadata?.remembered.failures?.until, now.addingTimeInterval(300))

        // Four minutes on, an automatic check asks nothing; one a person asks for does.
        let quiet = StandInTransport([])
        let held = controller(quiet, at: now.addingTimeInterval(240)).display(URLEntry(url: url), automatic: true)
        guard case let .failure(.backingOff(streak)) = held.result else { return XCTFail("\(held.result)") }
        XCTAssertEqual(streak.count, 1)
        XCTAssertTrue(quiet.requests.isEmpty)
        XCTAssertNotNil(held.copy, "the image is kept and shown")
        let asked = StandInTransport([.failure(.stalled(seconds: 30))])
        let second = controller(asked, at: now.addingTimeInterval(250)).display(url)
        XCTAssertEqual(asked.requests.count, 1, "a check a person asks for is never held back")
        XCTAssertEqual(second.copy?.metadata?.remembered.failures?.count, 2)
        XCTAssertEqual(
            second.copy?.metadata?.remembered.failures?.until,
            now.addingTimeInterval(250 + 600),
            "then ten minutes"
        )

        // Past the wait, a 304 confirms the copy and ends the streak.
        let back = StandInTransport([.response(head(304, type: nil), body: [])])
        let confirmed = controller(back, at: now.addingTimeInterval(900)).display(URLEntry(url: url), automatic: true)
        XCTAssertEqual(confirmed.result, .success(.upToDate))
        XCTAssertNil(confirmed.copy?.metadata?.remembered.failures)
    }

    func testACancelOrAnAnswerRememberedIsNoFailure() throws {
        try seed()
        let cancelled = controller(StandInTransport([.failure(.cancelled)])).display(
            URLEntry(url: url),
            automatic: true
        )
        XCTAssertNil(cancelled.copy?.metadata?.remembered.failures)
        // A libcurl that refuses a safety setting fails here, not at the server.
        let refused = controller(
            StandInTransport([.failure(.optionRefused(option: "CURLOPT_PROTOCOLS_STR", detail: "unknown option"))])
        )
        .display(URLEntry(url: url), automatic: true)
        XCTAssertNil(refused.copy?.metadata?.remembered.failures)
    }
}

import Foundation
import URLCacheHarness
import URLCacheKit
import URLCacheTestSupport
import XCTest

/// A clock that tests set: the one stand-in the policy needs.
/// The 24-hour rule through the controller, with the clock injected and
/// the real libcurl transport against a real nginx.
final class ControllerClockTests: XCTestCase {
    func testTheDayPassesOnAnInjectedClock() throws {
        let nginx = try Nginx()
        defer { nginx.stop() }
        let cacheDir = try TemporaryDirectory()
        try copyFixture("sun.png", to: nginx.root)
        let clock = ManualClock(Date())
        let controller = URLCacheController(cache: DiskCache(directory: cacheDir.path), clock: clock)
        let url = try XCTUnwrap(URL(string: nginx.url("/sun.png")))

        XCTAssertEqual(controller.display(url).result, .success(.newlyCached))
        clock.advance(23 * 3600)
        XCTAssertEqual(controller.display(url).result, .success(.previouslyCached))
        XCTAssertEqual(nginx.requests.count, 1)
        clock.advance(3601)  // past 24 h
        let report = controller.display(url)
        XCTAssertEqual(report.result, .success(.upToDate))
        XCTAssertEqual(nginx.requests.map(\.status), [200, 304])
        XCTAssertEqual(
            report.copy.map { $0.updated.timeIntervalSince1970.rounded() },
            clock.now().timeIntervalSince1970.rounded(),
            "Updated is the time of the check"
        )
    }

    func testProgressIsReportedAndCancelLeavesNothing() throws {
        let server = try ScriptedServer()
        defer { server.stop() }
        try copyFixture("earth.jpg", to: server.root)
        let cacheDir = try TemporaryDirectory()
        let controller = URLCacheController(cache: DiskCache(directory: cacheDir.path))
        let url = try XCTUnwrap(URL(string: server.url("/slow/earth.jpg")))
        let seen = Counter()
        let report = controller.display(
            url,
            observer: FetchObserver(
                progress: { progress in if progress.received > 0 { seen.add(progress.total ?? -1) } },
                isCancelled: { seen.count >= 2 }
            )
        )
        XCTAssertEqual(report.result, .failure(.transport(.cancelled)))
        XCTAssertNil(report.copy)
        XCTAssertEqual(
            seen.values.first,
            Int64(try Data(contentsOf: Fixtures.images.appendingPathComponent("earth.jpg")).count),
            "the total is known from Content-Length"
        )
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: cacheDir.path).filter { !$0.hasSuffix(".lock") },
            []
        )
    }
}

final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [Int64] = []
    func add(_ value: Int64) { lock.withLock { stored.append(value) } }
    var count: Int { lock.withLock { stored.count } }
    var values: [Int64] { lock.withLock { stored } }
}

import Foundation
import URLCacheHarness
import URLCacheTestSupport
import XCTest

/// Many machines behind one shared cache (docs/caching.md): sixty
/// machines' `fetch --all`, each with a cache of its own, through Debian's
/// Squid to a real nginx. The origin is asked once per image on the first
/// day, and not at all on the next, when every machine's copy is a day old
/// and each asks Squid with its validators.
final class SharedCacheTests: NginxTestCase {
    private let machines = 60

    func testSixtyMachinesReachTheOriginOncePerImageAndNotAtAllTheNextDay() throws {
        let squid = try Squid()
        defer { squid.stop() }
        // Two images that changed a month ago, as an image of the day's
        // archive serves them: Squid's heuristic keeps them fresh for days.
        for name in ["earth.jpg", "sun.png"] {
            try copyFixture(name, to: nginx.root)
            try age(nginx.root.file(name), by: 30 * 86400)
        }
        let list = try writeList(
            titled: [("Earth", nginx.url("/earth.jpg")), ("Sun", nginx.url("/sun.png"))],
            in: home
        )
        let homes = try (0..<machines).map { _ in try TemporaryDirectory() }

        for machine in homes {
            let run = try fetchAll(list, on: machine, through: squid)
            XCTAssertEqual(run.status, 0, run.stderr)
            XCTAssertEqual(run.lines.filter { $0 == "   Newly cached image" }.count, 2, run.stdout)
        }
        XCTAssertEqual(nginx.requests.map(\.path).sorted(), ["/earth.jpg", "/sun.png"], "once per image")
        XCTAssertEqual(squid.outcomes.filter { $0 == "TCP_MISS" }.count, 2, squid.outcomes.description)

        // The next day: every machine's copy is past its 24 hours.
        for machine in homes {
            let paths = try fetchAll(list, on: machine, through: squid, ["--path", "--offline"]).lines
            XCTAssertEqual(paths.count, 2)
            for path in paths { try age(path, by: 25 * 3600) }
        }
        for machine in homes {
            let run = try fetchAll(list, on: machine, through: squid)
            XCTAssertEqual(run.status, 0, run.stderr)
            XCTAssertEqual(run.lines.filter { $0 == "   Cached image is up to date" }.count, 2, run.stdout)
        }
        XCTAssertEqual(nginx.requests.count, 2, "the next day, the origin is not asked at all")
        let revalidated = squid.outcomes.dropFirst(machines * 2)
        XCTAssertEqual(revalidated.count, machines * 2, "each machine asked Squid for each image")
        // TCP_INM_HIT: an If-None-Match Squid answered with a 304 of its own.
        let answered = Set(revalidated)
        XCTAssertTrue(answered.isSubset(of: ["TCP_INM_HIT", "TCP_IMS_HIT"]), "Squid answered 304 itself: \(answered)")
    }

    private func fetchAll(
        _ list: String,
        on machine: TemporaryDirectory,
        through squid: Squid,
        _ extra: [String] = []
    ) throws -> RunResult {
        try urlcache(
            ["fetch", "--all", "--config", list] + extra,
            home: machine,
            environment: squid.clientEnvironment
        )
    }
}

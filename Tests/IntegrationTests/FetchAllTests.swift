import Foundation
import URLCacheHarness
import URLCacheTestSupport
import XCTest

/// `fetch --all` for cron and timers: every entry of the list, a block
/// each in the list's order, the worst status; `--path` and `--json` for
/// scripts. Against the scripted server, with the requests counted.
final class FetchAllTests: ScriptedServerTestCase {
    override var served: [(fixture: String, name: String)] { [("earth.jpg", "earth.jpg"), ("sun.png", "sun.png")] }

    private var cacheDir: String { home.file("cache") }

    /// Five entries: three images (one slow), one that is missing, one slow again.
    private func list() throws -> String {
        try writeList(
            titled: [
                ("Earth", server.url("/headers/earth.jpg?delay=0.5")),
                ("Sun", server.url("/plain/sun.png")),
                ("Gone", server.url("/status/404")),
                ("Earth again", server.url("/headers/earth.jpg?delay=0.5&n=2")),
                ("Sun slowly", server.url("/slow/sun.png")),
            ],
            in: home
        )
    }

    private func fetchAll(_ extra: [String] = []) throws -> RunResult {
        try urlcache(["fetch", "--all", "--config", try list(), "--cache-dir", cacheDir] + extra, home: home)
    }

    func testEveryEntryABlockEachAndTheWorstStatus() throws {
        let result = try fetchAll()
        XCTAssertEqual(result.status, 1, "the missing image with nothing cached is the worst: \(result.stderr)")
        let headings = result.lines.filter { !$0.hasPrefix(" ") }
        XCTAssertEqual(headings, ["1. Earth", "2. Sun", "3. Gone", "4. Earth again", "5. Sun slowly"])
        XCTAssertEqual(result.lines.filter { $0 == "   Newly cached image" }.count, 4)
        let errors = result.stderr.split(separator: "\n")
        XCTAssertEqual(errors.count, 1, result.stderr)
        XCTAssertTrue(errors.first?.contains("/status/404: server answered HTTP 404") == true, result.stderr)
        XCTAssertEqual(server.requests.count, 5, "one request an entry")
        XCTAssertEqual(Set(server.requests.map(\.path)).count, 5)

        // Fresh now, and the missing one held back by its failure (an
        // automatic check): nothing asked, and no failure this time.
        let again = try fetchAll()
        XCTAssertEqual(again.lines.filter { $0 == "   Previously cached image" }.count, 4)
        XCTAssertEqual(server.requests.count, 5, "the missing one waits out its back-off: nothing asked")
        XCTAssertEqual(again.status, 0, again.stderr)
    }

    func testPathAndJSONForScripts() throws {
        let paths = try fetchAll(["--path"])
        XCTAssertEqual(paths.status, 1)
        XCTAssertEqual(paths.lines.count, 4, "a path an image, nothing for the missing one")
        for path in paths.lines { XCTAssertTrue(FileManager.default.fileExists(atPath: path), path) }

        let json = try fetchAll(["--json", "--force"])
        let objects = try json.lines.map {
            try XCTUnwrap(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        XCTAssertEqual(objects.map { $0["entry"] as? Int }, [1, 2, 3, 4, 5])
        XCTAssertEqual(objects.map { $0["title"] as? String }, ["Earth", "Sun", "Gone", "Earth again", "Sun slowly"])
        XCTAssertEqual(objects[0]["outcome"] as? String, "Cached image is up to date")
        XCTAssertEqual(objects[0]["new"] as? Bool, false)
        XCTAssertEqual(objects[0]["path"] as? String, paths.lines[0])
        XCTAssertNotNil(objects[0]["updated"] as? String)
        XCTAssertEqual(objects[2]["outcome"] as? String, "failed")
        XCTAssertTrue((objects[2]["error"] as? String)?.contains("HTTP 404") == true)
        XCTAssertNil(objects[2]["path"])

        let one = try urlcache(
            ["fetch", "--config", try list(), "--cache-dir", cacheDir, "--entry", "2", "--json"],
            home: home
        )
        XCTAssertEqual(one.status, 0, one.stderr)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(one.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(object["entry"] as? Int, 2)
        XCTAssertEqual(object["outcome"] as? String, "Previously cached image")

        let refused = try urlcache(["fetch", "--all", "--entry", "2", "--config", try list()], home: home)
        XCTAssertEqual(refused.status, 2)
        XCTAssertTrue(refused.stderr.contains("--all takes no --entry, --url or --feed"), refused.stderr)
    }

    /// A server that keeps failing: `fetch --all` (what a timer runs) waits
    /// 5 minutes after the first failure, and `list` says until when; a
    /// single `fetch`, which a person runs, still asks.
    func testFetchAllBacksOffFromAFailingServer() throws {
        let script = server.root.file("script.json")
        try #"{"status": 200}"#.write(toFile: script, atomically: true, encoding: .utf8)
        let list = try writeList(titled: [("Earth", server.url("/scripted/earth.jpg"))], in: home)
        let run = ["--config", list, "--cache-dir", cacheDir]
        XCTAssertEqual(try urlcache(["fetch", "--all"] + run, home: home).status, 0)
        let image = try XCTUnwrap(
            FileManager.default.contentsOfDirectory(atPath: cacheDir).first { $0.hasSuffix(".img") }
        )
        try age(home.file("cache/" + image), by: 25 * 3600)
        try #"{"status": 500}"#.write(toFile: script, atomically: true, encoding: .utf8)

        let failed = try urlcache(["fetch", "--all"] + run, home: home)
        XCTAssertEqual(failed.status, 3, failed.stderr)
        XCTAssertEqual(server.requests.count, 2)
        let held = try urlcache(["fetch", "--all"] + run, home: home)
        XCTAssertEqual(held.status, 0, "held back by its own rule is no failure: a timer's unit stays green")
        XCTAssertEqual(server.requests.count, 2, "nothing asked while the wait stands")
        XCTAssertEqual(held.stderr, "", "cron mails nothing for it")
        XCTAssertTrue(
            held.stdout.contains(
                "Previously cached image (not checked: after a failed check, automatic checks wait until"
            ),
            held.stdout
        )
        let listed = try urlcache(["list"] + run, home: home)
        XCTAssertTrue(
            listed.stdout.contains(
                "the last check failed: automatic checks (fetch --all, the screen's own) wait until"
            ),
            listed.stdout
        )

        try personAsksAndEndsTheStreak(script: script, run: run, requestsAfter: 3)
    }

    /// The server well again: `fetch`, which a person runs, asks (the
    /// `requestsAfter`th request) and its success ends the streak.
    @discardableResult
    private func personAsksAndEndsTheStreak(script: String, run: [String], requestsAfter: Int) throws -> RunResult {
        try #"{"status": 200}"#.write(toFile: script, atomically: true, encoding: .utf8)
        let asked = try urlcache(["fetch"] + run, home: home)
        XCTAssertEqual(asked.status, 0, asked.stderr)
        XCTAssertEqual(server.requests.count, requestsAfter, "a check a person runs is never held back")
        let cleared = try urlcache(["list"] + run, home: home)
        XCTAssertFalse(cleared.stdout.contains("failed"), "a success ends the streak: \(cleared.stdout)")
        return asked
    }

    /// An entry that has never had an image backs off too: the streak is
    /// kept in a record of its own, `list` says so, and the image's first
    /// success ends it.
    func testFetchAllBacksOffWithNothingCached() throws {
        let script = server.root.file("script.json")
        try #"{"status": 500}"#.write(toFile: script, atomically: true, encoding: .utf8)
        let list = try writeList(titled: [("Earth", server.url("/scripted/earth.jpg"))], in: home)
        let run = ["--config", list, "--cache-dir", cacheDir]
        let failed = try urlcache(["fetch", "--all"] + run, home: home)
        XCTAssertEqual(failed.status, 1, "failed with nothing cached: \(failed.stderr)")
        XCTAssertEqual(server.requests.count, 1)
        let held = try urlcache(["fetch", "--all"] + run, home: home)
        XCTAssertEqual(server.requests.count, 1, "nothing asked while the wait stands: \(held.stdout)")
        XCTAssertEqual(held.status, 0, "held back by its own rule is no failure: \(held.stderr)")
        XCTAssertEqual(held.stderr, "", "cron mails nothing for it")
        XCTAssertTrue(
            held.stdout.contains("   Not cached (not checked: after a failed check, automatic checks wait until"),
            held.stdout
        )
        let json = try urlcache(["fetch", "--all", "--json"] + run, home: home)
        XCTAssertEqual(json.status, 0, json.stderr)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        XCTAssertTrue(
            (object["outcome"] as? String)?.hasPrefix("Not cached (not checked: after a failed check") == true,
            json.stdout
        )
        XCTAssertNil(object["error"], "held back is no error: \(json.stdout)")
        XCTAssertEqual(server.requests.count, 1)
        let listed = try urlcache(["list"] + run, home: home)
        XCTAssertTrue(listed.stdout.contains("not cached"), listed.stdout)
        XCTAssertTrue(
            listed.stdout.contains(
                "the last check failed: automatic checks (fetch --all, the screen's own) wait until"
            ),
            listed.stdout
        )

        let asked = try personAsksAndEndsTheStreak(script: script, run: run, requestsAfter: 2)
        XCTAssertEqual(asked.lines.first, "Newly cached image")
    }

    /// A check a person runs that fails with nothing cached leaves nothing
    /// behind (a mistyped URL is no entry to back off from); the same
    /// failure in `fetch --all` starts a streak.
    func testAPersonsFailedFirstCheckLeavesNoRecord() throws {
        let script = server.root.file("script.json")
        try #"{"status": 500}"#.write(toFile: script, atomically: true, encoding: .utf8)
        let url = server.url("/scripted/earth.jpg")
        let failed = try urlcache(["fetch", "--url", url, "--cache-dir", cacheDir], home: home)
        XCTAssertEqual(failed.status, 1, failed.stderr)
        let left = (try? FileManager.default.contentsOfDirectory(atPath: cacheDir)) ?? []
        XCTAssertFalse(left.contains { $0.hasSuffix(".meta") || $0.hasSuffix(".img") }, "\(left)")
        let list = try writeList([url], in: home)
        XCTAssertEqual(
            try urlcache(["fetch", "--all", "--config", list, "--cache-dir", cacheDir], home: home).status,
            1
        )
        let kept = (try? FileManager.default.contentsOfDirectory(atPath: cacheDir)) ?? []
        XCTAssertEqual(kept.filter { $0.hasSuffix(".meta") }.count, 1, "the timer's streak: \(kept)")
    }
}

import Foundation
import URLCacheHarness
import URLCacheKit
import URLCacheTestSupport
import XCTest

#if canImport(Glibc)
import Glibc
#endif

/// The cache against its neighbours and its own past: a directory someone
/// else can write, links planted in it, records edited to carry escape
/// sequences, a read-only cache, and what dead or interrupted runs leave.
final class CacheSafetyTests: ScriptedServerTestCase {
    override var served: [(fixture: String, name: String)] { [("sun.png", "sun.png"), ("photo.jpg", "photo.jpg")] }

    private var cacheDir: String { home.file("cache") }
    private var imageURL: String { server.url("/plain/sun.png") }
    private var entry: DiskCache.EntryPaths {
        DiskCache(directory: cacheDir).paths(for: URL(string: imageURL)!)
    }

    private func fetch(_ extra: [String] = [], cacheDir dir: String? = nil) throws -> RunResult {
        try urlcache(["fetch", "--url", imageURL, "--cache-dir", dir ?? cacheDir] + extra, home: home)
    }

    private func makeDirectory(_ path: String, mode: mode_t) throws {
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        XCTAssertEqual(chmod(path, mode), 0)
    }

    func testACacheOthersCanWriteIsRefusedWithTheFix() throws {
        try makeDirectory(cacheDir, mode: 0o777)
        let result = try fetch()
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(
            result.stderr.contains("refusing cache directory \(cacheDir): others can write to it (mode 777)"),
            result.stderr
        )
        XCTAssertTrue(result.stderr.contains("chmod 700 \(cacheDir)"), result.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: cacheDir), [], "nothing was written there")
        XCTAssertTrue(server.requests.isEmpty)
        // The fix it names works.
        XCTAssertEqual(chmod(cacheDir, 0o700), 0)
        XCTAssertEqual(try fetch().status, 0)
    }

    func testACacheOfAnotherUserIsRefused() throws {
        guard getuid() == 0 else { throw XCTSkip("giving a directory to another user needs root") }
        try makeDirectory(cacheDir, mode: 0o700)
        XCTAssertEqual(chown(cacheDir, 65534, 65534), 0)
        let result = try fetch()
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.contains("belongs to another user (uid 65534)"), result.stderr)
        XCTAssertTrue(server.requests.isEmpty)
    }

    /// Links planted where the cache keeps its own files are never
    /// followed: nothing is created or touched where they point.
    func testPlantedLinksAreNeverFollowed() throws {
        try makeDirectory(cacheDir, mode: 0o700)
        let target = home.file("target")
        XCTAssertEqual(symlink(target, entry.lock), 0)
        let throughLock = try fetch()
        XCTAssertEqual(throughLock.status, 1)
        XCTAssertTrue(throughLock.stderr.contains("\(entry.lock) is a symbolic link"), throughLock.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: target), "the lock's link was not followed")
        try FileManager.default.removeItem(atPath: entry.lock)

        XCTAssertEqual(symlink(target, cacheDir + "/cache.lock"), 0)
        let throughCacheLock = try fetch()
        XCTAssertEqual(throughCacheLock.status, 1)
        XCTAssertTrue(throughCacheLock.stderr.contains("cache.lock is a symbolic link"), throughCacheLock.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: target), "cache.lock's link was not followed")
        try FileManager.default.removeItem(atPath: cacheDir + "/cache.lock")

        // An image that is a link to someone's file: its time is not changed.
        try "someone's file".write(toFile: target, atomically: true, encoding: .utf8)
        try age(target, by: 30 * 24 * 3600)
        let before = try modificationDate(target)
        XCTAssertEqual(symlink(target, entry.image), 0)
        for run in [try fetch(), try fetch(["--force"]), try fetch(["--offline"])] {
            XCTAssertNotEqual(run.status, 0, run.stdout)
            XCTAssertTrue(run.stderr.contains("\(entry.image) is a symbolic link"), run.stderr)
        }
        XCTAssertEqual(try modificationDate(target), before)
        XCTAssertEqual(try String(contentsOfFile: target, encoding: .utf8), "someone's file")
    }

    /// Every string of a record, edited to carry escape sequences, reaches
    /// no terminal raw: list, fetch and history all print it made safe.
    func testEditedRecordsPrintHarmlessly() throws {
        XCTAssertEqual(try fetch(["--freshness", "server"]).status, 0)
        let data = try Data(contentsOf: URL(fileURLWithPath: entry.metadata))
        var record = try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
        let hostile = "\u{1B}]0;pwned\u{07}\u{1B}[2J\u{9B}6n"
        func poison(_ value: Any, key: String) -> Any {
            if key == "url" { return value }  // a record for another URL is not read at all
            if let text = value as? String { return text + hostile }
            if let dict = value as? [String: Any] {
                return dict.reduce(into: [String: Any]()) { $0[$1.key] = poison($1.value, key: $1.key) }
            }
            return value
        }
        record = record.reduce(into: [:]) { $0[$1.key] = poison($1.value, key: $1.key) }
        for key in ["title", "credit", "description", "imageURL", "link", "contentType", "cacheControl", "expires"] {
            record[key] = "edited" + hostile
        }
        if var lifetime = record["lifetime"] as? [String: Any] {
            lifetime["reason"] = "max-age" + hostile
            record["lifetime"] = lifetime
        }
        try JSONSerialization.data(withJSONObject: record).write(to: URL(fileURLWithPath: entry.metadata))
        let list = try writeList([imageURL], in: home)
        let runs = [
            try urlcache(["list", "--config", list, "--cache-dir", cacheDir, "--freshness", "server"], home: home),
            try urlcache(["fetch", "--config", list, "--cache-dir", cacheDir, "--offline"], home: home),
            try urlcache(["history", "--config", list, "--cache-dir", cacheDir], home: home),
        ]
        for run in runs {
            XCTAssertTrue(run.stdout.contains("edited") || run.stdout.contains("max-age"), run.stdout)
            for text in [run.stdout, run.stderr] {
                XCTAssertFalse(
                    text.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{07}" || $0 == "\u{9B}" },
                    text
                )
            }
        }
    }

    /// Reading needs no lock: a cache on a read-only file system still
    /// shows what it has, and says that nothing can be updated.
    func testAReadOnlyCacheShowsWhatIsThere() throws {
        try mountTmpfs(at: cacheDir, options: "size=1m,mode=0700")
        let first = try fetch()
        XCTAssertEqual(first.status, 0, first.stderr)
        let remounted = try runProgram(URL(fileURLWithPath: "/bin/mount"), ["-o", "remount,ro", cacheDir])
        XCTAssertEqual(remounted.status, 0, remounted.stderr)
        let offline = try fetch(["--offline"])
        XCTAssertEqual(offline.status, 0, offline.stderr)
        XCTAssertEqual(offline.lines.last, first.lines[2])
        let checked = try fetch(["--force"])
        XCTAssertEqual(checked.status, 3, checked.stderr)
        XCTAssertTrue(
            checked.stderr.contains("read-only cache \(cacheDir): showing what is there, nothing can be updated"),
            checked.stderr
        )
        XCTAssertEqual(checked.lines.last, first.lines[2])
    }

    /// What runs leave: no lock for an entry with no image, a dead
    /// process's temporary file swept, and `clear` leaves the lock (and the
    /// temporary file) of a fetch that is running.
    func testLeftoversAreCleanedAndRunningOnesLeftAlone() throws {
        let failed = try urlcache(["fetch", "--url", server.url("/status/404"), "--cache-dir", cacheDir], home: home)
        XCTAssertEqual(failed.status, 1)
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: cacheDir).filter {
                $0.hasSuffix(".lock") && $0 != "cache.lock"
            },
            [],
            "a failure keeps no lock file"
        )
        // A temporary file of a process that no longer runs.
        let gone = Process()
        gone.executableURL = URL(fileURLWithPath: "/bin/true")
        try gone.run()
        gone.waitUntilExit()
        let stale =
            cacheDir + "/." + (entry.image as NSString).lastPathComponent.dropLast(4)
            + ".tmp.\(gone.processIdentifier).1"
        XCTAssertTrue(FileManager.default.createFile(atPath: stale, contents: Data("half".utf8)))
        XCTAssertEqual(try fetch().status, 0)
        XCTAssertFalse(FileManager.default.fileExists(atPath: stale), "swept")

        // A fetch that is running keeps its lock through a clear.
        try "trickle".write(toFile: server.root.file("mode"), atomically: true, encoding: .utf8)
        let slowURL = server.url("/as/photo.jpg")
        let running = try startHangingFetch(slowURL, cacheDir: cacheDir)
        defer { if running.isRunning { running.terminate() } }
        let lock = DiskCache(directory: cacheDir).paths(for: URL(string: slowURL)!).lock
        let cleared = try urlcache(
            ["clear", "--yes", "--cache-dir", cacheDir, "--config", try writeList([imageURL], in: home)],
            home: home
        )
        XCTAssertEqual(cleared.status, 0, cleared.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: lock), "the running fetch's lock stays")
        XCTAssertTrue(
            try FileManager.default.contentsOfDirectory(atPath: cacheDir).contains { $0.contains(".tmp.") },
            "and so does its temporary file"
        )
        XCTAssertFalse(FileManager.default.fileExists(atPath: entry.image), "the rest is cleared")
    }

    /// A FIFO, /dev/stdin and <(…) are streams: read as `-` is.
    func testRenderReadsAFIFOAndDevStdinAsStreams() throws {
        let fifo = home.file("pipe")
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        let png = try Data(contentsOf: Fixtures.images.appendingPathComponent("sun.png"))
        let writer = Thread { try? png.write(to: URL(fileURLWithPath: fifo)) }
        writer.start()
        let fromFIFO = try urlcache(["render", fifo, "--size", "20x5", "--colors", "256"], home: home)
        XCTAssertEqual(fromFIFO.status, 0, fromFIFO.stderr)
        XCTAssertEqual(fromFIFO.lines.count, 5)
        let fromStdin = try urlcache(
            ["render", "/dev/stdin", "--size", "20x5", "--colors", "256"],
            home: home,
            input: png
        )
        XCTAssertEqual(fromStdin.status, 0, fromStdin.stderr)
        XCTAssertEqual(fromStdin.stdout, fromFIFO.stdout)
    }
}

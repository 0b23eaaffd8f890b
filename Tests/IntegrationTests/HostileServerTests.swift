import Foundation
import URLCacheHarness
import URLCacheTestSupport
import XCTest

#if canImport(Glibc)
import Glibc
#endif

/// A server that turns hostile after a good first answer, on the same URL
/// (`/as/NAME`, whose behaviour the file ROOT/mode names). Whatever it
/// sends, the good image stays current and byte for byte what it was, the
/// entry is not marked checked (the next Display Image asks again), and the
/// failure is one line; exit status 3.
final class HostileServerTests: ScriptedServerTestCase {
    override var served: [(fixture: String, name: String)] { [("sun.png", "sun.png"), ("photo.jpg", "photo.jpg")] }

    private var cacheDir: String { home.file("cache") }

    private func fetch(_ name: String, _ extra: [String] = []) throws -> RunResult {
        try urlcache(["fetch", "--url", server.url("/as/\(name)"), "--cache-dir", cacheDir] + extra, home: home)
    }

    private func turn(_ mode: String) throws {
        try mode.write(toFile: server.root.file("mode"), atomically: true, encoding: .utf8)
    }

    /// Caches `name` as served plainly, a day and more ago; returns its path.
    private func cacheGoodCopy(_ name: String, mode: String = "plain") throws -> String {
        try turn(mode)
        let good = try fetch(name)
        XCTAssertEqual(good.status, 0, good.stderr)
        let image = good.lines[2]
        try age(image, by: 25 * 3600)
        return image
    }

    /// The good copy is still current and intact, not marked checked, and
    /// the one line names `cause`.
    private func assertKept(
        _ image: String,
        name: String,
        after result: RunResult,
        saying cause: String,
        file: StaticString = #filePath,
        line: UInt = #line
    ) throws {
        XCTAssertEqual(result.status, 3, result.stderr, file: file, line: line)
        let message = result.stderr.trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertFalse(message.contains("\n"), message, file: file, line: line)
        XCTAssertTrue(message.contains(cause), message, file: file, line: line)
        XCTAssertEqual(result.lines.first, "Previously cached image (check failed)", file: file, line: line)
        XCTAssertEqual(
            try Data(contentsOf: URL(fileURLWithPath: image)),
            try Data(contentsOf: Fixtures.images.appendingPathComponent(name)),
            "the good image is current",
            file: file,
            line: line
        )
        XCTAssertLessThan(
            try modificationDate(image),
            Date().addingTimeInterval(-24 * 3600),
            "not marked checked",
            file: file,
            line: line
        )
        let names = try FileManager.default.contentsOfDirectory(atPath: cacheDir)
        let entry = String((image as NSString).lastPathComponent.prefix(32))
        XCTAssertEqual(
            names.filter { $0.hasPrefix(entry) && $0.hasSuffix(".img") },
            [entry + ".img"],
            "nothing went to history",
            file: file,
            line: line
        )
        let leftovers = names.filter { $0.contains(".tmp.") }
        XCTAssertEqual(leftovers, [], "no temporary file left", file: file, line: line)
    }

    func testPartialContentToAPlainGetIsAnError() throws {
        let image = try cacheGoodCopy("sun.png")
        try turn("partial")
        try assertKept(image, name: "sun.png", after: try fetch("sun.png"), saying: "HTTP 206 Partial Content")
        // Not marked checked: the next Display Image asks again.
        let before = server.requests.count
        _ = try fetch("sun.png")
        XCTAssertEqual(server.requests.count, before + 1)
    }

    func testShortContentLengthCutsAPNGAndAJPEGShort() throws {
        for name in ["sun.png", "photo.jpg"] {
            let image = try cacheGoodCopy(name)
            try turn("short")
            try assertKept(image, name: name, after: try fetch(name), saying: "the server's image is cut short")
        }
    }

    func testSignatureFollowedByNoiseIsDamaged() throws {
        for name in ["sun.png", "photo.jpg"] {
            let image = try cacheGoodCopy(name)
            try turn("noise")
            try assertKept(image, name: name, after: try fetch(name), saying: "the server's image is damaged")
        }
    }

    /// A valid JPEG's first 4 KB, then a byte every half second: above
    /// any stall rule, and ended by the time limit.
    func testEndlessSlowBodyEndsAtTheTimeLimit() throws {
        let image = try cacheGoodCopy("photo.jpg")
        try turn("trickle")
        try assertKept(
            image,
            name: "photo.jpg",
            after: try fetch("photo.jpg", ["--max-time", "3"]),
            saying: "gave up after 3 s"
        )
    }

    /// --max-time takes a time: 0 is refused (libcurl reads 0 as no limit),
    /// one past any clock is a very long limit, not a crash.
    func testMaxTimeIsATime() throws {
        let zero = try fetch("sun.png", ["--max-time", "0"])
        XCTAssertEqual(zero.status, 2)
        XCTAssertTrue(zero.stderr.contains("--max-time must be more than 0 seconds"), zero.stderr)
        let huge = try fetch("sun.png", ["--max-time", "1e17"])
        XCTAssertEqual(huge.status, 0, huge.stderr)
        XCTAssertEqual(huge.lines.first, "Newly cached image")
    }

    /// While one fetch hangs holding the entry, a second one says whom it
    /// waits for and gives up at its own limit; the first, interrupted,
    /// removes its temporary file and ends by its signal.
    func testAHeldLockIsNamedAndGivenUpOn() throws {
        let image = try cacheGoodCopy("photo.jpg")
        try turn("trickle")
        let hanging = try startHangingFetch(server.url("/as/photo.jpg"), cacheDir: cacheDir)
        defer { if hanging.isRunning { hanging.terminate() } }
        let second = try fetch("photo.jpg", ["--max-time", "2"])
        XCTAssertEqual(second.status, 3, second.stderr)
        let lines = second.stderr.split(separator: "\n")
        XCTAssertEqual(
            lines.first.map(String.init),
            "urlcache: waiting for another urlcache (pid \(hanging.processIdentifier)) to finish with this image"
        )
        XCTAssertTrue(second.stderr.contains("gave up waiting after 2 s"), second.stderr)
        XCTAssertEqual(second.lines.last, image)

        kill(hanging.processIdentifier, SIGINT)
        hanging.waitUntilExit()
        XCTAssertEqual(hanging.terminationReason, .uncaughtSignal, "it ends by the signal, as the shell expects")
        XCTAssertEqual(hanging.terminationStatus, SIGINT)
        let names = try FileManager.default.contentsOfDirectory(atPath: cacheDir)
        XCTAssertEqual(names.filter { $0.contains(".tmp.") }, [], "Ctrl-C leaves no temporary file")
        XCTAssertEqual(
            try Data(contentsOf: URL(fileURLWithPath: image)),
            try Data(contentsOf: Fixtures.images.appendingPathComponent("photo.jpg"))
        )
    }

    /// RFC 9111 §4.3.4: what a 304 does not mention is kept, so the next
    /// request still carries If-Modified-Since.
    func testA304KeepsTheValidatorsItDoesNotRepeat() throws {
        let image = try cacheGoodCopy("sun.png")
        try turn("quiet304")
        XCTAssertEqual(try fetch("sun.png").lines.first, "Cached image is up to date")
        try age(image, by: 25 * 3600)
        XCTAssertEqual(try fetch("sun.png").lines.first, "Cached image is up to date")
        let asked = server.requests.suffix(2)
        XCTAssertEqual(asked.count, 2)
        for request in asked {
            XCTAssertNotNil(request.ifNoneMatch)
            XCTAssertNotNil(request.ifModifiedSince, "Last-Modified survives a 304 that left it out")
        }
    }

    /// A 304 to a request that named no version confirms nothing.
    func testA304ToAnUnconditionalRequestIsAnError() throws {
        let image = try cacheGoodCopy("sun.png", mode: "novalidators")
        try turn("always304")
        let result = try fetch("sun.png")
        try assertKept(image, name: "sun.png", after: result, saying: "named no version of the image")
        XCTAssertNil(server.requests.last?.ifNoneMatch)
        XCTAssertNil(server.requests.last?.ifModifiedSince)
    }
}

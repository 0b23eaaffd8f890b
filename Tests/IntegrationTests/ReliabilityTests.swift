import Foundation
import URLCacheHarness
import URLCacheKit
import URLCacheTestSupport
import XCTest

/// Faults and load: a full disk, damaged cache entries, many processes and
/// many checks, hostile text. Nothing is lost and nothing crashes.
final class ReliabilityTests: ScriptedServerTestCase {
    override var served: [(fixture: String, name: String)] { [("earth.jpg", "photo.jpg")] }

    private func fetch(_ path: String, cacheDir: String? = nil, _ extra: [String] = []) throws -> RunResult {
        try urlcache(
            ["fetch", "--url", server.url(path), "--cache-dir", cacheDir ?? home.file("cache")] + extra,
            home: home
        )
    }

    func testFullDiskIsReportedAndThePreviousImageSurvives() throws {
        let cache = home.file("small")
        try mountTmpfs(at: cache, options: "size=96k,mode=0700")
        let first = try fetch("/novalidators/photo.jpg", cacheDir: cache)
        XCTAssertEqual(first.status, 0, first.stderr)
        let image = first.lines[2]
        // Leave a few KiB free, then make the server's image bigger than that.
        let filler = FileHandle(
            forWritingAtPath: {
                FileManager.default.createFile(atPath: cache + "/filler", contents: nil)
                return cache + "/filler"
            }()
        )
        while (try? filler?.write(contentsOf: Data(count: 4096))) != nil {}
        try? filler?.close()
        var big = Data([0xFF, 0xD8, 0xFF, 0xE0])
        big.append(Data((0..<60_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }))
        try big.write(to: server.root.url.appendingPathComponent("photo.jpg"))
        try age(image, by: 25 * 3600)
        let before = try modificationDate(image)
        let second = try fetch("/novalidators/photo.jpg", cacheDir: cache)
        XCTAssertEqual(second.status, 3, second.stderr)
        XCTAssertTrue(second.stderr.contains("no space left on device"), second.stderr)
        XCTAssertEqual(second.stderr.split(separator: "\n").count, 1)
        XCTAssertEqual(
            try Data(contentsOf: URL(fileURLWithPath: image)),
            try Data(contentsOf: Fixtures.images.appendingPathComponent("earth.jpg")),
            "previous image intact"
        )
        XCTAssertEqual(try modificationDate(image), before, "Updated intact")
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: cache).filter { $0.contains(".tmp.") },
            [],
            "no temporary file left behind"
        )
    }

    func testCacheDirectoryThatCannotBeCreated() throws {
        let result = try fetch("/plain/photo.jpg", cacheDir: "/etc/passwd/urlcache")
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.contains("cannot create cache directory /etc/passwd/urlcache"), result.stderr)
        let file = try home.write("plain-file", "x")
        let notDir = try fetch("/plain/photo.jpg", cacheDir: file)
        XCTAssertTrue(notDir.stderr.contains("is not a directory"), notDir.stderr)
    }

    func testCorruptOrMissingMetadataCostsADownloadNotACrash() throws {
        let first = try fetch("/plain/photo.jpg")
        let image = first.lines[2]
        let meta = String(image.dropLast(4)) + ".meta"
        try "{ this is not json \u{1B}[2J".write(toFile: meta, atomically: true, encoding: .utf8)
        try age(image, by: 25 * 3600)
        let second = try fetch("/plain/photo.jpg")
        XCTAssertEqual(second.status, 0, second.stderr)
        XCTAssertEqual(
            second.lines.first,
            "Cached image is up to date",
            "no validators to send: the bytes are compared"
        )
        try FileManager.default.removeItem(atPath: meta)
        try age(image, by: 25 * 3600)
        XCTAssertEqual(try fetch("/plain/photo.jpg").status, 0)
    }

    func testImageDeletedBehindTheProgramsBack() throws {
        let image = try fetch("/plain/photo.jpg").lines[2]
        try FileManager.default.removeItem(atPath: image)
        let again = try fetch("/plain/photo.jpg")
        XCTAssertEqual(again.lines.first, "Newly cached image", again.stderr)
        XCTAssertEqual(server.requests.last?.ifNoneMatch, nil, "no copy: an unconditional GET")
    }

    func testTwentyFetchesAtOnceOnOneEntry() throws {
        let processes = try (0..<20).map { _ -> (Process, Pipe) in
            let process = Process()
            let out = Pipe()
            process.executableURL = Paths.binary
            process.arguments = [
                "fetch", "--url", server.url("/slow/photo.jpg?delay=0.02"), "--cache-dir", home.file("cache"),
            ]
            process.environment = ["NO_PROXY": "127.0.0.1", "HOME": home.path]
            process.standardOutput = out
            process.standardError = FileHandle.nullDevice
            try process.run()
            return (process, out)
        }
        var outcomes: [String] = []
        for (process, out) in processes {
            let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            XCTAssertEqual(process.terminationStatus, 0)
            outcomes.append(text.split(separator: "\n").first.map(String.init) ?? "")
        }
        XCTAssertEqual(outcomes.filter { $0 == "Newly cached image" }.count, 1)
        XCTAssertEqual(outcomes.filter { $0 == "Previously cached image" }.count, 19)
        let files = try FileManager.default.contentsOfDirectory(atPath: home.file("cache"))
        XCTAssertEqual(files.filter { $0.hasSuffix(".img") }.count, 1)
        XCTAssertEqual(files.filter { $0.contains(".tmp.") }, [])
        XCTAssertEqual(server.requests.count, 1)
    }

    func testHundredForcedChecksLeakNoFileDescriptors() throws {
        let controller = URLCacheController(cache: DiskCache(directory: home.file("cache")))
        let url = try XCTUnwrap(URL(string: server.url("/plain/photo.jpg")))
        XCTAssertEqual(controller.display(url).result, .success(.newlyCached))
        let before = try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count
        for _ in 0..<100 {
            XCTAssertEqual(controller.display(url, force: true).result, .success(.upToDate))
        }
        let after = try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count
        XCTAssertLessThanOrEqual(after, before + 2, "file descriptors do not pile up")
        XCTAssertEqual(server.requests.count, 101)
        XCTAssertEqual(Set(server.requests.dropFirst().map(\.status)), [304])
    }

    func testHostileTitlesAndURLsPrintHarmlessly() throws {
        let list = try home.write(
            "list.plist",
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><array>
            <dict><key>title</key><string>Evil &#27;[31mred&#27;]0;owned&#7; title</string>
            <key>url</key><string>\(server.url("/status/404"))</string></dict>
            </array></plist>
            """
        )
        for command in [["list", "--config", list], ["fetch", "--config", list]] {
            let result = try urlcache(command, home: home)
            let output = result.stdout + result.stderr
            XCTAssertFalse(
                output.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 },
                "\(command): \(output.debugDescription)"
            )
        }
        XCTAssertTrue(try urlcache(["list", "--config", list], home: home).stdout.contains("Evil"))
    }
}

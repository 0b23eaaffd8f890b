import Foundation
import URLCacheHarness
import URLCacheKit
import URLCacheTestSupport
import XCTest

/// Bad URL lists, the built-in list, kill -9 mid-download and two processes
/// on one entry.
final class ConfigAndCrashTests: XCTestCase {
    var home: TemporaryDirectory!
    var server: ScriptedServer?

    override func setUpWithError() throws {
        home = try TemporaryDirectory()
    }

    override func tearDown() {
        server?.stop()
        server = nil
        home = nil
    }

    private func expectConfigError(
        _ contents: String,
        mentioning words: String,
        file: StaticString = #filePath,
        line: UInt = #line
    ) throws {
        let path = try home.write("bad.plist", contents)
        let result = try urlcache(["fetch", "--config", path], home: home)
        XCTAssertEqual(result.status, 2, file: file, line: line)
        XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, result.stderr, file: file, line: line)
        XCTAssertTrue(result.stderr.contains(path), "names the file: \(result.stderr)", file: file, line: line)
        XCTAssertTrue(result.stderr.contains(words), result.stderr, file: file, line: line)
        XCTAssertFalse(
            FileManager.default.fileExists(atPath: home.file("cache/urlcache")),
            "cache untouched",
            file: file,
            line: line
        )
    }

    private func plist(_ body: String) -> String {
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\(body)</plist>"
    }

    func testBadListsAreOneLineErrorsWithStatus2() throws {
        try expectConfigError("this is not a plist {", mentioning: "is not a property list")
        try expectConfigError(plist("<string>http://example.com/a.jpg</string>"), mentioning: "found a string")
        try expectConfigError(plist("<array><integer>3</integer></array>"), mentioning: "entry 1")
        try expectConfigError(plist("<array><string>not a url at all</string></array>"), mentioning: "is not a URL")
        try expectConfigError(
            plist("<array><string>ftp://example.com/a.jpg</string></array>"),
            mentioning: "scheme \"ftp\""
        )
        try expectConfigError(
            plist("<array><string>file:///etc/passwd</string></array>"),
            mentioning: "scheme \"file\""
        )
        try expectConfigError(plist("<array></array>"), mentioning: "holds no images")
        try expectConfigError(
            plist("<array><dict><key>title</key><string>x</string></dict></array>"),
            mentioning: "\"url\""
        )
        try expectConfigError(
            plist(
                "<dict><key>refreshInterval</key><string>soon</string><key>images</key><array><string>http://a/b.jpg</string></array></dict>"
            ),
            mentioning: "refreshInterval"
        )
    }

    func testEveryCommandTakesConfig() throws {
        let list = try writeList(["http://127.0.0.1:9/a.png"], in: home)
        for command in [["fetch"], ["list"], ["clear", "--yes"]] {
            let result = try urlcache(command + ["--config", list], home: home)
            XCTAssertFalse(result.stderr.contains("Unknown option"), "\(command): \(result.stderr)")
            XCTAssertNotEqual(result.status, 2, "\(command): \(result.stderr)")
        }
        let broken = try home.write("broken.plist", "not a plist")
        let clear = try urlcache(["clear", "--yes", "--config", broken], home: home)
        XCTAssertEqual(clear.status, 2, "a broken list is reported by clear too")
        XCTAssertTrue(clear.stderr.contains("is not a property list"), clear.stderr)
    }

    func testMissingListAndEntryOutOfRange() throws {
        let missing = try urlcache(["fetch", "--config", home.file("nope.plist")], home: home)
        XCTAssertEqual(missing.status, 2)
        XCTAssertTrue(missing.stderr.contains("nope.plist"), missing.stderr)
        let list = try writeList(["http://127.0.0.1:9/a.jpg"], in: home)
        let outOfRange = try urlcache(["fetch", "--config", list, "--entry", "4"], home: home)
        XCTAssertEqual(outOfRange.status, 2)
        XCTAssertTrue(outOfRange.stderr.contains("no entry 4"), outOfRange.stderr)
    }

    func testBadFlagIsNamed() throws {
        let result = try urlcache(["fetch", "--frobnicate"], home: home)
        XCTAssertEqual(result.status, 2, "usage errors share the documented status 2")
        XCTAssertTrue(result.stderr.contains("--frobnicate"), result.stderr)
        let extra = try urlcache(["render", "a.png", "b.png"], home: home)
        XCTAssertEqual(extra.status, 2)
        XCTAssertTrue(extra.stderr.contains("Unexpected argument 'b.png'"), extra.stderr)
        let help = try urlcache(["fetch", "--help"], home: home)
        XCTAssertEqual(help.status, 0)
        XCTAssertTrue(help.stdout.contains("USAGE: urlcache fetch"), help.stdout)
        let version = try urlcache(["--version"], home: home)
        XCTAssertEqual(version.stdout.trimmingCharacters(in: .whitespacesAndNewlines), URLCacheVersion.string)
    }

    func testBinaryCopiedAloneStillHasItsBuiltInList() throws {
        let lone = home.file("lone-urlcache")
        try FileManager.default.copyItem(atPath: Paths.binary.path, toPath: lone)
        let result = try runProgram(
            URL(fileURLWithPath: lone),
            ["list"],
            environment: [
                "HOME": home.path, "XDG_CONFIG_HOME": home.file("none"),
                "XDG_CACHE_HOME": home.file("cache"),
            ]
        )
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.contains("URL list: built-in list"), result.stdout)
        XCTAssertTrue(result.stdout.contains("1. GOES-East full disk (GeoColor)"), result.stdout)
        XCTAssertTrue(result.stdout.contains("latest.png"), result.stdout)
    }

    func testUserListInXDGConfigHomeIsUsed() throws {
        try FileManager.default.createDirectory(atPath: home.file("config/urlcache"), withIntermediateDirectories: true)
        _ = try writeList(["http://127.0.0.1:9/mine.jpg"], in: home, name: "config/urlcache/URLCache.plist")
        let result = try urlcache(["list"], home: home)
        XCTAssertTrue(result.stdout.contains("1. 127.0.0.1/mine.jpg"), result.stdout)
    }

    func testKill9MidDownloadLeavesThePreviousImage() throws {
        let server = try ScriptedServer()
        self.server = server
        try copyFixture("earth.jpg", to: server.root, as: "photo.jpg")
        let url = server.url("/slow/photo.jpg")
        let first = try urlcache(["fetch", "--url", url], home: home)
        XCTAssertEqual(first.status, 0, first.stderr)
        let image = first.lines[2]
        try copyFixture("earth2.jpg", to: server.root, as: "photo.jpg")
        try age(image, by: 25 * 3600)

        let process = Process()
        process.executableURL = Paths.binary
        process.arguments = ["fetch", "--url", url, "--cache-dir", home.file("cache/urlcache")]
        process.environment = ["NO_PROXY": "127.0.0.1", "HOME": home.path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let cacheDir = home.file("cache/urlcache")
        var staged = false
        for _ in 0..<400 where !staged {
            staged = ((try? FileManager.default.contentsOfDirectory(atPath: cacheDir)) ?? []).contains {
                $0.contains(".tmp.")
            }
            if !staged { usleep(10_000) }
        }
        XCTAssertTrue(staged, "the download had begun")
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        XCTAssertEqual(
            try Data(contentsOf: URL(fileURLWithPath: image)),
            try Data(contentsOf: Fixtures.images.appendingPathComponent("earth.jpg")),
            "previous image intact"
        )

        let again = try urlcache(["fetch", "--url", url], home: home)
        XCTAssertEqual(again.lines.first, "Newly cached image", again.stderr)
        XCTAssertEqual(
            try Data(contentsOf: URL(fileURLWithPath: image)),
            try Data(contentsOf: Fixtures.images.appendingPathComponent("earth2.jpg"))
        )
        let left = try FileManager.default.contentsOfDirectory(atPath: cacheDir).filter { $0.contains(".tmp.") }
        XCTAssertEqual(left, [], "the killed process's temporary file is cleaned up")
    }

    func testTwoFetchesAtOnceBothSucceed() throws {
        let server = try ScriptedServer()
        self.server = server
        try copyFixture("earth.jpg", to: server.root)
        let url = server.url("/slow/earth.jpg")
        let results = try [0, 1].map { _ -> (Process, Pipe) in
            let process = Process()
            let out = Pipe()
            process.executableURL = Paths.binary
            process.arguments = ["fetch", "--url", url, "--cache-dir", home.file("cache/urlcache")]
            process.environment = ["NO_PROXY": "127.0.0.1", "HOME": home.path]
            process.standardOutput = out
            process.standardError = FileHandle.nullDevice
            try process.run()
            return (process, out)
        }.map { process, out -> (Int32, String) in
            let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            return (process.terminationStatus, text)
        }
        XCTAssertEqual(results.map(\.0), [0, 0])
        let outcomes = Set(results.map { $0.1.split(separator: "\n").first.map(String.init) ?? "" })
        XCTAssertEqual(outcomes, ["Newly cached image", "Previously cached image"])
        XCTAssertEqual(server.requests.count, 1, "the second waited for the first and found a fresh copy")
        let path = results[0].1.split(separator: "\n")[2]
        XCTAssertEqual(
            try Data(contentsOf: URL(fileURLWithPath: String(path))),
            try Data(contentsOf: Fixtures.images.appendingPathComponent("earth.jpg"))
        )
    }
}

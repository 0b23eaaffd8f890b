import Foundation
import URLCacheHarness
import URLCacheTestSupport
import XCTest

#if canImport(Glibc)
import Glibc
#endif

/// `urlcache save` and the screen's `s`: a copy out of the cache, into the
/// user's pictures folder, that survives Clear Cache; one line for a full
/// disk or a read-only folder.
final class SaveCommandTests: ScriptedServerTestCase {
    // A 27 KB photo: more than the 8 KB tmpfs the full-disk test mounts.
    override var served: [(fixture: String, name: String)] { [("photo.jpg", "earth.jpg"), ("sun.png", "sun.png")] }

    private var list: String { home.file("list.plist") }

    private func fetchAll() throws {
        _ = try writeList(
            titled: [("Blue / Marble", server.url("/plain/earth.jpg")), ("Sun", server.url("/plain/sun.png"))],
            in: home,
            name: "list.plist"
        )
        XCTAssertEqual(try urlcache(["fetch", "--all", "--config", list], home: home).status, 0)
    }

    func testSaveCopiesIntoThePicturesFolderAndSurvivesClearCache() throws {
        try fetchAll()
        let first = try urlcache(["save", "--config", list], home: home)
        XCTAssertEqual(first.status, 0, first.stderr)
        let expected = home.file("Pictures/urlcache/\(UpdatedFormatDay.today("yyyy-MM-dd")) Blue - Marble.jpg")
        XCTAssertEqual(first.lines, [expected], "the title's slash is not a folder")
        XCTAssertEqual(
            FileManager.default.contents(atPath: expected),
            FileManager.default.contents(atPath: server.root.file("earth.jpg"))
        )
        let again = try urlcache(["save", "--config", list], home: home)
        XCTAssertEqual(again.lines, [expected])
        XCTAssertEqual(again.stderr, "urlcache: already saved; the same image is there\n")
        // The pictures folder xdg-user-dir would name, and the format's extension.
        try FileManager.default.createDirectory(atPath: home.file("config"), withIntermediateDirectories: true)
        _ = try home.write("config/user-dirs.dirs", "XDG_PICTURES_DIR=\"$HOME/Bilder\"\n")
        let sun = try urlcache(["save", "--config", list, "--entry", "2"], home: home)
        XCTAssertEqual(
            sun.lines,
            [home.file("Bilder/urlcache/\(UpdatedFormatDay.today("yyyy-MM-dd")) Sun.png")],
            sun.stderr
        )
        let clear = try urlcache(["clear", "--yes"], home: home)
        XCTAssertEqual(clear.status, 0, clear.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: expected), "saved copies are the user's")
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: home.file("Pictures/urlcache")).count,
            1,
            "no temporary file left"
        )
    }

    func testNothingCachedAndABadHistoryNumberAreOneLine() throws {
        _ = try writeList([server.url("/plain/earth.jpg")], in: home, name: "list.plist")
        let empty = try urlcache(["save", "--config", list], home: home)
        XCTAssertEqual(empty.status, 1)
        XCTAssertEqual(empty.stderr, "urlcache: 127.0.0.1/earth.jpg: nothing cached to save yet\n")
        XCTAssertEqual(try urlcache(["fetch", "--config", list], home: home).status, 0)
        let far = try urlcache(["save", "--config", list, "--history", "4"], home: home)
        XCTAssertEqual(far.status, 2)
        XCTAssertEqual(far.stderr, "urlcache: --history 4: 127.0.0.1/earth.jpg keeps 1 image\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: home.file("Pictures")), "nothing created for a failure")
    }

    /// A real full disk and a real read-only file system (a tmpfs): one
    /// line each, the cache untouched, no partial file left.
    func testAFullDiskAndAReadOnlyFolderAreOneLine() throws {
        guard getuid() == 0 else { throw XCTSkip("mounting a tmpfs needs root") }
        try fetchAll()
        let folder = home.file("small")
        try mountTmpfs(at: folder, options: "size=8k")
        let full = try urlcache(["save", "--config", list, "--to", folder], home: home)
        XCTAssertEqual(full.status, 1)
        XCTAssertTrue(full.stderr.hasPrefix("urlcache: cannot save to \(folder): no space left on device"), full.stderr)
        XCTAssertEqual(full.stderr.filter { $0 == "\n" }.count, 1, full.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder), [], "no partial file")
        XCTAssertEqual(try runProgram(URL(fileURLWithPath: "/bin/mount"), ["-o", "remount,ro", folder]).status, 0)
        let readOnly = try urlcache(["save", "--config", list, "--entry", "2", "--to", folder], home: home)
        XCTAssertEqual(readOnly.status, 1)
        XCTAssertEqual(readOnly.stderr, "urlcache: cannot save to \(folder): read-only file system\n")
        let cached = try urlcache(["fetch", "--config", list, "--offline"], home: home)
        XCTAssertEqual(cached.status, 0, "the cache is as it was: \(cached.stderr)")
    }
}

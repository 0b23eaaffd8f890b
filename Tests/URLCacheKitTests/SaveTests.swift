import Foundation
import URLCacheSupport
import XCTest

@testable import URLCacheKit

#if canImport(Glibc)
import Glibc
#endif

/// The rules a saved copy's name and folder follow, and the writer's
/// promises: a name from outside text stays one safe path component, and
/// nothing of the user's is overwritten.
final class SaveTests: XCTestCase {
    private let utc = TimeZone(identifier: "UTC")!
    private let day = Date(timeIntervalSince1970: 1_795_476_000)  // 2026-11-23 23:20 UTC

    func testTheNameIsTheDayTheTitleAndTheExtension() {
        XCTAssertEqual(
            SaveName.make(date: day, title: "The Horsehead Nebula", extension: "jpg", timeZone: utc),
            "2026-11-23 The Horsehead Nebula.jpg"
        )
        XCTAssertEqual(SaveName.make(date: day, title: "   ", extension: "png", timeZone: utc), "2026-11-23.png")
        // The day where the user is: 23:20 UTC is already the 24th in Tokyo.
        XCTAssertEqual(
            SaveName.make(date: day, title: "x", extension: "png", timeZone: TimeZone(identifier: "Asia/Tokyo")!),
            "2026-11-24 x.png"
        )
    }

    /// With no zone given, the day is the C library's local one (TZ, here
    /// POSIX rules that need no tzdata). The program takes this path:
    /// without FoundationInternationalization, `TimeZone.current` knows only UTC.
    func testWithNoZoneTheDayIsTheLocalOne() {
        let saved = getenv("TZ").map { String(cString: $0) }
        defer {
            if let saved { setenv("TZ", saved, 1) } else { unsetenv("TZ") }
            tzset()
        }
        setenv("TZ", "JST-9", 1)
        tzset()
        XCTAssertEqual(SaveName.make(date: day, title: "x", extension: "png"), "2026-11-24 x.png")
        setenv("TZ", "EST5", 1)
        tzset()
        XCTAssertEqual(SaveName.make(date: day, title: "x", extension: "png"), "2026-11-23 x.png")
    }

    func testOutsideTextBecomesOneHarmlessComponent() {
        XCTAssertEqual(SaveName.clean("../../etc/passwd"), "-.-etc-passwd")
        XCTAssertEqual(SaveName.clean(".hidden"), "hidden")
        XCTAssertEqual(SaveName.clean("..."), "")
        XCTAssertEqual(SaveName.clean("a\\b/c"), "a-b-c")
        XCTAssertEqual(SaveName.clean("Red\u{1B}[31m alert\u{07}\u{9B}2J"), "Red [31m alert 2J")
        XCTAssertEqual(
            SaveName.clean("evil\u{202E}gpj.exe"),
            "evil gpj.exe",
            "a bidi override cannot dress the name up"
        )
        XCTAssertEqual(SaveName.clean("tabs\tand\nnew  lines"), "tabs and new lines")
        XCTAssertEqual(SaveName.clean("ends with dots..."), "ends with dots")
        XCTAssertEqual(SaveName.clean("Ünïcødé 東京 🌍"), "Ünïcødé 東京 🌍")
        for hostile in ["..", "/", "../x", "\u{0}", "a/../../b", "....//....//"] {
            let name = SaveName.make(date: day, title: hostile, extension: "jpg", timeZone: utc)
            XCTAssertFalse(name.contains("/"), name)
            XCTAssertFalse(name.contains(".."), name)
            XCTAssertFalse(name.hasPrefix("."), name)
            XCTAssertFalse(name.unicodeScalars.contains { $0.value < 0x20 }, name)
        }
    }

    func testALongTitleIsCutBetweenCharactersWithinTheLimit() {
        for unit in ["a", "é", "東", "🌍", "👩‍👩‍👧", "e\u{301}"] {
            let title = String(repeating: unit, count: 300)
            let name = SaveName.make(date: day, title: title, extension: "webp", timeZone: utc)
            XCTAssertLessThanOrEqual(name.utf8.count, SaveName.maximumBytes, unit)
            XCTAssertGreaterThan(name.utf8.count, SaveName.maximumBytes - 30, "the room is used: \(unit)")
            XCTAssertTrue(name.hasSuffix(".webp"))
            let kept = name.dropFirst("2026-11-23 ".count).dropLast(".webp".count)
            XCTAssertEqual(String(kept), String(repeating: unit, count: kept.count), "whole characters only: \(unit)")
            XCTAssertFalse(name.utf8.contains(0), "no NUL to cut the name short")
        }
    }

    func testAPortableNameForFATSticks() {
        XCTAssertEqual(
            SaveName.portable("2026-11-24 APOD: Why? \"M<1>\" a|b*.jpg"),
            "2026-11-24 APOD- Why- -M-1-- a-b-.jpg"
        )
        XCTAssertEqual(SaveName.portable("2026-11-24 Sun.jpg"), "2026-11-24 Sun.jpg")
    }

    func testANumberGoesBeforeTheExtension() {
        XCTAssertEqual(SaveName.numbered("2026-11-23 Sun.jpg", 1), "2026-11-23 Sun.jpg")
        XCTAssertEqual(SaveName.numbered("2026-11-23 Sun.jpg", 2), "2026-11-23 Sun (2).jpg")
        XCTAssertEqual(SaveName.numbered("noextension", 3), "noextension (3)")
    }

    func testTheTitleComesFromTheFeedTheListOrTheFileName() {
        let url = URL(string: "https://example.com/daily/earth.jpg")!
        var item = HistoryItem(path: "/x", firstSeen: day, metadata: nil, isCurrent: true)
        XCTAssertEqual(SaveName.title(item, of: URLEntry(url: url)), "earth")
        XCTAssertEqual(SaveName.title(item, of: URLEntry(url: url, title: "Blue Marble")), "Blue Marble")
        item.metadata = CacheRecord(url: url.absoluteString)
        item.metadata?.caption.title = "Hurricane Nine"
        XCTAssertEqual(SaveName.title(item, of: URLEntry(url: url, title: "Blue Marble")), "Hurricane Nine")
        XCTAssertEqual(
            SaveName.title(
                HistoryItem(path: "/x", firstSeen: day, metadata: nil, isCurrent: true),
                of: URLEntry(url: URL(string: "https://example.com/")!)
            ),
            "example.com"
        )
    }

    func testThePicturesFolderIsReadAsXdgUserDirReadsIt() {
        let env = ["HOME": "/home/ada"]
        XCTAssertEqual(PicturesFolder.resolve(userDirs: nil, environment: env), "/home/ada/Pictures")
        XCTAssertEqual(
            PicturesFolder.resolve(userDirs: "# comment\nXDG_PICTURES_DIR=\"$HOME/Bilder\"\n", environment: env),
            "/home/ada/Bilder"
        )
        XCTAssertEqual(
            PicturesFolder.resolve(userDirs: "XDG_PICTURES_DIR=\"/data/My \\\"Photos\\\"/\"", environment: env),
            "/data/My \"Photos\""
        )
        // The file wins over the environment, as the script sources it last.
        XCTAssertEqual(
            PicturesFolder.resolve(
                userDirs: "XDG_PICTURES_DIR=\"$HOME/Fotos\"",
                environment: env.merging(["XDG_PICTURES_DIR": "/elsewhere"]) { $1 }
            ),
            "/home/ada/Fotos"
        )
        XCTAssertEqual(
            PicturesFolder.resolve(
                userDirs: "XDG_MUSIC_DIR=\"$HOME/M\"",
                environment: env.merging(["XDG_PICTURES_DIR": "/elsewhere"]) { $1 }
            ),
            "/elsewhere"
        )
        // Set to the home itself: "disabled" in the spec; relative: invalid.
        XCTAssertEqual(
            PicturesFolder.resolve(userDirs: "XDG_PICTURES_DIR=\"$HOME/\"", environment: env),
            "/home/ada/Pictures"
        )
        XCTAssertEqual(
            PicturesFolder.resolve(userDirs: "XDG_PICTURES_DIR=\"Pictures\"", environment: env),
            "/home/ada/Pictures"
        )
    }

    /// Where xdg-user-dirs is installed, its own script agrees with us.
    func testTheFolderAgreesWithXdgUserDir() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/xdg-user-dir") else {
            throw XCTSkip("xdg-user-dirs is not installed")
        }
        let config = NSTemporaryDirectory() + "save-xdg-\(getpid())"
        try FileManager.default.createDirectory(atPath: config, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: config) }
        try "XDG_PICTURES_DIR=\"$HOME/Mes images\"\n".write(
            toFile: config + "/user-dirs.dirs",
            atomically: true,
            encoding: .utf8
        )
        let env = ["HOME": "/home/ada", "XDG_CONFIG_HOME": config]
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/xdg-user-dir")
        process.arguments = ["PICTURES"]
        process.environment = env
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        process.waitUntilExit()
        let theirs = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            .trimmingCharacters(in: .newlines)
        XCTAssertEqual(PicturesFolder.locate(environment: env), theirs + "/urlcache")
    }

    /// A copy never overwrites: the same bytes are found, other bytes under
    /// the name make the copy " (2)", and a link planted under the name is
    /// neither followed nor replaced. No temporary file is left.
    func testACopyNeverOverwritesAndLeavesNothingBehind() throws {
        let folder = NSTemporaryDirectory() + "save-copy-\(getpid())/Pictures/urlcache"
        defer { try? FileManager.default.removeItem(atPath: Posix.parent(of: Posix.parent(of: folder))) }
        let picture: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0] + Array(repeating: 7, count: 5000)
        let first = try SavedCopy.save(picture, to: folder, name: "2026-11-23 Sun.jpg")
        XCTAssertEqual(first, .saved(folder + "/2026-11-23 Sun.jpg"))
        XCTAssertEqual(FileManager.default.contents(atPath: first.path).map(Array.init), picture)
        XCTAssertEqual(try SavedCopy.save(picture, to: folder, name: "2026-11-23 Sun.jpg"), .alreadyThere(first.path))
        var other = picture
        other[100] = 8
        XCTAssertEqual(
            try SavedCopy.save(other, to: folder, name: "2026-11-23 Sun.jpg"),
            .saved(folder + "/2026-11-23 Sun (2).jpg")
        )
        XCTAssertEqual(
            FileManager.default.contents(atPath: first.path).map(Array.init),
            picture,
            "the first copy untouched"
        )
        let target = Posix.parent(of: folder) + "/target"
        XCTAssertEqual(symlink(target, folder + "/2026-11-23 Moon.jpg"), 0)
        XCTAssertEqual(
            try SavedCopy.save(picture, to: folder, name: "2026-11-23 Moon.jpg"),
            .saved(folder + "/2026-11-23 Moon (2).jpg")
        )
        XCTAssertFalse(FileManager.default.fileExists(atPath: target), "the link was not followed")
        // A FIFO under the name is not read (it would block): the copy goes beside it.
        XCTAssertEqual(mkfifo(folder + "/2026-11-23 Pipe.jpg", 0o600), 0)
        XCTAssertEqual(
            try SavedCopy.save(picture, to: folder, name: "2026-11-23 Pipe.jpg"),
            .saved(folder + "/2026-11-23 Pipe (2).jpg")
        )
        // A name from elsewhere is cleaned again: it stays in the folder.
        XCTAssertEqual(try SavedCopy.save(picture, to: folder, name: "../escape.jpg"), .saved(folder + "/-escape.jpg"))
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        XCTAssertEqual(
            names,
            [
                "-escape.jpg", "2026-11-23 Moon (2).jpg", "2026-11-23 Moon.jpg", "2026-11-23 Pipe (2).jpg",
                "2026-11-23 Pipe.jpg", "2026-11-23 Sun (2).jpg", "2026-11-23 Sun.jpg",
            ]
        )
    }

    func testAFileWhereTheFolderShouldBeIsNamed() throws {
        let file = NSTemporaryDirectory() + "save-file-\(getpid())"
        XCTAssertTrue(FileManager.default.createFile(atPath: file, contents: Data([1])))
        defer { try? FileManager.default.removeItem(atPath: file) }
        XCTAssertThrowsError(try SavedCopy.save([1, 2], to: file, name: "x.png")) { error in
            XCTAssertEqual(error as? SaveError, .notAFolder(path: file))
            XCTAssertEqual((error as? SaveError)?.description, "cannot save into \(file): it is not a folder")
        }
    }
}

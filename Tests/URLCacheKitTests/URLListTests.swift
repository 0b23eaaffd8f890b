import Foundation
import URLCacheSupport
import URLCacheTestSupport
import XCTest

@testable import URLCacheKit

final class URLListTests: XCTestCase {
    func testBuiltInListIsTheResourcesFile() throws {
        let path = Fixtures.resources.appendingPathComponent("URLCache.plist").path
        let file = try URLList.load(path: path)
        XCTAssertEqual(try ConfigLocator.builtIn().entries, file.entries)
        XCTAssertEqual(Array(PackageResources.URLCache_plist), Array(try Data(contentsOf: URL(fileURLWithPath: path))))
    }

    func testBuiltInListHoldsLiveImagesIncludingAPNG() throws {
        let list = try ConfigLocator.builtIn()
        XCTAssertGreaterThanOrEqual(list.entries.count, 3)
        XCTAssertTrue(list.entries.contains { $0.url.absoluteString.contains("GOES19") })
        XCTAssertTrue(list.entries.contains { $0.url.pathExtension == "png" })
        XCTAssertTrue(list.entries.allSatisfy { $0.url.scheme == "https" })
    }

    func testTheOriginalShapeAnArrayOfStrings() throws {
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><array><string>http://www.osei.noaa.gov/IOD/OSEIiod.jpg</string></array></plist>
            """
        let list = try URLList.parse(Data(xml.utf8), source: "x")
        XCTAssertEqual(list.entries, [URLEntry(url: URL(string: "http://www.osei.noaa.gov/IOD/OSEIiod.jpg")!)])
        XCTAssertEqual(list.entries[0].displayName, "www.osei.noaa.gov/OSEIiod.jpg")
    }

    func testBinaryPlistWithDictsAndSettings() throws {
        let root: [String: Any] = [
            "refreshInterval": 3600,
            "images": [["url": "https://a.example/x.png", "title": "X"], "https://b.example/y.jpg"],
        ]
        let data = try PropertyListSerialization.data(fromPropertyList: root, format: .binary, options: 0)
        let list = try URLList.parse(data, source: "bin")
        XCTAssertEqual(list.entries.map(\.title), ["X", nil])
        XCTAssertEqual(list.settings.refreshInterval, 3600)
    }

    func testTheSizeSettingIsLargestOrScreen() throws {
        func parse(_ value: String) throws -> URLList {
            try URLList.parse(
                Data(
                    "<plist><dict><key>size</key><string>\(value)</string><key>images</key><array><string>https://a.example/x.png</string></array></dict></plist>"
                        .utf8
                ),
                source: "f.plist"
            )
        }
        XCTAssertEqual(try parse("screen").settings.size, .screen)
        XCTAssertEqual(try parse("largest").settings.size, .largest)
        XCTAssertThrowsError(try parse("huge")) { error in
            XCTAssertTrue("\(error)".contains("expected \"largest\" or \"screen\""), "\(error)")
        }
    }

    func testTitlesAreMadeTerminalSafe() {
        let entry = URLEntry(url: URL(string: "https://a.example/x.png")!, title: "Evil\u{1B}[2J\u{9B}title")
        XCTAssertFalse(entry.displayName.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x9B })
        XCTAssertTrue(entry.displayName.hasPrefix("Evil"))
    }

    func testErrorsNameTheFile() {
        XCTAssertThrowsError(try URLList.parse(Data("not a plist at all {".utf8), source: "/tmp/f.plist")) { error in
            XCTAssertEqual(
                (error as? ConfigError)?.description,
                "URL list /tmp/f.plist is not a property list (XML or binary plist expected)"
            )
        }
    }

    private func parseError(_ text: String) -> String? {
        do {
            _ = try URLList.parse(Data(text.utf8), source: "f.plist")
            return nil
        } catch {
            return error.description
        }
    }

    /// A list that does not parse says where, and what is wrong there.
    func testAnXMLFaultHasItsLineAndColumn() {
        XCTAssertEqual(
            parseError("<plist><array><string>unclosed"),
            "URL list f.plist, line 1, column 15: <string> is never closed"
        )
        XCTAssertEqual(
            parseError("<plist><dict><key>a</key>\n  <integer>1</intger></dict></plist>"),
            "URL list f.plist, line 2, column 13: </intger> is not a plist element (did you mean </integer>?)"
        )
        XCTAssertEqual(
            parseError("<plist><dict>\n<key>keep</key><integer>3</string></dict></plist>"),
            "URL list f.plist, line 2, column 26: </string> closes <integer>, opened at line 2, column 16"
        )
        XCTAssertEqual(
            parseError(
                "<plist><dict><key>refreshInterval</key><integer>123456789012345678901</integer></dict></plist>"
            ),
            "URL list f.plist, line 1, column 40: 123456789012345678901 is out of range at refreshInterval"
        )
        XCTAssertEqual(
            parseError("<plist><array>\n<string>http://a/b.jpg?x=1&y=2</string></array></plist>"),
            "URL list f.plist, line 2, column 27: a bare & (write &amp; for & in a URL)"
        )
        XCTAssertEqual(
            parseError("<plist><dict><key>keep</key><integer>seven</integer></dict></plist>"),
            "URL list f.plist, line 1, column 29: \"seven\" is not an integer at keep"
        )
    }

    /// Unknown keys are named once, with the key that was probably meant.
    func testUnknownKeysAreWarnedOfWithASuggestion() throws {
        let list = try URLList.parse(
            Data(
                """
                <plist><dict><key>refreshIntervall</key><integer>5</integer><key>colour</key><string>x</string>
                <key>images</key><array><dict><key>titel</key><string>x</string><key>fead</key><string>y</string>
                <key>url</key><string>http://a/b.jpg</string></dict></array></dict></plist>
                """.utf8
            ),
            source: "f.plist"
        )
        XCTAssertEqual(
            list.warnings,
            [
                "URL list f.plist, settings: unknown key \"colour\" (ignored)",
                "URL list f.plist, settings: unknown key \"refreshIntervall\"; did you mean \"refreshInterval\"?",
                "URL list f.plist, entry 1: unknown key \"fead\"; did you mean \"feed\"?",
                "URL list f.plist, entry 1: unknown key \"titel\"; did you mean \"title\"?",
            ]
        )
        XCTAssertNil(list.settings.refreshInterval, "a misspelt setting is not guessed at")
    }

    /// One entry that cannot be used keeps its place and its error; the others work.
    func testABadEntryDoesNotStopTheList() throws {
        let list = try URLList.parse(
            Data(
                """
                <plist><array><string>http://a/1.jpg</string><string>not a url</string>
                <string>http://a:99999/3.jpg</string><string>http://a/4.jpg</string></array></plist>
                """.utf8
            ),
            source: "f.plist"
        )
        XCTAssertEqual(list.entries.count, 4)
        XCTAssertEqual(try list.entry(4).url.absoluteString, "http://a/4.jpg", "numbers stay as in the file")
        XCTAssertThrowsError(try list.entry(2)) { error in
            XCTAssertEqual(
                (error as? ConfigError)?.description,
                "URL list f.plist, entry 2: \"not a url\" is not a URL"
            )
        }
        XCTAssertThrowsError(try list.entry(3)) { error in
            XCTAssertEqual(
                (error as? ConfigError)?.description,
                "URL list f.plist, entry 3: port 99999 in \"http://a:99999/3.jpg\" is out of range (1–65535)"
            )
        }
        XCTAssertNotNil(list.entries[1].problem)
    }

    func testSuggestionsAreNearWordsOnly() {
        XCTAssertEqual(Suggestion.nearest(to: "fecth", among: ["show", "fetch", "render"]), "fetch")
        XCTAssertEqual(Suggestion.nearest(to: "lsit", among: ["list", "history"]), "list")
        XCTAssertEqual(Suggestion.nearest(to: "KEEP", among: ["keep"]), "keep")
        XCTAssertNil(Suggestion.nearest(to: "wallpaper", among: ["show", "fetch", "render", "list"]))
    }

    func testCacheNamesComeFromTheWholeURL() {
        let cache = DiskCache(directory: "/c")
        let a = cache.paths(for: URL(string: "https://a.example/latest.jpg")!)
        let b = cache.paths(for: URL(string: "https://b.example/latest.jpg")!)
        XCTAssertNotEqual(a.image, b.image, "two latest.jpg from different hosts do not collide")
        XCTAssertTrue(a.image.hasPrefix("/c/"))
        let hostile = cache.paths(for: URL(string: "https://a.example/../../etc/passwd")!)
        XCTAssertFalse(hostile.image.contains(".."))
    }

    func testByteCounts() {
        XCTAssertEqual(ByteCount.format(64 << 20), "64 MiB")
        XCTAssertEqual(ByteCount.format(1536), "1.5 KiB")
        XCTAssertEqual(ByteCount.format(1), "1 byte")
    }

    func testBundledPictureIsForTheBuiltInListsFirstImageOnly() throws {
        let first = try XCTUnwrap(ConfigLocator.builtIn().entries.first?.url)
        let bytes = try XCTUnwrap(BundledImage.bytes(for: first))
        XCTAssertLessThanOrEqual(bytes.count, 250_000)
        XCTAssertEqual(Array(bytes.prefix(3)), [0xFF, 0xD8, 0xFF], "a JPEG")
        for other in try ConfigLocator.builtIn().entries.dropFirst() {
            XCTAssertNil(BundledImage.bytes(for: other.url))
        }
        XCTAssertNil(BundledImage.bytes(for: URL(string: "https://example.com/x.jpg")!))
    }
}

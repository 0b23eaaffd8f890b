import Foundation
import XCTest
import URLCacheTestSupport
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

    func testTitlesAreMadeTerminalSafe() {
        let entry = URLEntry(url: URL(string: "https://a.example/x.png")!, title: "Evil\u{1B}[2J\u{9B}title")
        XCTAssertFalse(entry.displayName.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x9B })
        XCTAssertTrue(entry.displayName.hasPrefix("Evil"))
    }

    func testErrorsNameTheFile() {
        XCTAssertThrowsError(try URLList.parse(Data("<plist><array><string>unclosed".utf8), source: "/tmp/f.plist")) { error in
            XCTAssertEqual((error as? ConfigError)?.description,
                           "URL list /tmp/f.plist is not a property list (XML or binary plist expected)")
        }
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

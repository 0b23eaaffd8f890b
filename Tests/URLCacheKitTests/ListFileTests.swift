import Foundation
import XCTest

@testable import URLCacheKit

/// The person's own list, edited by `add` and `remove`: what it held
/// stays, in its place and its format; the catalogue's entries are sound.
final class ListFileTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("urlcache-listfile-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: directory) }

    private func root(_ path: String) throws -> Any {
        try PropertyListSerialization.propertyList(from: try Data(contentsOf: URL(fileURLWithPath: path)), format: nil)
    }

    func testSettingsUnknownKeysOrderAndFormatAreKept() throws {
        let path = directory.appendingPathComponent("list.plist").path
        let list: [String: Any] = [
            "keep": 3, "mine": "a key urlcache does not know",
            "images": [["url": "https://a.example/1.jpg", "title": "One", "extra": 1], "https://b.example/2.jpg"],
        ]
        try PropertyListSerialization.data(fromPropertyList: list, format: .binary, options: 0)
            .write(to: URL(fileURLWithPath: path))
        let entry = URLEntry(url: URL(string: "https://c.example/feed")!, title: "Three", feed: FeedSpec(select: "a.b"))
        let added = try ListFile.add(entry, to: path, seed: Data())
        XCTAssertEqual(added.number, 3)
        XCTAssertFalse(added.already)
        var format = PropertyListSerialization.PropertyListFormat.xml
        _ = try PropertyListSerialization.propertyList(
            from: try Data(contentsOf: URL(fileURLWithPath: path)),
            format: &format
        )
        XCTAssertEqual(format, .binary, "binary stays binary")
        let dict = try XCTUnwrap(try root(path) as? [String: Any])
        XCTAssertEqual(dict["keep"] as? Int, 3)
        XCTAssertEqual(dict["mine"] as? String, "a key urlcache does not know")
        let images = try XCTUnwrap(dict["images"] as? [Any])
        XCTAssertEqual((images[0] as? [String: Any])?["extra"] as? Int, 1, "an entry's unknown key too")
        XCTAssertEqual(images[1] as? String, "https://b.example/2.jpg")
        XCTAssertEqual(
            images[2] as? [String: String],
            ["feed": "https://c.example/feed", "title": "Three", "select": "a.b"]
        )
        XCTAssertTrue(try ListFile.add(entry, to: path, seed: Data()).already, "the same address is not added twice")
        let removed = try ListFile.remove(1, from: path)
        XCTAssertEqual(removed.title, "One")
        XCTAssertEqual(try URLList.load(path: path).entries.map(\.url.host), ["b.example", "c.example"])
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: directory.path),
            ["list.plist"],
            "replaced in one step: no temporary file left"
        )
    }

    func testAListOfStringsStaysOneWhereAStringSaysAll() throws {
        let path = directory.appendingPathComponent("sub/URLCache.plist").path
        let seed = try PropertyListSerialization.data(
            fromPropertyList: ["https://a.example/1.jpg"],
            format: .xml,
            options: 0
        )
        XCTAssertEqual(
            try ListFile.add(URLEntry(url: URL(string: "https://b.example/2.jpg")!), to: path, seed: seed).number,
            2
        )
        XCTAssertEqual(
            try root(path) as? [String],
            ["https://a.example/1.jpg", "https://b.example/2.jpg"],
            "the original's shape"
        )
        XCTAssertThrowsError(try ListFile.remove(3, from: path))
        _ = try ListFile.remove(1, from: path)
        XCTAssertThrowsError(try ListFile.remove(1, from: path), "the last entry stays: a list holds an image")
        XCTAssertEqual(try root(path) as? [String], ["https://b.example/2.jpg"])
    }

    func testTheCatalogueIsSound() throws {
        let names = Catalogue.sources.map(\.name)
        XCTAssertGreaterThanOrEqual(names.count, 12)
        XCTAssertEqual(Set(names).count, names.count, "names are unique")
        for source in Catalogue.sources {
            let entry = try XCTUnwrap(source.entry(environment: [:]), source.name)
            XCTAssertNoThrow(try ImageURL.validate(entry.url.absoluteString, index: 1, source: source.name))
            XCTAssertFalse(entry.url.absoluteString.contains("{"), "\(source.name): filled in")
            XCTAssertEqual(Catalogue.source(named: source.name.uppercased()), source)
        }
        XCTAssertEqual(Catalogue.bingMarket(["LANG": "de_AT.UTF-8"]), "de-AT")
        XCTAssertEqual(Catalogue.bingMarket(["LC_ALL": "fr_CA.UTF-8@euro", "LANG": "de_AT.UTF-8"]), "fr-CA")
        XCTAssertEqual(Catalogue.bingMarket(["LANG": "C.UTF-8"]), "", "no market: Bing picks by address")
        XCTAssertEqual(Catalogue.nasaKey(["NASA_API_KEY": "abc123"]), "abc123")
        XCTAssertEqual(Catalogue.nasaKey(["NASA_API_KEY": "a&b=c"]), "DEMO_KEY", "nothing that would change the query")
    }
}

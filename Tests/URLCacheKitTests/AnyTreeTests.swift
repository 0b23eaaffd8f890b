import Dispatch
import Foundation
import Synchronization
import URLCacheSupport
import URLCacheTestSupport
import XCTest

@testable import URLCacheKit

/// Plists and JSON read without swift-corelibs-foundation give the trees
/// Foundation's own readers give; the test bundle links Foundation, which
/// is the oracle.
final class AnyTreeTests: XCTestCase {
    private static let plist = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0"><dict>
        <key>images</key><array><string>https://example.org/a.jpg</string>
        <dict><key>feed</key><string>https://example.org/rss</string><key>title</key><string>Ünïcode &amp; more</string></dict>
        </array>
        <key>interval</key><integer>3600</integer><key>fraction</key><real>2.5</real><key>whole</key><real>3.0</real>
        <key>on</key><true/><key>off</key><false/><key>when</key><date>2026-11-28T18:00:00Z</date>
        <key>blob</key><data>AAECAw==</data><key>empty</key><array/><key>nothing</key><dict/>
        <key>onNewImage</key><array><string>feh</string><string>--bg-fill</string></array>
        </dict></plist>
        """

    func testPlistsReadAsFoundationReadsThem() throws {
        let xml = Data(AnyTreeTests.plist.utf8)
        let theirs = try PropertyListSerialization.propertyList(from: xml, options: [], format: nil)
        let binary = try PropertyListSerialization.data(fromPropertyList: theirs, format: .binary, options: 0)
        let openStep = Data(
            #"{ images = ( "https://example.org/a.jpg", { url = "https://example.org/b.png"; } ); }"#.utf8
        )
        let builtIn = try Data(
            contentsOf: Fixtures.packageRoot.appendingPathComponent("Sources/URLCacheKit/Config/URLCache.plist")
        )
        for (name, data, format) in [
            ("XML", xml, AnyTree.PlistFormat.xml), ("binary", binary, .binary), ("OpenStep", openStep, .openStep),
            ("built-in", builtIn, .xml),
        ] {
            let (ours, read) = try AnyTree.plist(data)
            XCTAssertEqual(read, format, name)
            let expected = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
            XCTAssertTrue(AnyTreeTests.same(ours, expected), "\(name): \(ours) against \(expected)")
        }
    }

    /// Written back in its own format, a tree reads as it was.
    func testAPlistWrittenBackReadsTheSame() throws {
        let (root, _) = try AnyTree.plist(Data(AnyTreeTests.plist.utf8))
        for format in [AnyTree.PlistFormat.xml, .binary] {
            let data = try XCTUnwrap(AnyTree.plistData(root, format: format))
            var written = PropertyListSerialization.PropertyListFormat.openStep
            let back = try PropertyListSerialization.propertyList(from: data, options: [], format: &written)
            XCTAssertEqual(written == .binary, format == .binary)
            XCTAssertTrue(AnyTreeTests.same(root, back), "\(format)")
        }
        XCTAssertNil(AnyTree.plistData(["url": URL(fileURLWithPath: "/")], format: .xml), "no URL in a plist")
    }

    func testJSONReadsAsJSONSerializationReadsIt() throws {
        let feeds = Fixtures.root.appendingPathComponent("feeds")
        var documents = try FileManager.default.contentsOfDirectory(atPath: feeds.path).filter { $0.hasSuffix(".json") }
            .map { try Data(contentsOf: feeds.appendingPathComponent($0)) }
        documents += [
            #""a bare string""#, "42", "-0.5", "true", "null", #"[1, 2.25, "x", null, {"a": [false]}]"#,
            #"{"hdurl": "https:\/\/apod.nasa.gov\/a.jpg", "title": "\u00e9t\u00e9 \ud83c\udf0c", "n": 1e3}"#,
        ].map { Data($0.utf8) }
        XCTAssertGreaterThan(documents.count, 10)
        for data in documents {
            let ours = try AnyTree.json(data)
            let theirs = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
            XCTAssertTrue(AnyTreeTests.same(ours, theirs), "\(ours) against \(theirs)")
        }
        XCTAssertThrowsError(try AnyTree.json(Data(#"{"a": }"#.utf8)))
        XCTAssertThrowsError(try AnyTree.json(Data("[1,".utf8)))
    }

    /// The same tree, Foundation's numbers (NSNumber) compared by value.
    private static func same(_ a: Any, _ b: Any) -> Bool {
        switch (a, b) {
        case let (x as String, y as String): return x == y
        case let (x as Date, y as Date): return x == y
        case let (x as Data, y as Data): return x == y
        case (is AnyTree.Null, is NSNull): return true
        case let (x as [String: Any], y as [String: Any]):
            return x.keys.sorted() == y.keys.sorted()
                && x.allSatisfy { key, value in y[key].map { same(value, $0) } == true }
        case let (x as [Any], y as [Any]):
            return x.count == y.count && zip(x, y).allSatisfy { same($0, $1) }
        default:
            guard !(a is String), !(b is String), let x = a as? NSNumber, let y = b as? NSNumber else { return false }
            return x.doubleValue == y.doubleValue
        }
    }
}

extension AnyTreeTests {
    /// A feed nested as deep as JSONFeedReader lets through (500) reads on
    /// a quarter of the stack the screen's loader thread has (4 MiB).
    func testTheDeepestFeedReadsOnAQuarterOfTheLoadersStack() throws {
        let depth = JSONText.maxNesting
        let document = Data((String(repeating: "[", count: depth) + "1" + String(repeating: "]", count: depth)).utf8)
        let read = Mutex<Bool?>(nil)
        let done = DispatchSemaphore(value: 0)
        XCTAssertTrue(
            DetachedThread.start(stackSize: 1 << 20) {
                let ok = (try? AnyTree.json(document)) != nil
                read.withLock { $0 = ok }
                done.signal()
            }
        )
        done.wait()
        XCTAssertEqual(read.withLock { $0 }, true)
    }
}

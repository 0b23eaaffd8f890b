import Foundation
import URLCacheSupport
import XCTest

/// Paths are cut by our own rule: Foundation's trapped on "a".
final class PathTests: XCTestCase {
    func testParentAndNameOfEveryShape() {
        let parents = [
            "c": "", "ab": "", "c/": "", "./c": ".", "c/d": "c", "/a/b": "/a", "/a": "/", "/": "/",
            "/a/b//": "/a", "a//b": "a", "": "",
        ]
        for (path, parent) in parents { XCTAssertEqual(Posix.parent(of: path), parent, path) }
        let names = ["c": "c", "/a/b.img": "b.img", "a/b/": "b", "/": "/", "": ""]
        for (path, name) in names { XCTAssertEqual(Posix.name(of: path), name, path) }
    }
}

import Foundation
import XCTest

@testable import BlockArt

/// The shared-memory objects a screen stages for kitty: forgotten once
/// kitty has read them, removed when it has not after the patience, and
/// all removed when asked with none.
final class StagedObjectsTests: XCTestCase {
    func testObjectsKittyNeverReadAreRemovedAfterThePatience() throws {
        let read = try KittyMedium.stage([1, 2, 3])
        let unread = try KittyMedium.stage([4, 5, 6])
        defer { [read, unread].forEach { KittyMedium.discard($0) } }
        var staged = StagedObjects()
        let start = ContinuousClock.now
        staged.add(read, at: start)
        staged.add(unread, at: start)
        staged.add(nil, at: start)
        KittyMedium.discard(read)  // as kitty does once it has read it
        XCTAssertEqual(staged.sweep(now: start + .seconds(1)), 0, "young: kitty may still read it")
        XCTAssertTrue(KittyMedium.exists(unread))
        XCTAssertEqual(staged.sweep(now: start + StagedObjects.patience), 1)
        XCTAssertFalse(KittyMedium.exists(unread), "never read: removed")
        XCTAssertEqual(staged.sweep(now: start + .seconds(600)), 0, "each is looked at until it goes, then forgotten")
    }

    func testClosingRemovesEveryObjectLeft() throws {
        let name = try KittyMedium.stage([7])
        defer { KittyMedium.discard(name) }
        var staged = StagedObjects()
        staged.add(name, at: .now)
        XCTAssertEqual(staged.sweep(now: .now, patience: .zero), 1)
        XCTAssertFalse(KittyMedium.exists(name))
    }
}

import Foundation
import XCTest

@testable import URLCacheKit
@testable import URLCacheScreen

/// `a`: the catalogue in a box, a source picked with the keys, or none.
final class CatalogueLogicTests: XCTestCase {
    let entries = [URLEntry(url: URL(string: "https://a.example/one.jpg")!, title: "One")]

    private func press(_ key: Key, _ state: inout ScreenState) -> [Effect] {
        let layout = Layout(columns: 100, rows: 30)
        return ScreenLogic.handle(
            .key(key),
            &state,
            toolbar: Toolbar(width: 100),
            toolbarRow: 29,
            box: layout.flatMap(state.box(in:))
        )
    }

    func testTheMarkMovesWithinTheCatalogueAndEnterAddsTheMarkedSource() {
        var state = ScreenState(entries: entries)
        XCTAssertEqual(press(.character("a"), &state), [])
        XCTAssertEqual(state.overlay, .catalogue(chosen: 0))
        XCTAssertEqual(press(.up, &state), [])
        XCTAssertEqual(state.overlay, .catalogue(chosen: 0), "not above the first")
        _ = press(.character("j"), &state)
        _ = press(.down, &state)
        XCTAssertEqual(state.overlay, .catalogue(chosen: 2))
        let box = Layout(columns: 100, rows: 30).flatMap(state.box(in:))
        XCTAssertEqual(box?.heading, "Add a source")
        XCTAssertTrue(box?.lines[2].hasPrefix("▸ " + Catalogue.sources[2].name) == true, "\(box?.lines ?? [])")
        for _ in 0..<40 { _ = press(.pageDown, &state) }
        XCTAssertEqual(state.overlay, .catalogue(chosen: Catalogue.sources.count - 1), "not below the last")
        XCTAssertEqual(press(.enter, &state), [.addSource(Catalogue.sources.last!.name)])
        XCTAssertNil(state.overlay)
    }

    func testEscapeLeavesEverythingAsItWas() {
        var state = ScreenState(entries: entries)
        let before = state
        _ = press(.character("a"), &state)
        _ = press(.down, &state)
        XCTAssertEqual(press(.escape, &state), [])
        XCTAssertNil(state.overlay)
        XCTAssertEqual(state.entries, before.entries)
        XCTAssertEqual(state.index, before.index)
    }

    func testAnAddedSourceIsGoneToAndChecked() {
        var state = ScreenState(entries: entries)
        let added = URLList(
            entries: entries + [URLEntry(url: URL(string: "https://b.example/feed")!, title: "Two")],
            source: "list.plist"
        )
        let effects = ScreenLogic.sourceAdded(
            added,
            number: 2,
            rules: Array(repeating: FreshnessRule(mode: .fixed, refreshInterval: 86_400), count: 2),
            &state
        )
        XCTAssertEqual(effects, [.display(force: false, asked: true)])
        XCTAssertEqual(state.index, 1)
        XCTAssertEqual(state.entry.title, "Two")
        ScreenLogic.sourceNotAdded("could not add x: disk full", &state)
        XCTAssertEqual(state.status, .error("could not add x: disk full"))
    }
}

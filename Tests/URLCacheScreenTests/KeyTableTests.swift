import XCTest

@testable import URLCacheScreen

/// The key table is what the help writes, what the toolbar names and
/// what the logic looks up: one place, so they cannot disagree.
final class KeyTableTests: XCTestCase {
    func testTheHelpIsWrittenFromTheTable() {
        XCTAssertEqual(
            KeyTable.helpLines,
            [
                "d, Enter   Display Image", "r          re-check now", "c          Clear Cache",
                "← → / p n  previous / next image", "Esc        cancel a download", "f          pixels / block art",
                "[ ]        older / newer kept image", "g G        gallery: every entry / this one's kept images",
                "i          about this image", "a          add a source from the catalogue",
                "+ - 0      zoom in / out / fit (the wheel too)",
                "h j k l    pan a zoomed view (Shift+arrows, a drag)", "space .    pause / step an animation",
                "s          save a copy (~/Pictures/urlcache)", "j k        scroll a long box (PgUp PgDn too)",
                "o          offline on / off", "?          this help", "q          quit",
                "Ctrl-Z     suspend (fg brings it back)",
            ]
        )
    }

    func testNoKeyMeansTwoThingsInOneScope() {
        var seen: [String: Command] = [:]
        for binding in KeyTable.bindings {
            let name = "\(binding.key) in \(binding.scope)"
            XCTAssertNil(seen[name], "\(name) is bound twice")
            seen[name] = binding.command
        }
    }

    func testEveryRowsKeysAreBoundAndEveryButtonNamesItsKey() {
        for row in KeyTable.rows { XCTAssertFalse(row.bindings.isEmpty, row.keys) }
        XCTAssertEqual(
            Button.allCases.map(\.label),
            ["Display Image (d)", "Clear Cache (c)", "← Prev", "Next →", "Re-check (r)", "Help (?)", "Quit (q)"]
        )
        XCTAssertEqual(Button.allCases.map(\.shortLabel), ["Display(d)", "Clear(c)", "←", "→", "r", "?", "q"])
        for button in Button.allCases {
            let keys = KeyTable.bindings.filter { $0.command == button.command && $0.scope == .screen }
            XCTAssertFalse(keys.isEmpty, "\(button) has a key")
        }
    }

    func testHIsHelpAtFitAndPansOnceZoomed() {
        XCTAssertEqual(KeyTable.command(for: .character("h"), in: .view, .screen), .help)
        XCTAssertEqual(KeyTable.command(for: .character("h"), in: .zoomed, .view, .screen), .panLeft)
        XCTAssertEqual(KeyTable.command(for: .character(" "), in: .box), nil, "an alert's Space is its OK")
        XCTAssertEqual(KeyTable.command(for: .character(" "), in: .box, .reading), .pageDown)
    }
}

import Foundation
import URLCacheKit
import XCTest

@testable import URLCacheScreen

/// A box over the screen: its scrolling and its buttons, from one layout.
final class BoxTests: XCTestCase {
    private let layout = Layout(columns: 80, rows: 20)!
    private var entries: [URLEntry] { [URLEntry(url: URL(string: "http://a/b.jpg")!)] }

    private func caption(lines count: Int) -> ScreenState.Caption? {
        ScreenState.Caption(
            title: "T",
            credit: nil,
            description: (1...count).map { "line \($0)" }.joined(separator: "\n"),
            link: nil
        )
    }

    func testALongDescriptionScrollsWithinItsBounds() {
        let about = caption(lines: 40)
        let top = Box.make(.about, caption: about, layout: layout, scroll: 0)
        XCTAssertEqual(top.lines.count, 13, "rows less the heading, borders and the hint")
        XCTAssertEqual(top.total, 41, "a blank line after the heading, then each line of the text")
        XCTAssertEqual(top.scrollHint, "lines 1–13 of 41 · j k PgUp PgDn")
        XCTAssertEqual(top.lines[1], "line 1")
        let far = Box.make(.about, caption: about, layout: layout, scroll: 500)
        XCTAssertEqual(far.first, 28, "clamped to the last page")
        XCTAssertEqual(far.lines.last, "line 40")

        var state = ScreenState(entries: entries)
        state.caption = about
        state.overlay = .about
        let toolbar = Toolbar(width: 80)
        _ = ScreenLogic.handle(.key(.down), &state, toolbar: toolbar, toolbarRow: 19, box: top)
        XCTAssertEqual(state.boxScroll, 1)
        _ = ScreenLogic.handle(.key(.pageUp), &state, toolbar: toolbar, toolbarRow: 19, box: top)
        XCTAssertEqual(state.boxScroll, 0, "never above the top")
        XCTAssertEqual(state.overlay, .about, "scrolling keeps the box open")
        _ = ScreenLogic.handle(.key(.character("q")), &state, toolbar: toolbar, toolbarRow: 19, box: top)
        XCTAssertNil(state.overlay)
    }

    func testAShortTextHasNoHintAndAQuestionHasTwoButtons() {
        let question = Box.make(.confirmClear, caption: nil, layout: layout, scroll: 3)
        XCTAssertNil(question.scrollHint)
        XCTAssertEqual(question.buttons.map(\.label), ["[ OK (y) ]", "[ Cancel (n) ]"])
        let ok = question.buttons[0]
        let cancel = question.buttons[1]
        XCTAssertEqual(cancel.column, ok.column + ok.label.count + 2)
        XCTAssertEqual(question.key(atRow: cancel.row, column: cancel.column + 3), .character("n"))
        XCTAssertNil(question.key(atRow: cancel.row - 1, column: cancel.column + 3))

        var state = ScreenState(entries: entries)
        state.overlay = .confirmClear
        let effects = ScreenLogic.handle(
            .click(row: ok.row, column: ok.column + 1),
            &state,
            toolbar: Toolbar(width: 80),
            toolbarRow: 19,
            box: question
        )
        XCTAssertEqual(effects, [.clearCache], "OK clicked is y pressed")
        state.overlay = .confirmClear
        XCTAssertEqual(
            ScreenLogic.handle(.key(.character("q")), &state, toolbar: Toolbar(width: 80), toolbarRow: 19),
            []
        )
        XCTAssertNil(state.overlay, "q cancels the question")
    }

    func testFSaysWhenThereAreNoPixels() {
        var state = ScreenState(entries: entries)
        _ = ScreenLogic.handle(.key(.character("f")), &state, toolbar: Toolbar(width: 80), toolbarRow: 19)
        XCTAssertEqual(state.status.text, ScreenLogic.noPixelsStatus)
        XCTAssertTrue(state.showPixels, "nothing to switch")
    }
}

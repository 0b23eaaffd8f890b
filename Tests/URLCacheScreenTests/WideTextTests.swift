import BlockArt
import Foundation
import URLCacheKit
import URLCacheSupport
import URLCacheTestSupport
import XCTest

@testable import URLCacheScreen

/// Text with wide characters (CJK, emoji) laid out in display columns:
/// the title, status, info line, alerts, help and toolbar.
final class WideTextTests: XCTestCase {
    let fuji = "富士山の日の出 🌄 — Sunrise over Mount Fuji from Lake Kawaguchi"

    private func draw(_ state: ScreenState, columns: Int, rows: Int = 20) -> RecordingTerminal {
        let terminal = RecordingTerminal(columns: columns, rows: rows)
        ScreenView(renderOptions: RenderOptions(), cellAspect: 0.5).draw(state, on: terminal, now: Date())
        return terminal
    }

    private func state(title: String) -> ScreenState {
        var state = ScreenState(entries: [
            URLEntry(url: URL(string: "https://a.example/fuji.jpg")!, title: title),
            URLEntry(url: URL(string: "https://a.example/two.jpg")!),
        ])
        state.image = DecodedImage(
            info: SourceInfo(format: .png, width: 8, height: 4),
            pixmap: Pixmap(width: 8, height: 4, fill: LinearRGB(0.2, 0.4, 0.8))
        )
        return state
    }

    func testWrapMeasuresColumnsAndBreaksLongWords() {
        for width in [6, 9, 12, 20] {
            let lines = Layout.wrap(fuji + " 東京スカイツリーから見た富士山と日の出の景色", width: width)
            XCTAssertTrue(lines.allSatisfy { $0.columns <= width }, "\(width): \(lines)")
            XCTAssertEqual(lines.joined().filter { $0 != " " }, (fuji + "東京スカイツリーから見た富士山と日の出の景色").filter { $0 != " " })
        }
        XCTAssertEqual(Layout.wrap("富士", width: 1), ["富", "士"], "a character wider than the line still gets one")
    }

    func testTitleFitsItsLineAt60Columns() {
        let terminal = draw(state(title: fuji), columns: 60)
        XCTAssertTrue(terminal.line(0).hasPrefix("urlcache · 富士山の日の出 🌄"), terminal.line(0))
        XCTAssertTrue(terminal.line(0).hasSuffix("…  1 of 2"), terminal.line(0))
        XCTAssertLessThanOrEqual(terminal.usedColumns(0), 59)
        XCTAssertEqual(terminal.overflows, [])
        XCTAssertFalse(
            terminal.line(1).contains("Fuji") || terminal.line(1).contains("士"),
            "the picture's first row is art"
        )
    }

    func testStatusAlertAndHelpStayInside() {
        var wide = state(title: fuji)
        wide.status = .error("Check failed, showing the cached image: サーバーが応答しませんでした 🌧🌧🌧🌧🌧🌧🌧🌧🌧🌧🌧🌧")
        for columns in [40, 41, 60, 79] {
            let terminal = draw(wide, columns: columns)
            XCTAssertEqual(terminal.overflows, [], "\(columns) columns")
            XCTAssertTrue(terminal.text.contains(columns >= 60 ? "サーバー" : "Check failed"), terminal.text)
        }
        wide.overlay = .alert("画像を取得できませんでした: 東京の天気サーバーが応答しませんでした🌧 (HTTP 503)")
        for columns in [40, 53, 80] {
            let terminal = draw(wide, columns: columns)
            XCTAssertEqual(terminal.overflows, [], "\(columns) columns")
            XCTAssertTrue(terminal.text.contains("画像を"), terminal.text)
            // The box's right border stands in one column on every row it has.
            let borders = (0..<terminal.size.rows).compactMap { row in terminal.screen[row].lastIndex(of: "│") }
            XCTAssertEqual(Set(borders).count, 1, "\(columns): \(terminal.text)")
        }
        wide.overlay = .help
        XCTAssertEqual(draw(wide, columns: 40).overflows, [])
    }

    func testToolbarKeepsHelpAndQuitAtEveryWidth() {
        for width in 40...200 {
            let toolbar = Toolbar(width: width)
            let buttons = toolbar.items.map(\.button)
            XCTAssertTrue(buttons.contains(.help) && buttons.contains(.quit), "\(width): \(buttons)")
            XCTAssertLessThanOrEqual(toolbar.items.last?.range.upperBound ?? 0, width)
            // What is left out is left out in the stated order.
            let missing = Button.allCases.filter { !buttons.contains($0) }
            XCTAssertEqual(missing, Array(Toolbar.dropOrder.joined().prefix(missing.count)), "\(width)")
        }
        XCTAssertEqual(Toolbar(width: 40).items.map(\.button), [.displayImage, .clearCache, .recheck, .help, .quit])
        XCTAssertEqual(Toolbar(width: 120).items.count, Button.allCases.count)
    }
}

import BlockArt
import Foundation
import URLCacheTestSupport
import XCTest

@testable import URLCacheKit
@testable import URLCacheScreen

/// The screen's block art of an animation: kept a frame each and found
/// again by the frame's index, so that a later loop's frames the screen
/// holds are drawn as they were, their pixels never made.
final class ArtViewTests: XCTestCase {
    /// A 100×50 picture with a bright bar at a place `n` decides.
    private func pixmap(_ n: Int) -> Pixmap {
        var values: [Float] = []
        for _ in 0..<50 { for x in 0..<100 { values += (x / 20 == n % 5) ? [1, 1, 1] : [0.1, 0.2, 0.3] } }
        return Pixmap(width: 100, height: 50, values: values)
    }

    private func state(frame: Int) -> ScreenState {
        var state = ScreenState(entries: [URLEntry(url: URL(string: "https://a.example/loop.gif")!)])
        state.image = DecodedImage(info: SourceInfo(format: .gif, width: 100, height: 50), pixmap: pixmap(frame))
        state.playback = Playback(frame: frame, frames: 3)
        return state
    }

    func testAHeldFrameIsDrawnFromItsKeptArtWhateverPixelsTheImageHas() throws {
        let terminal = RecordingTerminal(columns: 80, rows: 30)
        let view = ScreenView(renderOptions: RenderOptions(), cellAspect: 0.5)
        var state = state(frame: 0)
        view.draw(state, on: terminal, now: Date())
        XCTAssertFalse(view.holdsFrame(1, state, on: terminal), "frame 1 not drawn yet")
        state = self.state(frame: 1)
        view.draw(state, on: terminal, now: Date())
        let one = try XCTUnwrap(terminal.art)
        XCTAssertTrue(view.holdsFrame(1, state, on: terminal))
        state = self.state(frame: 2)
        view.draw(state, on: terminal, now: Date())
        XCTAssertNotEqual(terminal.art, one, "frame 2 looks otherwise")
        // The next loop's frame 1, held: the image keeps frame 2's pixels.
        state.playback?.frame = 1
        view.draw(state, on: terminal, now: Date())
        XCTAssertEqual(terminal.art, one, "frame 1 drawn as it was, not from frame 2's pixels")
        XCTAssertFalse(
            view.holdsFrame(0, state, on: terminal),
            "the first frame is the still: told apart by its pixels"
        )
        XCTAssertFalse(
            view.holdsFrame(1, state, on: RecordingTerminal(columns: 60, rows: 30)),
            "another size: not held"
        )
        view.animationChanged()
        XCTAssertFalse(view.holdsFrame(1, state, on: terminal), "another animation's frame 1 is not this one's")
        state.playback = nil
        XCTAssertFalse(view.holdsFrame(1, state, on: terminal), "no animation: nothing held")
    }

    func testArtIsKeptUnderThePixelsIdentityNotTheirLikeness() throws {
        let terminal = RecordingTerminal(columns: 80, rows: 30)
        let view = ScreenView(renderOptions: RenderOptions(), cellAspect: 0.5)
        var state = ScreenState(entries: [URLEntry(url: URL(string: "https://a.example/still.png")!)])
        let first = pixmap(0)
        state.image = DecodedImage(info: SourceInfo(format: .png, width: 100, height: 50), pixmap: first)
        view.draw(state, on: terminal, now: Date())
        let before = try XCTUnwrap(view.drawCache.cached)
        XCTAssertEqual(before.key.drawn, .pixels(first.identity))
        view.draw(state, on: terminal, now: Date())
        XCTAssertEqual(view.drawCache.cached?.key, before.key, "the same pixels: the same art")
        // One value changed, where 64 samples would not look.
        state.image?.pixmap.values[3] = 1
        XCTAssertNotEqual(state.image?.pixmap.identity, first.identity)
        view.draw(state, on: terminal, now: Date())
        XCTAssertNotEqual(view.drawCache.cached?.key, before.key, "changed pixels are drawn anew")
        XCTAssertEqual(view.drawCache.cached?.key.drawn, state.image.map { .pixels($0.pixmap.identity) })
    }

    /// Art made with the picture's decode (`ScreenView.offer`) is drawn as
    /// it came, where it is the art the view would render: the same cells,
    /// options and pixels. Any other is rendered again.
    func testArtOfferedWithTheDecodeIsDrawnOnlyWhereItIsTheViewsOwn() throws {
        let terminal = RecordingTerminal(columns: 80, rows: 30)
        var state = ScreenState(entries: [URLEntry(url: URL(string: "https://a.example/still.png")!)])
        let image = DecodedImage(info: SourceInfo(format: .png, width: 100, height: 50), pixmap: pixmap(0))
        state.image = image
        let own = ScreenView(renderOptions: RenderOptions(), cellAspect: 0.5)
        own.draw(state, on: terminal, now: Date())
        let rendered = try XCTUnwrap(terminal.art)
        let key = try XCTUnwrap(own.drawCache.cached?.key)
        // Marked cells, where a render would give blocks and colours.
        func marked(_ columns: Int, _ rows: Int) -> CellGrid {
            let cell = Cell(glyph: "X", foreground: .index(1), background: .index(2))
            return CellGrid(columns: columns, rows: rows, cells: Array(repeating: cell, count: columns * rows))
        }
        func drawn(offering plan: ArtPlan, for offered: DecodedImage = image) -> CellGrid? {
            let view = ScreenView(renderOptions: RenderOptions(), cellAspect: 0.5)
            view.offer(PlannedArt(plan: plan, grid: marked(plan.columns, plan.rows)), for: offered)
            view.draw(state, on: terminal, now: Date())
            return terminal.art
        }
        let same = ArtPlan(columns: key.columns, rows: key.rows, options: RenderOptions())
        XCTAssertEqual(drawn(offering: same), marked(key.columns, key.rows), "the decode's art, not rendered again")
        var colours = same
        colours.options.colors = .palette256
        XCTAssertEqual(drawn(offering: colours), rendered, "made in colours the terminal did not open with")
        var narrower = same
        narrower.columns -= 1
        XCTAssertEqual(drawn(offering: narrower), rendered, "made for another window")
        let other = DecodedImage(info: image.info, pixmap: pixmap(1))
        XCTAssertEqual(drawn(offering: same, for: other), rendered, "made of other pixels")
    }
}

import BlockArt
import Foundation
import URLCacheTestSupport
import XCTest

@testable import URLCacheKit
@testable import URLCacheScreen

/// The screen's picture of pixels, drawn through a recording terminal.
final class PictureViewTests: XCTestCase {
    private func state() -> ScreenState {
        // 2:1, a gradient: the fit and the pixels are both checkable.
        var values: [Float] = []
        for _ in 0..<50 { for x in 0..<100 { values += [Float(x) / 99, 0.5, 0.25] } }
        var state = ScreenState(entries: [URLEntry(url: URL(string: "https://a.example/one.jpg")!)])
        state.image = DecodedImage(
            info: SourceInfo(format: .png, width: 100, height: 50),
            pixmap: Pixmap(width: 100, height: 50, values: values)
        )
        return state
    }

    private func view(_ format: PictureFormat) -> ScreenView {
        let view = ScreenView(renderOptions: RenderOptions(), cellAspect: 0.5)
        view.pictures.format = format
        return view
    }

    func testPixelsCoverTheImageAreaCentredAndFKeySwitchesToArt() throws {
        let terminal = RecordingTerminal(columns: 80, rows: 30)
        let view = view(.kitty)
        var state = state()
        view.draw(state, on: terminal, now: Date())
        let shown = try XCTUnwrap(terminal.picture)
        let layout = try XCTUnwrap(Layout(columns: 80, rows: 30))
        // 8×16 cells: the width decides, 80 columns of 8 = 640 px, 320 px high = 20 rows.
        XCTAssertEqual(shown.picture.columns, 80)
        XCTAssertEqual(shown.picture.rows, 20)
        XCTAssertEqual(shown.row, layout.imageTop + (layout.imageRows - 20) / 2)
        XCTAssertTrue(String(decoding: shown.picture.bytes.sequence.prefix(40), as: UTF8.self).contains("s=640,v=320"))
        XCTAssertEqual(shown.picture.bytes.removal, KittyGraphics.delete(id: shown.picture.id))
        // f: block art instead, and no picture.
        state.pixelsAvailable = true
        _ = ScreenLogic.handle(
            .key(.character("f")),
            &state,
            toolbar: Toolbar(width: 80),
            toolbarRow: layout.toolbarRow
        )
        view.draw(state, on: terminal, now: Date())
        XCTAssertNil(terminal.picture)
        XCTAssertTrue(
            terminal.screen[layout.imageTop + layout.imageRows / 2].contains { "▀▄▌▐█▖▗▘▝▚▞▙▛▜▟".contains($0) }
        )
    }

    func testSamePictureIsNotEncodedAgainAndANewImageGetsANewID() throws {
        let terminal = RecordingTerminal(columns: 80, rows: 30)
        let view = view(.kitty)
        var state = state()
        view.draw(state, on: terminal, now: Date())
        let first = try XCTUnwrap(terminal.picture).picture
        view.draw(state, on: terminal, now: Date())
        XCTAssertEqual(try XCTUnwrap(terminal.picture).picture.id, first.id, "a spinner tick keeps the picture")
        state.image?.pixmap.values[0] = 1
        state.image?.pixmap.values[3] = 1
        view.draw(state, on: terminal, now: Date())
        XCTAssertNotEqual(try XCTUnwrap(terminal.picture).picture.id, first.id)
    }

    /// (In sixel: kitty keeps an animation's frames itself, see below.)
    func testAnAnimationsFramesAreEncodedOnceAndLetGoWhenItStops() throws {
        let terminal = RecordingTerminal(columns: 80, rows: 30)
        let view = view(.sixel)
        var state = state()
        let first = state.image?.pixmap
        var second = first
        second?.values[0] = 1
        // (frame index, pixels) as the player shows them: a loop of two, then frame 0 again.
        func show(_ frame: Int, _ pixmap: Pixmap?) throws -> UInt32 {
            state.playback?.frame = frame
            state.image?.pixmap = try XCTUnwrap(pixmap)
            view.draw(state, on: terminal, now: Date())
            return try XCTUnwrap(terminal.picture).picture.id
        }
        state.playback = Playback(frame: 0, frames: 2)
        let zero = try show(0, first)
        let one = try show(1, second)
        XCTAssertNotEqual(zero, one)
        XCTAssertEqual(try show(0, first), zero, "the second loop re-sends frame 0 as encoded the first time")
        XCTAssertEqual(try show(1, second), one)
        // Stopped (another image, Clear Cache): nothing is kept.
        state.playback = nil
        _ = try show(0, second)
        XCTAssertNotEqual(try show(0, first), zero)
    }

    /// An animation's next frame is made ready while the one before is up
    /// (`prepare`): when it is due, the draw sends that picture and encodes
    /// nothing. Prepared before frame 0 is drawn, frame 1 keeps the first
    /// id; encoded at its draw, it would take the third. (In sixel: kitty's
    /// frames share one id.)
    func testAPreparedFrameIsTheOneDrawnNotEncodedAgain() throws {
        let terminal = RecordingTerminal(columns: 80, rows: 30)
        let view = view(.sixel)
        var zero = state()
        zero.playback = Playback(frame: 0, frames: 2)
        var one = zero
        one.playback?.frame = 1
        one.image?.pixmap.values[0] = 1
        view.prepare(one, on: terminal)
        XCTAssertNil(terminal.picture, "prepare draws nothing")
        view.draw(zero, on: terminal, now: Date())
        let shownFirst = try XCTUnwrap(terminal.picture).picture.id
        view.draw(one, on: terminal, now: Date())
        let prepared = try XCTUnwrap(terminal.picture).picture.id
        XCTAssertEqual(shownFirst, 2, "frame 0 was encoded after the prepared frame 1")
        XCTAssertEqual(prepared, 1, "frame 1 is the picture prepare made")
    }

    /// In kitty, an animation's frames are one image: each frame is a
    /// picture of that id with its index and pixels, and once kitty holds
    /// a frame (the terminal says so) it is made without them. Another
    /// animation gets another image.
    func testKittyFramesShareAnImageAndHeldOnesComeWithoutPixels() throws {
        let (terminal, view, drawn, zero, one) = try twoKittyFrames(animates: true)
        var state = drawn
        XCTAssertEqual(zero.id, one.id, "one image")
        XCTAssertEqual([zero.frame, one.frame], [0, 1])
        XCTAssertNotNil(one.bytes.shared, "its pixels, to send whole or add")
        terminal.heldFrames = FrameCompositor.KittyFrames(id: one.id, numbers: [0: 1, 1: 2])
        state.playback?.frame = 0
        state.image?.pixmap.values[0] = 0
        view.draw(state, on: terminal, now: Date())
        let again = try XCTUnwrap(terminal.picture).picture
        XCTAssertTrue(again.isSwitchOnly, "kitty holds it: no pixels made")
        view.animationChanged()
        view.draw(state, on: terminal, now: Date())
        XCTAssertNotEqual(try XCTUnwrap(terminal.picture).picture.id, one.id, "another animation, another image")
    }

    /// A terminal that draws kitty's pictures but not its animations
    /// (Ghostty, WezTerm, Konsole) gets each frame as a picture of its own.
    func testTerminalsThatOnlyDrawKittysPicturesGetEachFrameWhole() throws {
        let (_, _, _, zero, one) = try twoKittyFrames(animates: false)
        XCTAssertNil(one.frame)
        XCTAssertNotEqual(zero.id, one.id)
    }

    /// A two-frame animation drawn in kitty, frame 0 then frame 1 (its
    /// pixels changed), by a view told whether the terminal `animates`:
    /// the pictures each draw made, and what made them.
    private func twoKittyFrames(
        animates: Bool
    ) throws
        -> (RecordingTerminal, ScreenView, ScreenState, zero: PixelPicture, one: PixelPicture)
    {
        let terminal = RecordingTerminal(columns: 80, rows: 30)
        let view = view(.kitty)
        view.pictures.kittyAnimates = animates
        var state = state()
        state.playback = Playback(frame: 0, frames: 2)
        view.draw(state, on: terminal, now: Date())
        let zero = try XCTUnwrap(terminal.picture).picture
        state.playback?.frame = 1
        state.image?.pixmap.values[0] = 1
        view.draw(state, on: terminal, now: Date())
        let one = try XCTUnwrap(terminal.picture).picture
        return (terminal, view, state, zero, one)
    }

    /// The kitty picture a view by `route` puts on an 80×30 terminal.
    private func kittyPicture(by route: PictureRoute) throws -> PixelPicture {
        let terminal = RecordingTerminal(columns: 80, rows: 30)
        let view = view(.kitty)
        view.pictures.route = route
        view.draw(state(), on: terminal, now: Date())
        return try XCTUnwrap(terminal.picture).picture
    }

    func testInsideTmuxANamedFormatGoesThroughPassthrough() throws {
        let picture = try kittyPicture(by: .passthrough)
        XCTAssertTrue(picture.bytes.sequence.starts(with: Array("\u{1B}Ptmux;\u{1B}\u{1B}_G".utf8)))
        XCTAssertTrue(picture.bytes.removal.starts(with: Array("\u{1B}Ptmux;".utf8)))
    }

    func testSixelIsRemovedByRepaintingAndNoPictureWhenTooSmall() throws {
        let terminal = RecordingTerminal(columns: 80, rows: 30)
        view(.sixel).draw(state(), on: terminal, now: Date())
        XCTAssertEqual(try XCTUnwrap(terminal.picture).picture.bytes.removal, [])
        let small = RecordingTerminal(columns: 30, rows: 8)
        view(.sixel).draw(state(), on: small, now: Date())
        XCTAssertNil(small.picture)
        XCTAssertTrue(small.screen.map { String($0) }.joined().contains("Terminal too small"))
    }

    /// kitty outside tmux that draws Unicode placeholders: the upload goes
    /// through the passthrough with a virtual placement the picture's size
    /// in cells, and each of its rows is text that names the image.
    func testInsideTmuxKittysPlaceholdersAreRowsOfText() throws {
        let picture = try kittyPicture(by: .placeholders)
        let upload = String(decoding: picture.bytes.sequence.prefix(80), as: UTF8.self)
        XCTAssertTrue(upload.hasPrefix("\u{1B}Ptmux;\u{1B}\u{1B}_Ga=T,U=1,"), upload)
        XCTAssertTrue(upload.contains("c=\(picture.columns),r=\(picture.rows)"), upload)
        XCTAssertEqual(picture.bytes.rows.count, picture.rows)
        for (i, row) in picture.bytes.rows.enumerated() {
            let text = String(decoding: row, as: UTF8.self)
            XCTAssertTrue(text.hasPrefix("\u{1B}[38;5;\(picture.id & 0xFF)m"), "row \(i)")
            XCTAssertEqual(text.unicodeScalars.filter { $0.value == 0x10EEEE }.count, picture.columns, "row \(i)")
        }
        XCTAssertEqual(picture.bytes.removal, TmuxPassthrough.wrap(KittyGraphics.delete(id: picture.id)))
    }
}

import BlockArt
import XCTest

@testable import URLCacheScreen

/// Every transition the screen makes, through the compositor alone: what
/// is written, what is taken away, and when every cell is repainted.
final class FrameCompositorTests: XCTestCase {
    typealias Frame = FrameCompositor.Frame

    private func art(
        _ glyph: Unicode.Scalar = "▀",
        row: Int = 1,
        column: Int = 0,
        columns: Int = 10,
        rows: Int = 5
    ) -> Placed<CellGrid> {
        let cell = Cell(glyph: glyph, foreground: .rgb(RGB8(200, 10, 10)), background: .rgb(RGB8(0, 0, 90)))
        return Placed(
            CellGrid(columns: columns, rows: rows, cells: Array(repeating: cell, count: columns * rows)),
            row: row,
            column: column,
            rows: rows,
            columns: columns
        )
    }

    private func picture(
        _ format: PictureFormat,
        id: UInt32,
        row: Int = 1,
        column: Int = 0,
        columns: Int = 10,
        rows: Int = 5,
        pixels: (width: Int, height: Int)? = nil,
        frame: Int? = nil
    ) -> Placed<PixelPicture> {
        let removal: [UInt8] = format == .kitty ? Array("delete \(id)".utf8) : []
        let bytes = PictureBytes(sequence: Array("picture \(id)".utf8), removal: removal)
        return Placed(
            PixelPicture(
                format: format,
                id: id,
                columns: columns,
                rows: rows,
                bytes: bytes,
                width: pixels?.width,
                height: pixels?.height,
                frame: frame
            ),
            row: row,
            column: column,
            rows: rows,
            columns: columns
        )
    }

    /// A box's line over rows 2…3, columns 2…7.
    private let box = [TextSpan(row: 2, columns: 2..<8), TextSpan(row: 3, columns: 2..<8)]

    /// Composes each frame in turn from a fresh terminal; the steps of each.
    private func run(
        _ frames: [Frame],
        from start: FrameCompositor.Shown = FrameCompositor.Shown()
    )
        -> [FrameCompositor.Steps]
    {
        var shown = start
        return frames.map { frame in
            let (steps, next) = FrameCompositor.compose(frame, on: shown)
            shown = next
            return steps
        }
    }

    func testTheFirstFrameRepaintsAndWritesArtThenASpinnerTickWritesNothing() {
        let steps = run([Frame(arts: [art()]), Frame(arts: [art()])])
        XCTAssertTrue(steps[0].repaintAll)
        XCTAssertEqual(steps[0].arts, [art()])
        XCTAssertEqual(steps[1], FrameCompositor.Steps(), "the same art again: nothing goes out")
    }

    func testABoxOverArtMakesCursesDrawBothUntilARepaint() {
        let steps = run([
            Frame(arts: [art()]), Frame(arts: [art()], texts: box), Frame(arts: [art()]), Frame(arts: [art()]),
        ])
        XCTAssertTrue(steps[1].repaintAll, "art ncurses did not know of is under the box's blank inside")
        XCTAssertEqual(steps[1].artInCurses, [art()])
        XCTAssertEqual(steps[2].artInCurses, [art()], "closed: ncurses keeps the art, changing only the box's cells")
        XCTAssertFalse(steps[2].repaintAll)
        XCTAssertTrue(steps[2].arts.isEmpty)
        XCTAssertEqual(steps[3].artInCurses, [art()])
    }

    func testTheNextImageWritesOnlyTheNewArtAndAMovedOneRepaints() {
        let steps = run([Frame(arts: [art()]), Frame(arts: [art("▄")]), Frame(arts: [art("▄", column: 4)])])
        XCTAssertEqual(
            steps[1].changes,
            [FrameCompositor.ArtChange(from: art().content, to: art("▄"))],
            "the same cells: only the cells that differ are written over the old"
        )
        XCTAssertTrue(steps[1].arts.isEmpty)
        XCTAssertFalse(steps[1].repaintAll, "the same cells: overwritten")
        XCTAssertTrue(steps[2].repaintAll, "elsewhere: the old art would stay behind")
        XCTAssertEqual(steps[2].arts, [art("▄", column: 4)])
    }

    /// An animation's frames: each written over the last as its changed
    /// cells, with nothing else written; text changing on the art's rows
    /// (ncurses may blank them) sends the frame whole.
    func testAnAnimationsNextFrameWritesOnlyItsChangedCells() {
        let steps = run([
            Frame(arts: [art()]), Frame(arts: [art("▄")]),
            Frame(arts: [art("▀")], texts: [TextSpan(row: 2, columns: 20..<23, text: "abc")]),
        ])
        XCTAssertEqual(steps[1].changes.map(\.from), [art().content])
        XCTAssertEqual(steps[1].pictures, [])
        XCTAssertEqual(steps[2].arts, [art("▀")], "a row's text changed under it: written whole")
        XCTAssertEqual(steps[2].changes, [])
        let bytes = AnsiWriter.placedChangedBytes(from: art().content, to: art().content, row: 1, column: 0)
        XCTAssertEqual(bytes, [], "the same frame again writes nothing")
        var cells = art().content.cells
        cells[2 * 10 + 3] = Cell(glyph: "▄", foreground: .rgb(RGB8(1, 2, 3)), background: .rgb(RGB8(0, 0, 90)))
        let one = CellGrid(columns: 10, rows: 5, cells: cells)
        let text = String(
            decoding: AnsiWriter.placedChangedBytes(from: art().content, to: one, row: 1, column: 0),
            as: UTF8.self
        )
        XCTAssertTrue(text.hasPrefix("\u{1B}[4;4H"), "one cell, at row 1 + 2 and column 3, 1-based: \(text)")
        XCTAssertEqual(text.filter { $0 == "▄" }.count, 1)
    }

    func testClearCacheTakesTheArtAwayByRepainting() {
        let steps = run([Frame(arts: [art()]), Frame(), Frame()])
        XCTAssertTrue(steps[1].repaintAll)
        XCTAssertEqual(steps[2], FrameCompositor.Steps())
    }

    func testAKittyPictureIsDeletedUnderABoxAndSentAgainAfter() {
        let kitty = picture(.kitty, id: 7)
        let steps = run([Frame(pictures: [kitty]), Frame(pictures: [kitty], texts: box), Frame(pictures: [kitty])])
        XCTAssertEqual(steps[0].pictures, [kitty])
        XCTAssertEqual(steps[1].removals, [kitty.content])
        XCTAssertFalse(steps[1].repaintAll, "kitty deletes by id: no repaint")
        XCTAssertTrue(steps[1].pictures.isEmpty)
        XCTAssertEqual(steps[2].pictures, [kitty])
    }

    func testASixelUnderABoxGoesByARepaint() {
        let sixel = picture(.sixel, id: 1)
        let steps = run([Frame(pictures: [sixel]), Frame(pictures: [sixel], texts: box), Frame(pictures: [sixel])])
        XCTAssertTrue(steps[1].repaintAll, "a sixel has no removal: its cells are repainted")
        XCTAssertTrue(steps[1].pictures.isEmpty)
        XCTAssertFalse(steps[2].repaintAll)
        XCTAssertEqual(steps[2].pictures, [sixel])
    }

    func testAZoomStepReplacesThePicture() {
        let fitted = picture(.kitty, id: 1)
        let zoomed = picture(.kitty, id: 2)
        let steps = run([Frame(pictures: [fitted]), Frame(pictures: [zoomed])])
        XCTAssertEqual(steps[1].removals, [fitted.content])
        XCTAssertEqual(steps[1].pictures, [zoomed])
        XCTAssertFalse(steps[1].repaintAll)
    }

    /// An animation's next sixel frame, the same size at the same cells,
    /// paints the last one over: nothing is repainted, so nothing flickers.
    /// A sixel of another size would leave pixels behind: that repaints.
    func testASixelFrameOfTheSameSizePaintsOverTheLastWithNoRepaint() {
        let first = picture(.sixel, id: 1, pixels: (80, 85))
        let next = picture(.sixel, id: 2, pixels: (80, 85))
        let steps = run([
            Frame(pictures: [first]), Frame(pictures: [next]),
            Frame(pictures: [picture(.sixel, id: 3, pixels: (72, 85))]),
        ])
        XCTAssertFalse(steps[1].repaintAll)
        XCTAssertEqual(steps[1].pictures, [next])
        XCTAssertTrue(steps[2].repaintAll, "a narrower picture would leave a strip of the last")
        let unknown = run([Frame(pictures: [picture(.sixel, id: 1)]), Frame(pictures: [picture(.sixel, id: 2)])])
        XCTAssertTrue(unknown[1].repaintAll, "sizes not known: repainted as before")
        let kitty = run([
            Frame(pictures: [picture(.kitty, id: 1, pixels: (80, 85))]),
            Frame(pictures: [picture(.kitty, id: 2, pixels: (80, 85))]),
        ])
        XCTAssertEqual(
            kitty[1].removals,
            [picture(.kitty, id: 1, pixels: (80, 85)).content],
            "never two kitty pictures up at once"
        )
        XCTAssertFalse(kitty[1].repaintAll)
    }

    /// After a box over animated art closes, the next frame is written by
    /// us again (one repaint makes ncurses forget its copy), not cell by
    /// cell through ncurses for the rest of the animation.
    func testAnimatedArtIsOursAgainAfterABoxCloses() {
        let steps = run([
            Frame(arts: [art()]), Frame(arts: [art()], texts: box), Frame(arts: [art()]), Frame(arts: [art("▄")]),
            Frame(arts: [art("▀")]),
        ])
        XCTAssertEqual(steps[2].artInCurses, [art()], "closed: ncurses keeps the art")
        XCTAssertTrue(steps[3].repaintAll, "the next frame: ncurses' copy is dropped")
        XCTAssertEqual(steps[3].arts, [art("▄")])
        XCTAssertEqual(steps[3].artInCurses, [])
        XCTAssertEqual(steps[4].changes.map(\.to), [art("▀")], "then frame by frame, the changed cells")
        XCTAssertFalse(steps[4].repaintAll)
    }

    func testAResizeRepaintsAndWritesEverythingAgain() {
        let sixel = picture(.sixel, id: 1)
        var shown = FrameCompositor.compose(Frame(arts: [art(row: 8)], pictures: [sixel]), on: FrameCompositor.Shown())
            .shown
        shown.repaintPending = true
        let (steps, _) = FrameCompositor.compose(Frame(arts: [art(row: 8)], pictures: [sixel]), on: shown)
        XCTAssertTrue(steps.repaintAll)
        XCTAssertEqual(steps.pictures, [sixel])
        XCTAssertEqual(steps.arts, [art(row: 8)])
    }

    func testLeavingTakesEveryPictureAwayAndComesBackRepainting() {
        let kitty = picture(.kitty, id: 3)
        let other = picture(.kitty, id: 4, row: 8)
        let shown = FrameCompositor.compose(Frame(pictures: [kitty, other]), on: FrameCompositor.Shown()).shown
        let (removals, left) = FrameCompositor.leave(shown)
        XCTAssertEqual(removals, [kitty.content, other.content])
        let (steps, _) = FrameCompositor.compose(Frame(pictures: [kitty, other]), on: left)
        XCTAssertTrue(steps.repaintAll)
        XCTAssertEqual(steps.pictures, [kitty, other])
    }

    // The gallery: many pictures and many pieces of art at once.

    private let tiles = (0..<4).map { i in (row: 1 + (i / 2) * 6, column: (i % 2) * 12) }

    func testTheGalleryOpeningOverAPictureDeletesItAndWritesEachThumbnail() {
        let main = picture(.kitty, id: 1, columns: 30, rows: 12)
        let thumbnails = tiles.enumerated().map {
            picture(
                .kitty,
                id: UInt32(10 + $0.offset),
                row: $0.element.row,
                column: $0.element.column,
                columns: 10,
                rows: 4
            )
        }
        let steps = run([
            Frame(pictures: [main]), Frame(pictures: Array(thumbnails.prefix(2))), Frame(pictures: thumbnails),
        ])
        XCTAssertEqual(steps[1].removals, [main.content])
        XCTAssertEqual(steps[1].pictures, Array(thumbnails.prefix(2)))
        XCTAssertTrue(steps[2].removals.isEmpty, "the grid fills in: the thumbnails shown stay")
        XCTAssertEqual(steps[2].pictures, Array(thumbnails.suffix(2)), "only the new ones are sent")
    }

    func testABoxOverTheGalleryTakesAwayOnlyTheThumbnailsUnderIt() {
        let thumbnails = tiles.enumerated().map {
            picture(
                .kitty,
                id: UInt32(10 + $0.offset),
                row: $0.element.row,
                column: $0.element.column,
                columns: 10,
                rows: 4
            )
        }
        let help = [TextSpan(row: 2, columns: 4..<9)]  // over the first tile only
        let steps = run([
            Frame(pictures: thumbnails), Frame(pictures: thumbnails, texts: help), Frame(pictures: thumbnails),
        ])
        XCTAssertEqual(steps[1].removals, [thumbnails[0].content])
        XCTAssertTrue(steps[1].pictures.isEmpty)
        XCTAssertEqual(steps[2].pictures, [thumbnails[0]])
    }

    func testGalleryArtIsWrittenTileByTileAndABoxOverOneHandsAllToCurses() {
        let arts = tiles.map { art(row: $0.row, column: $0.column, columns: 10, rows: 4) }
        let steps = run([
            Frame(arts: Array(arts.prefix(3))), Frame(arts: arts),
            Frame(arts: arts, texts: [TextSpan(row: 2, columns: 4..<9)]),
        ])
        XCTAssertEqual(steps[0].arts, Array(arts.prefix(3)))
        XCTAssertFalse(steps[1].repaintAll, "a tile more: nothing is left behind")
        XCTAssertEqual(steps[1].arts, [arts[3]], "only the new tile is written")
        XCTAssertEqual(steps[2].artInCurses, arts)
        XCTAssertTrue(steps[2].arts.isEmpty)
    }

    /// ncurses clears a changed row's blanks in one stroke (EL1 from the
    /// row's start, EL to its end), over art it does not know of: a
    /// thumbnail's "…" going away beside the art makes it go out again.
    func testTextChangingOnARowOfWrittenArtWritesItAgain() {
        let arts = tiles.map { art(row: $0.row, column: $0.column, columns: 10, rows: 4) }
        let waiting = TextSpan(row: 3, columns: 16..<17, text: "…")
        let status = [
            TextSpan(row: 20, columns: 0..<5, text: "⠋ Load"), TextSpan(row: 20, columns: 0..<5, text: "⠙ Load"),
        ]
        let sixels = tiles.enumerated().map {
            picture(
                .sixel,
                id: UInt32(1 + $0.offset),
                row: $0.element.row,
                column: $0.element.column,
                columns: 10,
                rows: 4
            )
        }
        let steps = run([
            Frame(arts: [arts[0]], texts: [waiting, status[0]]), Frame(arts: [arts[0], arts[1]], texts: [status[0]]),
            Frame(arts: [arts[0], arts[1]], texts: [status[1]]),
        ])
        XCTAssertEqual(steps[1].arts, [arts[0], arts[1]], "the row of the … changed: the art beside it goes out again")
        XCTAssertTrue(steps[2].arts.isEmpty, "a spinner's row holds no art: nothing is written again")
        let pictures = run([Frame(pictures: [sixels[0]], texts: [waiting]), Frame(pictures: [sixels[0], sixels[1]])])
        XCTAssertEqual(pictures[1].pictures, [sixels[0], sixels[1]], "a sixel is erased as art is")
    }

    func testASixelThumbnailUnderABoxRepaintsAndTheOthersAreWrittenAgain() {
        let thumbnails = tiles.enumerated().map {
            picture(
                .sixel,
                id: UInt32(1 + $0.offset),
                row: $0.element.row,
                column: $0.element.column,
                columns: 10,
                rows: 4
            )
        }
        let steps = run([
            Frame(pictures: thumbnails), Frame(pictures: thumbnails, texts: [TextSpan(row: 2, columns: 4..<9)]),
        ])
        XCTAssertTrue(steps[1].repaintAll)
        XCTAssertEqual(
            steps[1].pictures,
            Array(thumbnails.dropFirst()),
            "the repaint erased them all: the uncovered come back"
        )
    }

    // MARK: An animation's frames kept by kitty

    /// Frame `index` of an animation kitty keeps, with its pixels.
    private func frame(_ index: Int, id: UInt32 = 7, row: Int = 1) -> Placed<PixelPicture> {
        var placed = picture(.kitty, id: id, row: row, frame: index)
        let pixels = PixelImage(width: 1, height: 1, rgb: [UInt8(index), 0, 0])
        placed.content.bytes = PictureBytes(
            sequence: [],
            removal: placed.content.bytes.removal,
            shared: KittyGraphics.sharedUpload(pixels, id: id, moveCursor: false, compress: false)
        )
        return placed
    }

    /// The first frame goes whole; each other is added the first time it
    /// is shown and switched to; a loop shown again only switches. Nothing
    /// is taken away or repainted meanwhile.
    func testKittyKeepsAnAnimationsFramesAndSwitchesBetweenThem() {
        let frames = [1, 2, 3, 0, 1, 2, 3, 0].map { Frame(pictures: [frame($0)]) }
        let steps = run(frames)
        XCTAssertEqual(steps[0].pictures, [frame(1)], "the first frame shown is the picture")
        XCTAssertEqual(
            steps[1..<4].map(\.frameSwitches),
            [
                [FrameCompositor.FrameSwitch(picture: frame(2), number: 2, add: true)],
                [FrameCompositor.FrameSwitch(picture: frame(3), number: 3, add: true)],
                [FrameCompositor.FrameSwitch(picture: frame(0), number: 4, add: true)],
            ]
        )
        XCTAssertEqual(
            steps[4...].map(\.frameSwitches),
            [1, 2, 3, 4].map {
                [FrameCompositor.FrameSwitch(picture: frame([1, 2, 3, 0][$0 - 1]), number: $0, add: false)]
            },
            "the second loop: kitty has them all"
        )
        for step in steps.dropFirst() {
            XCTAssertTrue(step.removals.isEmpty && step.pictures.isEmpty && !step.repaintAll, "\(step)")
        }
    }

    /// A box over the animation takes the picture away, frames and all;
    /// once it closes, the frame on screen goes whole, the first of a new
    /// set, and the frames after it are added again.
    func testABoxOverKittysFramesDeletesThemAndTheyAreSentAgain() {
        let steps = run([
            Frame(pictures: [frame(1)]), Frame(pictures: [frame(2)]), Frame(pictures: [frame(2)], texts: box),
            Frame(pictures: [frame(2)]), Frame(pictures: [frame(3)]), Frame(pictures: [frame(1)]),
        ])
        XCTAssertEqual(steps[2].removals, [frame(2).content])
        XCTAssertEqual(steps[3].pictures, [frame(2)], "sent whole again")
        XCTAssertEqual(steps[4].frameSwitches, [FrameCompositor.FrameSwitch(picture: frame(3), number: 2, add: true)])
        XCTAssertEqual(
            steps[5].frameSwitches,
            [FrameCompositor.FrameSwitch(picture: frame(1), number: 3, add: true)],
            "frame 1 went with the picture: added again"
        )
    }

    /// A repaint clears kitty's pictures: the frame goes whole, after the
    /// image is deleted (sending an image again replaces only its first
    /// frame, and kitty would number new frames after the old ones).
    func testARepaintSendsTheFrameWholeAfterDeletingTheImage() {
        var shown = FrameCompositor.Shown()
        for picture in [frame(1), frame(2)] {
            shown = FrameCompositor.compose(Frame(pictures: [picture]), on: shown).shown
        }
        XCTAssertEqual(shown.kittyFrames, FrameCompositor.KittyFrames(id: 7, numbers: [1: 1, 2: 2]))
        shown.repaintPending = true
        let (steps, next) = FrameCompositor.compose(Frame(pictures: [frame(3)]), on: shown)
        XCTAssertTrue(steps.repaintAll)
        XCTAssertEqual(steps.removals, [frame(3).content], "the image, by its id, before it goes again")
        XCTAssertEqual(steps.pictures, [frame(3)])
        XCTAssertTrue(steps.frameSwitches.isEmpty)
        XCTAssertEqual(next.kittyFrames, FrameCompositor.KittyFrames(id: 7, numbers: [3: 1]))
    }

    /// Frames at other cells (a resize) are another picture: the old one is
    /// taken away, the new sent whole; a still after them holds no frames.
    func testFramesElsewhereOrAStillAfterThemStartAfresh() {
        let steps = run([
            Frame(pictures: [frame(1)]), Frame(pictures: [frame(2, row: 3)]), Frame(pictures: [picture(.kitty, id: 8)]),
        ])
        XCTAssertEqual(steps[1].removals, [frame(1).content])
        XCTAssertEqual(steps[1].pictures, [frame(2, row: 3)])
        XCTAssertEqual(steps[2].removals, [frame(2, row: 3).content])
        var shown = FrameCompositor.Shown()
        for picture in [frame(1), picture(.kitty, id: 8)] {
            shown = FrameCompositor.compose(Frame(pictures: [picture]), on: shown).shown
        }
        XCTAssertNil(shown.kittyFrames, "kitty's frames went with their picture")
    }

    /// kitty keeps frames up to half its limit for them, and only for an
    /// animation whose length is known.
    func testKittyKeepsFramesThatFitItsLimit() {
        XCTAssertTrue(FrameCompositor.KittyFrames.fit(count: 120, width: 1280, height: 720), "331 MB")
        XCTAssertFalse(FrameCompositor.KittyFrames.fit(count: 400, width: 1280, height: 720), "1.1 GB")
        XCTAssertFalse(FrameCompositor.KittyFrames.fit(count: nil, width: 10, height: 10))
        XCTAssertFalse(FrameCompositor.KittyFrames.fit(count: 1, width: 10, height: 10), "a still")
    }

    /// A frame made without its pixels (the screen saw kitty hold it) is
    /// switched to; if kitty does not hold it after all, nothing is sent,
    /// the frame before stays up, and kitty's frames are as they were.
    func testAFrameWithoutItsPixelsIsOnlySwitchedTo() {
        var light = frame(1)
        light.content.bytes = PictureBytes(sequence: [], removal: light.content.bytes.removal)
        XCTAssertTrue(light.content.isSwitchOnly)
        var shown = FrameCompositor.Shown()
        for picture in [frame(1), frame(2)] {
            shown = FrameCompositor.compose(Frame(pictures: [picture]), on: shown).shown
        }
        let (steps, next) = FrameCompositor.compose(Frame(pictures: [light]), on: shown)
        XCTAssertEqual(steps.frameSwitches, [FrameCompositor.FrameSwitch(picture: light, number: 1, add: false)])
        XCTAssertTrue(steps.pictures.isEmpty && steps.removals.isEmpty)
        XCTAssertEqual(next.pictures, [light])

        var unheld = light
        unheld.content.frame = 3
        let (none, after) = FrameCompositor.compose(Frame(pictures: [unheld]), on: shown)
        XCTAssertTrue(none.frameSwitches.isEmpty && none.pictures.isEmpty && none.removals.isEmpty, "\(none)")
        XCTAssertEqual(after.pictures, [frame(2)], "the frame before stays up")
        XCTAssertEqual(after.kittyFrames, shown.kittyFrames)
        let (whole, _) = FrameCompositor.compose(Frame(pictures: [unheld]), on: FrameCompositor.Shown())
        XCTAssertTrue(whole.pictures.isEmpty, "nothing to send it whole with")
    }
}

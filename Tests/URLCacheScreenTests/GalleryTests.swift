import BlockArt
import Foundation
import URLCacheTestSupport
import XCTest

@testable import URLCacheKit
@testable import URLCacheScreen

/// The gallery as pure functions: its layout at several sizes, its keys
/// and clicks, and what it draws.
final class GalleryTests: XCTestCase {
    private let entries = (1...7).map {
        URLEntry(url: URL(string: "https://e.example/\($0).jpg")!, title: "Picture \($0)")
    }
    private let day = Date(timeIntervalSince1970: 1_795_000_000)

    /// A gallery of the seven entries, every other one cached.
    private func gallery(selected: Int = 0) -> Gallery {
        Gallery.entries(entries, selected: selected) { entry in
            let n = Int(entry.url.deletingPathExtension().lastPathComponent) ?? 0
            return n % 2 == 1 ? CachedCopy(imagePath: "/c/\(n).img", updated: self.day, metadata: nil) : nil
        }
    }

    private func layout(_ columns: Int, _ rows: Int) -> GalleryLayout {
        GalleryLayout(Layout(columns: columns, rows: rows)!, cellAspect: 0.5)
    }

    func testTheGridReflowsWithTheWindow() {
        let wide = layout(160, 50)
        let small = layout(60, 20)
        let smallest = layout(40, 12)
        XCTAssertEqual(wide.across, 6)
        XCTAssertEqual(wide.tileColumns, 24)
        XCTAssertEqual(wide.pictureRows, 9, "4:3 in pixels: 24 columns of 1:2 cells are 9 rows")
        XCTAssertEqual(wide.rowsShown, 3)
        XCTAssertEqual(small.across, 2)
        XCTAssertEqual(small.rowsShown, 1)
        XCTAssertEqual(smallest.across, 1)
        XCTAssertGreaterThanOrEqual(smallest.pictureRows, 1)
        for grid in [wide, small, smallest] {
            // Every tile on screen lies inside the image area, without overlapping another.
            let last = grid.across * grid.rowsShown - 1
            let origin = grid.origin(of: last, scroll: 0)!
            XCTAssertLessThanOrEqual(
                origin.column + grid.tileColumns,
                grid.across == 6 ? 159 : grid.across == 2 ? 59 : 39
            )
            XCTAssertNil(grid.origin(of: last + 1, scroll: 0), "the next row is scrolled off")
            XCTAssertEqual(
                grid.origin(of: grid.across, scroll: 1)?.row,
                grid.origin(of: 0, scroll: 0)?.row,
                "scrolled a row"
            )
        }
    }

    func testACellFindsItsTileAndTheGapsFindNone() {
        let grid = layout(160, 50)
        let second = grid.origin(of: 1, scroll: 0)!
        XCTAssertEqual(grid.tile(atRow: second.row + 2, column: second.column + 3, scroll: 0, count: 7), 1)
        XCTAssertNil(
            grid.tile(atRow: second.row, column: second.column - 1, scroll: 0, count: 7),
            "the gap between tiles"
        )
        XCTAssertEqual(grid.tile(atRow: second.row, column: second.column, scroll: 1, count: 20), 7)
        XCTAssertNil(grid.tile(atRow: second.row, column: second.column, scroll: 1, count: 7), "past the last tile")
    }

    private func handle(_ event: InputEvent, _ state: inout ScreenState, _ grid: GalleryLayout) -> [Effect] {
        ScreenLogic.handle(event, &state, toolbar: Toolbar(width: 60), toolbarRow: 19, gallery: grid)
    }

    func testArrowsMoveAndScrollAndEnterOpensTheEntry() {
        var state = ScreenState(entries: entries)
        let grid = layout(60, 20)  // 2 across, 1 row shown
        XCTAssertEqual(
            ScreenLogic.handle(.key(.character("g")), &state, toolbar: Toolbar(width: 60), toolbarRow: 19),
            [.gallery(.entries)]
        )
        ScreenLogic.openGallery(gallery(), &state)
        XCTAssertEqual(handle(.key(.right), &state, grid), [])
        XCTAssertEqual(handle(.key(.down), &state, grid), [])
        XCTAssertEqual(state.gallery?.selected, 3)
        XCTAssertEqual(state.gallery?.scroll, 1, "the chosen tile's row is scrolled into view")
        XCTAssertEqual(handle(.key(.character("+")), &state, grid), [], "no zoom in the gallery")
        XCTAssertEqual(handle(.key(.pageDown), &state, grid), [])
        XCTAssertEqual(handle(.key(.pageDown), &state, grid), [])
        XCTAssertEqual(handle(.key(.pageDown), &state, grid), [])
        XCTAssertEqual(state.gallery?.selected, 6, "kept inside the grid")
        XCTAssertEqual(handle(.key(.enter), &state, grid), [.display(force: false, asked: false)])
        XCTAssertNil(state.gallery)
        XCTAssertEqual(state.index, 6)
    }

    func testEscAndGGoBackAndQQuits() {
        var state = ScreenState(entries: entries)
        for key in [Key.escape, .character("g")] {
            ScreenLogic.openGallery(gallery(), &state)
            XCTAssertEqual(handle(.key(key), &state, layout(80, 24)), [])
            XCTAssertNil(state.gallery)
        }
        ScreenLogic.openGallery(gallery(), &state)
        _ = handle(.key(.character("?")), &state, layout(80, 24))
        XCTAssertEqual(state.overlay, .help, "help opens over the gallery")
        _ = handle(.key(.character("x")), &state, layout(80, 24))
        XCTAssertNotNil(state.gallery, "and closes back to it")
        XCTAssertEqual(handle(.key(.character("q")), &state, layout(80, 24)), [.quit])
    }

    func testAClickChoosesATileAndASecondOpensIt() {
        var state = ScreenState(entries: entries)
        let grid = layout(160, 50)
        ScreenLogic.openGallery(gallery(), &state)
        let third = grid.origin(of: 2, scroll: 0)!
        XCTAssertEqual(handle(.click(row: third.row + 1, column: third.column + 1), &state, grid), [])
        XCTAssertEqual(state.gallery?.selected, 2)
        XCTAssertEqual(
            handle(.click(row: third.row + 1, column: third.column + 1), &state, grid),
            [.display(force: false, asked: false)]
        )
        XCTAssertEqual(state.index, 2)
        ScreenLogic.openGallery(gallery(selected: 2), &state)
        XCTAssertEqual(handle(.wheel(up: false, row: 5, column: 5), &state, grid), [])
        XCTAssertEqual(state.gallery?.selected, 6, "a row down (2 + 6), kept inside the grid")
    }

    func testRChecksTheTilesEntryAndTheGalleryStays() {
        var state = ScreenState(entries: entries)
        ScreenLogic.openGallery(gallery(), &state)
        _ = handle(.key(.right), &state, layout(80, 24))
        XCTAssertEqual(handle(.key(.character("r")), &state, layout(80, 24)), [.display(force: true)])
        XCTAssertEqual(state.index, 1)
        XCTAssertNotNil(state.gallery)
        state.loading = ScreenState.Loading(index: 1, started: day, progress: nil, automatic: false)
        XCTAssertEqual(handle(.key(.character("r")), &state, layout(80, 24)), [], "already being checked")
        _ = handle(.key(.right), &state, layout(80, 24))
        XCTAssertEqual(
            handle(.key(.character("r")), &state, layout(80, 24)),
            [.cancel, .display(force: true)],
            "another entry: the download under way gives way"
        )
        XCTAssertEqual(state.index, 2)
        _ = handle(.key(.right), &state, layout(80, 24))
        XCTAssertEqual(handle(.key(.enter), &state, layout(80, 24)), [.cancel, .display(force: false, asked: false)])
        XCTAssertEqual(state.index, 3)
        XCTAssertNil(state.gallery)
        ScreenLogic.openGallery(gallery(selected: 1), &state)
        state.loading = nil
        ScreenLogic.refreshTile(entry: 1, copy: CachedCopy(imagePath: "/c/2.img", updated: day, metadata: nil), &state)
        XCTAssertEqual(state.gallery?.tiles[1].path, "/c/2.img", "the check's copy shows in its tile")
    }

    func testTheChosenTileIsOnScreenOnOpeningAndAfterAResize() {
        let many = (1...40).map { URLEntry(url: URL(string: "https://e.example/\($0).jpg")!) }
        let narrow = layout(60, 20)
        let wide = layout(160, 50)  // 2 across, 1 row; 6 across, 3 rows
        var gallery = Gallery.entries(many, selected: 29) { _ in nil }
        gallery = narrow.settled(gallery)
        XCTAssertEqual(gallery.scroll, 14, "entry 30 is on the 15th row")
        XCTAssertNotNil(narrow.origin(of: 29, scroll: gallery.scroll))
        gallery = wide.settled(gallery)
        XCTAssertEqual(gallery.scroll, 4, "wider: rows 5–7 of 7, none empty below")
        XCTAssertNotNil(wide.origin(of: 29, scroll: gallery.scroll))
        XCTAssertNotNil(wide.origin(of: 39, scroll: gallery.scroll))
    }

    /// The first launch: nothing cached, and the picture the binary carries
    /// stands in for its entry's thumbnail, said to be bundled.
    func testTheBundledPictureStandsInWhereNothingIsCached() {
        let shown = Gallery.entries(
            entries,
            selected: 0,
            lookup: { entry in
                entry == self.entries[0] ? CachedCopy(imagePath: "/c/1.img", updated: self.day, metadata: nil) : nil
            },
            bundled: { $0 == self.entries[0].url || $0 == self.entries[1].url }
        )
        XCTAssertEqual(shown.tiles[0].source, "/c/1.img", "a cached copy comes first")
        XCTAssertEqual(shown.tiles[1].source, "bundled:" + entries[1].url.absoluteString)
        XCTAssertEqual(shown.tiles[1].dateLine, "bundled, not yet downloaded")
        XCTAssertNil(shown.tiles[2].source)
        XCTAssertEqual(shown.tiles[2].dateLine, "not cached")
    }

    func testInATooSmallWindowEscAndQStillWork() {
        var state = ScreenState(entries: entries)
        ScreenLogic.openGallery(gallery(), &state)
        XCTAssertEqual(
            ScreenLogic.handle(.key(.escape), &state, toolbar: Toolbar(width: 30), toolbarRow: nil, gallery: nil),
            []
        )
        XCTAssertNil(state.gallery)
        ScreenLogic.openGallery(gallery(), &state)
        XCTAssertEqual(
            ScreenLogic.handle(
                .key(.character("q")),
                &state,
                toolbar: Toolbar(width: 30),
                toolbarRow: nil,
                gallery: nil
            ),
            [.quit]
        )
    }

    func testTheKeptImagesGalleryOpensAKeptImage() {
        var state = ScreenState(entries: entries)
        let items = (0..<3).map {
            HistoryItem(
                path: "/c/1.\($0).img",
                firstSeen: day.addingTimeInterval(Double(-86_400 * $0)),
                metadata: nil,
                isCurrent: $0 == 0
            )
        }
        ScreenLogic.openGallery(Gallery.history(items, entry: entries[0], selected: 0), &state)
        XCTAssertEqual(state.gallery?.tiles.map(\.title), ["Picture 1", "Picture 1 (2)", "Picture 1 (3)"])
        _ = handle(.key(.right), &state, layout(80, 24))
        _ = handle(.key(.right), &state, layout(80, 24))
        XCTAssertEqual(handle(.key(.character("r")), &state, layout(80, 24)), [], "kept images are not checked")
        XCTAssertEqual(handle(.key(.enter), &state, layout(80, 24)), [.history(step: 2)])
        ScreenLogic.openGallery(Gallery.history([], entry: entries[0], selected: 0), &state)
        XCTAssertNil(state.gallery)
        XCTAssertEqual(state.status.text, ScreenLogic.nothingKeptStatus)
    }

    func testTheGalleryDrawsEachTilesTitleDateAndPicture() {
        let terminal = RecordingTerminal(columns: 80, rows: 30)
        let view = ScreenView(renderOptions: RenderOptions(symbols: .halves, colors: .truecolor), cellAspect: 0.5)
        var state = ScreenState(entries: entries)
        var shown = gallery(selected: 1)
        // Red above the diagonal, blue below: half blocks along it.
        let values = (0..<(40 * 30)).flatMap { i -> [Float] in i % 40 * 30 > i / 40 * 40 ? [1, 0, 0] : [0, 0, 1] }
        let pixmap = Pixmap(width: 40, height: 30, values: values)
        let red = DecodedImage(info: SourceInfo(format: .jpeg, width: 40, height: 30), pixmap: pixmap)
        let grid = layout(80, 30)
        shown.thumbnails["/c/1.img"] = Gallery.Thumbnail(
            key: Gallery.ThumbnailKey(
                path: "/c/1.img",
                columns: grid.tileColumns,
                rows: grid.pictureRows,
                cellWidth: 8,
                cellHeight: 16
            ),
            image: red
        )
        ScreenLogic.openGallery(shown, &state)
        view.draw(state, on: terminal, now: day)
        let text = terminal.text
        XCTAssertTrue(terminal.line(0).contains("Gallery  7 entries"), terminal.line(0))
        for title in ["Picture 1", "Picture 2", "Picture 3"] { XCTAssertTrue(text.contains(title), text) }
        XCTAssertTrue(text.contains("not cached"), "an entry with nothing cached says so")
        XCTAssertTrue(text.contains("…"), "a thumbnail on its way")
        XCTAssertTrue(text.contains("2 of 7 · Enter opens · r checks · Esc back"), text)
        let origin = grid.origin(of: 0, scroll: 0)!
        let art = (origin.row..<(origin.row + grid.pictureRows)).map { String(terminal.screen[$0]) }.joined()
        XCTAssertTrue(art.contains("▀") || art.contains("▄"), "the first tile's picture in block art: \(art)")
        let second = grid.origin(of: 1, scroll: 0)!
        XCTAssertEqual(
            terminal.styles[second.row + grid.pictureRows][second.column],
            .reverse,
            "the chosen tile's title"
        )
    }
}

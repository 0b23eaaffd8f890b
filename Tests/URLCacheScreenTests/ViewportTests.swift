import BlockArt
import Foundation
import URLCacheKit
import XCTest

@testable import URLCacheScreen

/// The view's arithmetic as pure functions: zoom about a point, pan
/// clamped to the image, a resize keeping the centre, and the keys, wheel
/// and drag that drive them.
final class ViewportTests: XCTestCase {
    /// A 4000×3000 photo in a 1200×600 pixel area: fitted at 0.2 by its height.
    private let geometry: ViewGeometry = {
        var geometry = ViewGeometry(
            imageWidth: 4000,
            imageHeight: 3000,
            areaWidth: 1200,
            areaHeight: 600,
            sampleSize: 1
        )
        geometry.top = 1
        geometry.cellWidth = 12
        geometry.cellHeight = 24
        return geometry
    }()

    private func assertRegion(
        _ r: ImageRegion,
        _ x: Double,
        _ y: Double,
        _ w: Double,
        _ h: Double,
        file: StaticString = #filePath,
        line: UInt = #line
    ) {
        for (a, b) in [(r.x, x), (r.y, y), (r.width, w), (r.height, h)] {
            XCTAssertEqual(a, b, accuracy: 0.001, "\(r)", file: file, line: line)
        }
    }

    func testZoomGoesFromFitToOnePixelPerPixelAndOneStepBeyond() {
        XCTAssertEqual(geometry.fitScale, 0.2, accuracy: 1e-9)
        XCTAssertEqual(geometry.maximumZoom, 16, "×8 is 1.6 pixels a source pixel, the first past 1:1; one more step")
        assertRegion(geometry.region(Viewport()), 0, 0, 4000, 3000)
        var view = Viewport()
        for _ in 0..<10 { view = geometry.zoomed(view, steps: 1) }
        XCTAssertEqual(view.zoom, 16)
        // Block art: one source pixel per sample (halves: a cell's width).
        let art = ViewGeometry(imageWidth: 4000, imageHeight: 3000, areaWidth: 160, areaHeight: 96, sampleSize: 1)
        XCTAssertEqual(art.maximumZoom, 64)
        let small = ViewGeometry(imageWidth: 64, imageHeight: 48, areaWidth: 1200, areaHeight: 600, sampleSize: 1)
        XCTAssertEqual(small.maximumZoom, 2, "already larger than 1:1 when fitted: one step")
    }

    func testZoomingInShowsTheAreaShapedCentreAndKeepsAPointStill() {
        let two = geometry.zoomed(Viewport(), steps: 1)
        // 1200×600 pixels at 0.4 a source pixel: 3000×1500 of the source, centred.
        assertRegion(geometry.region(two), 500, 750, 3000, 1500)
        // The wheel about a point: the point stays under the pointer.
        let point = (x: 1000.0, y: 600.0)
        let four = geometry.zoomed(two, steps: 1, about: point)
        let before = geometry.region(two)
        let after = geometry.region(four)
        XCTAssertEqual((point.x - before.x) / before.width, (point.x - after.x) / after.width, accuracy: 1e-9)
        XCTAssertEqual((point.y - before.y) / before.height, (point.y - after.y) / after.height, accuracy: 1e-9)
        XCTAssertEqual(geometry.zoomed(four, steps: -2), Viewport(), "back to fit forgets the centre")
    }

    func testPanningIsClampedToTheImageAndLeavesNothingToUndo() {
        var view = geometry.zoomed(Viewport(), steps: 2)  // 1500×750 of the source
        view = geometry.panned(view, across: 0.25, down: 0)
        assertRegion(geometry.region(view), 1625, 1125, 1500, 750)
        for _ in 0..<20 { view = geometry.panned(view, across: 0.25, down: -0.25) }
        assertRegion(geometry.region(view), 2500, 0, 1500, 750)
        view = geometry.panned(view, across: -0.25, down: 0)
        assertRegion(geometry.region(view), 2125, 0, 1500, 750)
        XCTAssertEqual(geometry.describe(view), "×4 · view at 72%, 13%")
        XCTAssertNil(geometry.describe(Viewport()))
        XCTAssertEqual(geometry.panned(Viewport(), across: 0.25, down: 0), Viewport(), "nothing to pan at fit")
    }

    func testAResizeKeepsTheViewsCentre() {
        var view = geometry.zoomed(Viewport(), steps: 2)
        view = geometry.panned(view, across: -0.5, down: 0.25)
        let before = geometry.region(view)
        var wider = geometry
        wider.areaWidth = 1600
        wider.areaHeight = 900
        let after = wider.region(view)
        XCTAssertEqual(before.x + before.width / 2, after.x + after.width / 2, accuracy: 1e-9)
        XCTAssertEqual(before.y + before.height / 2, after.y + after.height / 2, accuracy: 1e-9)
        XCTAssertEqual(after.width / after.height, 1600 / 900, accuracy: 1e-9, "the region takes the area's shape")
    }

    /// The keys, the wheel and a drag, through the screen's logic.
    func testKeysWheelAndDragDriveTheView() {
        var state = ScreenState(entries: [
            URLEntry(url: URL(string: "https://a.example/a.jpg")!),
            URLEntry(url: URL(string: "https://b.example/b.jpg")!),
        ])
        let toolbar = Toolbar(width: 100)
        func handle(_ event: InputEvent) -> [Effect] {
            ScreenLogic.handle(event, &state, toolbar: toolbar, toolbarRow: 39, geometry: geometry)
        }
        XCTAssertEqual(handle(.key(.character("+"))), [], "no image: nothing to zoom")
        state.image = DecodedImage(
            info: SourceInfo(format: .jpeg, width: 4000, height: 3000),
            pixmap: Pixmap(width: 8, height: 6)
        )
        XCTAssertEqual(handle(.key(.character("h"))), [], "h at fit is help")
        XCTAssertEqual(state.overlay, .help)
        XCTAssertEqual(handle(.key(.character("+"))), [], "a key while the box is open closes it")
        state.overlay = nil
        XCTAssertEqual(handle(.key(.character("+"))), [.view])
        XCTAssertEqual(handle(.key(.character("="))), [.view])
        XCTAssertEqual(state.viewport.zoom, 4)
        XCTAssertEqual(handle(.key(.character("l"))), [.view])
        XCTAssertEqual(handle(.key(.shiftDown)), [.view])
        XCTAssertEqual(handle(.key(.character("h"))), [.view], "h pans once zoomed")
        XCTAssertEqual(handle(.key(.character("-"))), [.view])
        XCTAssertEqual(state.viewport.zoom, 2)
        XCTAssertEqual(
            handle(.key(.right)),
            [.display(force: false, asked: false)],
            "the plain arrows still move through the list"
        )
        XCTAssertEqual(state.viewport, Viewport(), "another entry goes back to fit")
        state.image = DecodedImage(
            info: SourceInfo(format: .jpeg, width: 4000, height: 3000),
            pixmap: Pixmap(width: 8, height: 6)
        )
        // The wheel over the picture's left quarter zooms about it.
        XCTAssertEqual(handle(.wheel(up: true, row: 10, column: 30)), [.view])
        XCTAssertLessThan(geometry.region(state.viewport).x, 500, "about the pointer, not the centre")
        // A drag to the left moves the picture left: the view goes right,
        // by the cells dragged (10 cells of 12 pixels, at 0.4 a source pixel).
        let before = geometry.region(state.viewport)
        XCTAssertEqual(handle(.click(row: 10, column: 70)), [])
        XCTAssertEqual(handle(.release(row: 10, column: 60)), [.view])
        XCTAssertEqual(geometry.region(state.viewport).x - before.x, 10 * 12 / 0.4, accuracy: 1e-6)
        XCTAssertEqual(handle(.key(.character("0"))), [.view])
        XCTAssertEqual(state.viewport, Viewport())
        // A press on the toolbar forgets a drag begun before: its release pans nothing.
        _ = handle(.key(.character("+")))
        _ = handle(.click(row: 10, column: 70))
        _ = handle(.click(row: 39, column: 1))
        XCTAssertEqual(handle(.release(row: 39, column: 1)), [])
        // An image that then fails to decode takes its zoomed view with it.
        let failed = DisplayReport(result: .success(.upToDate), copy: nil)
        ScreenLogic.finished(failed, image: .failure(.unsupportedFormat("text")), automatic: true, now: Date(), &state)
        XCTAssertNil(state.shownImage)
        XCTAssertEqual(state.viewport, Viewport())
    }

    /// `+ + l 0` as a sequence of events, with the first view's decode
    /// coming back after the next key: each key moves the view, each view
    /// asked for gets a number, and a decode for a view no longer wanted
    /// (an older number, or a region no longer on screen) is not shown.
    func testADecodeThatComesAfterTheNextKeyIsNotShown() {
        var state = ScreenState(entries: [URLEntry(url: URL(string: "https://a.example/a.jpg")!)])
        state.image = DecodedImage(
            info: SourceInfo(format: .jpeg, width: 4000, height: 3000),
            pixmap: Pixmap(width: 8, height: 6)
        )
        state.imageSource = .file("/cache/a.img")
        let toolbar = Toolbar(width: 100)
        func key(_ character: Character) -> [Effect] {
            ScreenLogic.handle(
                .key(.character(character)),
                &state,
                toolbar: toolbar,
                toolbarRow: 39,
                geometry: geometry
            )
        }
        // As the shell does once the keys are read: the pixels at hand scaled up
        // stand in, and the view is asked for.
        func ask() -> (number: Int, region: ImageRegion) {
            let region = geometry.region(state.viewport)
            XCTAssertFalse(ScreenLogic.showPreview(region: region, size: PixelSize(width: 600, height: 300), &state))
            return (ScreenLogic.viewRequested(&state), region)
        }
        XCTAssertEqual(key("+"), [.view])
        let first = ask()
        XCTAssertEqual(first.number, 1)
        XCTAssertEqual(key("+"), [.view])
        let second = ask()
        XCTAssertEqual(second.number, 2)
        // The first view's decode comes back now: an older number, dropped.
        XCTAssertFalse(ScreenLogic.wantsView(number: 1, region: first.region, source: .file("/cache/a.img"), state))
        XCTAssertTrue(ScreenLogic.wantsView(number: 2, region: second.region, source: .file("/cache/a.img"), state))
        XCTAssertEqual(key("l"), [.view])
        // The second's decode after the pan: neither its number nor its
        // region is the one on screen; the pan's own is.
        let panned = ask()
        XCTAssertEqual(panned.number, 3)
        XCTAssertFalse(ScreenLogic.wantsView(number: 2, region: second.region, source: .file("/cache/a.img"), state))
        XCTAssertTrue(ScreenLogic.wantsView(number: 3, region: panned.region, source: .file("/cache/a.img"), state))
        // A decode of another picture is not shown, whatever its number.
        XCTAssertFalse(
            ScreenLogic.wantsView(number: 3, region: panned.region, source: .file("/cache/b.img"), state)
        )
        XCTAssertEqual(key("0"), [.view])
        XCTAssertEqual(state.viewport, Viewport(), "back to fit")
        // + again: the same region as the first view, asked anew. The first
        // view's decode, late, is dropped by its number alone.
        XCTAssertEqual(key("+"), [.view])
        let again = ask()
        XCTAssertEqual(again.region, first.region)
        XCTAssertFalse(
            ScreenLogic.wantsView(number: first.number, region: first.region, source: .file("/cache/a.img"), state)
        )
        XCTAssertTrue(
            ScreenLogic.wantsView(number: again.number, region: again.region, source: .file("/cache/a.img"), state)
        )
    }

    /// The pixels at hand stand in at once: cut from the fitted image.
    func testThePreviewIsCutFromThePixelsAtHand() {
        var state = ScreenState(entries: [URLEntry(url: URL(string: "https://a.example/a.jpg")!)])
        state.image = DecodedImage(
            info: SourceInfo(format: .jpeg, width: 400, height: 300),
            pixmap: Pixmap(width: 40, height: 30, values: (0..<3600).map { Float($0) / 3600 })
        )
        let preview = ScreenLogic.preview(state, region: ImageRegion(x: 100, y: 50, width: 200, height: 100))
        XCTAssertEqual(preview?.image.info.width, 200)
        XCTAssertEqual(preview?.image.info.height, 100)
        XCTAssertEqual(preview?.image.pixmap.width, 20)
        XCTAssertEqual(preview?.image.pixmap.height, 10)
        XCTAssertEqual(preview?.image.pixmap[0, 0], state.image?.pixmap[10, 5])
        XCTAssertEqual(preview?.sharp, false)
    }
    /// A sharp view's pixels are decoded with a margin: a pan that stays
    /// inside it is cut from them, sharp, pixel for pixel; a deeper zoom,
    /// a region outside or another picture is not.
    func testAPanInsideTheLastDecodeIsCutSharpFromIt() {
        var state = ScreenState(entries: [URLEntry(url: URL(string: "https://a.example/a.jpg")!)])
        state.image = DecodedImage(
            info: SourceInfo(format: .jpeg, width: 400, height: 300),
            pixmap: Pixmap(width: 40, height: 30, values: (0..<3600).map { Float($0) / 3600 })
        )
        state.imageSource = .file("/cache/a.jpg")
        // 300×150 source pixels about (200, 100), two pixels each way per source pixel.
        let bytes = PixelImage(
            width: 600,
            height: 300,
            rgb: (0..<540_000).map { UInt8(truncatingIfNeeded: $0 * 7 + $0 / 1800) }
        )
        let decoded = bytes.pixmap()
        state.viewPixels = ScreenState.ViewPixels(
            source: .file("/cache/a.jpg"),
            region: ImageRegion(x: 50, y: 25, width: 300, height: 150),
            pixels: bytes
        )
        let pan = ScreenLogic.preview(
            state,
            region: ImageRegion(x: 100, y: 50, width: 200, height: 100),
            size: PixelSize(width: 400, height: 200)
        )
        XCTAssertEqual(pan?.sharp, true)
        XCTAssertEqual(pan?.image.pixmap.width, 400)
        XCTAssertEqual(pan?.image.pixmap.height, 200)
        XCTAssertEqual(pan?.image.pixmap[0, 0], decoded[100, 50])
        XCTAssertEqual(pan?.image.pixmap[399, 199], decoded[499, 249])
        XCTAssertEqual(
            pan?.image.pixmap.pixelImage(),
            bytes.cropped(x: 100, y: 50, width: 400, height: 200),
            "the bytes as decoded"
        )
        // Twice as deep: the decoded pixels, scaled up, stand in.
        let deeper = ScreenLogic.preview(
            state,
            region: ImageRegion(x: 150, y: 75, width: 100, height: 50),
            size: PixelSize(width: 400, height: 200)
        )
        XCTAssertEqual(deeper?.sharp, false)
        XCTAssertEqual(deeper?.image.pixmap.width, 200)
        XCTAssertEqual(deeper?.image.pixmap[0, 0], decoded[200, 100])
        // Past the margin, the fitted image's pixels stand in.
        let outside = ScreenLogic.preview(
            state,
            region: ImageRegion(x: 0, y: 0, width: 200, height: 100),
            size: PixelSize(width: 400, height: 200)
        )
        XCTAssertEqual(outside?.sharp, false)
        XCTAssertEqual(outside?.image.pixmap.width, 20)
        // Another picture's pixels are never used.
        state.imageSource = .file("/cache/b.jpg")
        let other = ScreenLogic.preview(
            state,
            region: ImageRegion(x: 100, y: 50, width: 200, height: 100),
            size: PixelSize(width: 400, height: 200)
        )
        XCTAssertEqual(other?.sharp, false)
        XCTAssertEqual(other?.image.pixmap.width, 20)
    }

    /// What a sharp view decodes: its region and a quarter of its size
    /// on every side, cut at the image's edges.
    func testTheMarginIsAQuarterOfTheViewEachWayInsideTheImage() {
        let geometry = ViewGeometry(imageWidth: 400, imageHeight: 300, areaWidth: 100, areaHeight: 50, sampleSize: 1)
        XCTAssertEqual(
            geometry.withMargin(ImageRegion(x: 100, y: 50, width: 200, height: 100)),
            ImageRegion(x: 50, y: 25, width: 300, height: 150)
        )
        XCTAssertEqual(
            geometry.withMargin(ImageRegion(x: 0, y: 200, width: 200, height: 100)),
            ImageRegion(x: 0, y: 175, width: 250, height: 125)
        )
    }
}

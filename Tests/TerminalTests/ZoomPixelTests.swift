import Foundation
import URLCacheHarness
import URLCacheTestSupport
import XCTest

/// Zoom and pan with real pixels, in real kitty and `xterm -ti vt340`
/// under Xvfb: after `+ +` on a 4000×3000 photo the picture on screen is
/// the source's centre region at ×4 (PSNR against that region, area-
/// averaged in linear light to the picture's box); after `l` the region a
/// quarter view to the right; after `0` the whole photo again.
final class ZoomPixelTests: NginxTestCase {
    override func setUpWithError() throws {
        try super.setUpWithError()
        let made = try runProgram(
            URL(fileURLWithPath: "/usr/bin/python3"),
            [
                Fixtures.packageRoot.appendingPathComponent("Tests/Tools/make-zoom-photo.py").path,
                nginx.root.file("zoom.jpg"),
            ]
        )
        guard made.status == 0 else { throw XCTSkip("python3-numpy and python3-pil make the photo: \(made.stderr)") }
    }

    private var photo: String { nginx.root.file("zoom.jpg") }

    /// The region the last sharp view showed, from the screen's log
    /// (decoded, or cut from the pixels a decode had at hand).
    private func shownRegion(_ log: String) throws -> (x: Double, y: Double, width: Double, height: Double) {
        let line = try XCTUnwrap(sharpViews(log).last, "a sharp view was decoded")
        let words = line.split(separator: " ")
        let index = try XCTUnwrap(words.firstIndex(of: "view"))
        let place = words[index + 1].split(separator: ",").compactMap { Double($0) }
        let size = words[index + 2].split(separator: "x").compactMap { Double($0) }
        return (place[0], place[1], size[0], size[1])
    }

    /// The source's region cut out at its own size (fractional edges
    /// area-averaged), for termshot to fit to the picture's box.
    private func cut(_ r: (x: Double, y: Double, width: Double, height: Double), name: String) throws -> String {
        let out = home.file(name)
        let script =
            "from PIL import Image; im = Image.open('\(photo)').convert('RGB'); "
            + "im.resize((\(Int(r.width.rounded())), \(Int(r.height.rounded()))), Image.BOX, "
            + "box=(\(r.x), \(r.y), \(r.x + r.width), \(r.y + r.height))).save('\(out)')"
        XCTAssertEqual(try runProgram(URL(fileURLWithPath: "/usr/bin/python3"), ["-c", script]).status, 0)
        return out
    }

    /// The screen on the photo in `terminal`, logging to `log`, after `keys`.
    private func screenShot(_ terminal: String, keys: String, log: String) throws -> String {
        let list = try writeList([nginx.url("/zoom.jpg")], in: home)
        let screen =
            Termshot.clean + [
                "NO_PROXY=127.0.0.1", Paths.binary.path, "--config", list, "--cache-dir", home.file("cache"),
                "--log-file", log,
            ]
        return try Termshot.shot(terminal, screen, in: home, keys: keys, wait: terminal == "kitty" ? 7 : 5)
    }

    /// The screen in `terminal`, `keys` typed, its picture measured
    /// against the region the log names, and against that region moved a
    /// quarter of a view to the right (which must measure far worse).
    private func zoomed(
        _ terminal: String,
        keys: String,
        rows: String
    ) throws -> (db: Double, moved: Double, region: (x: Double, y: Double, width: Double, height: Double)) {
        let log = home.file("screen-\(UUID().uuidString).log")
        let shot = try screenShot(terminal, keys: keys, log: log)
        let r = try shownRegion(log)
        let right = (r.x + r.width / 4, r.y, r.width, r.height)
        let db = try Termshot.measure(shot, against: try cut(r, name: "region.png"), rows: rows).db
        let moved = try Termshot.measure(shot, against: try cut(right, name: "moved.png"), rows: rows).db
        return (db, moved, r)
    }

    private func assertZoomPanAndFit(_ terminal: String, rows: String, atLeast decibels: Double) throws {
        let four = try zoomed(terminal, keys: "plus plus", rows: rows)
        if four.db == 0 { throw XCTSkip("\(terminal) opened no window here") }
        // Fitted by its height, ×4 shows a quarter of it: 750 rows about the centre.
        XCTAssertEqual(four.region.height, 750, accuracy: 0.5)
        XCTAssertEqual(four.region.x + four.region.width / 2, 2000, accuracy: 0.5)
        XCTAssertEqual(four.region.y + four.region.height / 2, 1500, accuracy: 0.5)
        XCTAssertGreaterThan(four.db, decibels, "the centre region at ×4, sharp")
        XCTAssertLessThan(four.moved, four.db - 8, "and not any other region")

        let panned = try zoomed(terminal, keys: "plus plus l", rows: rows)
        XCTAssertEqual(
            panned.region.x,
            four.region.x + four.region.width / 4,
            accuracy: 0.5,
            "a quarter view to the right"
        )
        XCTAssertGreaterThan(panned.db, decibels)

        // The ×4 view came first (keys typed while loading would leave the
        // fitted photo up, and pass): 0, typed once it is drawn, then fits
        // the whole photo again. (Typed at once, a slow sixel draw lets the
        // screen read `+ 0` together, and it rightly never zooms.)
        let fitLog = home.file("fit.log")
        let fitted = try Termshot.measure(
            try screenShot(terminal, keys: "plus plus / 0", log: fitLog),
            against: photo,
            rows: rows
        )
        XCTAssertTrue(
            sharpViews(fitLog).contains { $0.contains("x750.0 ") },
            "×4 was shown before 0: \(sharpViews(fitLog))"
        )
        XCTAssertGreaterThan(fitted.db, decibels, "0: the whole photo again")
    }

    func testKittyZoomsWithRealPixels() throws {
        // kitty: rows 1–35 of 17 pixels are the image area; the title row above shows the background the picture is told from.
        try assertZoomPanAndFit("kitty", rows: "0:620", atLeast: 27)
    }

    func testSixelZoomsWithRealPixels() throws {
        // xterm's 100×30 cells of 8×17 with a 2-pixel border: rows 1–24.
        try assertZoomPanAndFit("xterm-sixel", rows: "19:427", atLeast: 25)
    }
}

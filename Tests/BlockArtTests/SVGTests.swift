import Foundation
import URLCacheTestSupport
import XCTest

@testable import BlockArt

/// SVG through librsvg: rendered at exactly the size shown (a zoom renders
/// again, sharp), nothing outside the document ever read, and hostile
/// documents bounded.
final class SVGTests: XCTestCase {
    private func path(_ name: String) -> String { Fixtures.svg.appendingPathComponent(name).path }

    /// The sRGB level (0–255) of channel `c` at (x, y).
    private func level(_ pixmap: Pixmap, _ x: Int, _ y: Int, _ c: Int) -> Int {
        let v = Double(pixmap.values[(y * pixmap.width + x) * 3 + c])
        return Int((255 * (v <= 0.0031308 ? v * 12.92 : 1.055 * pow(v, 1 / 2.4) - 0.055)).rounded())
    }

    func testShapesAndAnInlineImageAtTheSizeAsked() throws {
        let image = try ImageDecoder.decode(path: path("shapes.svg")) { _ in PixelSize(width: 240, height: 160) }
        XCTAssertEqual(image.info, SourceInfo(format: .svg, width: 120, height: 80))
        XCTAssertEqual(image.pixmap.width, 240, "rendered at the size asked, not its own")
        let p = image.pixmap
        XCTAssertEqual([level(p, 20, 80, 0), level(p, 20, 80, 1), level(p, 20, 80, 2)], [255, 0, 0])
        XCTAssertEqual([level(p, 180, 80, 0), level(p, 180, 80, 2)], [0, 255], "the blue disc")
        XCTAssertEqual([level(p, 230, 8, 0), level(p, 230, 8, 1)], [0, 255], "the inline data: image")
        let tall = try ImageDecoder.decode(path: path("viewbox-only.svg")) {
            PixelSize(width: $0.width, height: $0.height)
        }
        XCTAssertEqual(tall.info, SourceInfo(format: .svg, width: 300, height: 150), "its viewBox's size")
    }

    /// Drawn straight into the rows handed on and unpremultiplied there,
    /// the picture is rsvg-convert's at the same size, within a level: a
    /// blur, a pattern, a line and a translucent square over a gradient.
    func testThePictureIsRsvgConvertsAtTheSameSize() throws {
        let file = try XCTUnwrap(fopen(path("seam.svg"), "rb"))
        defer { fclose(file) }
        let source = try SVGRowSource(file: file, limits: DecodeLimits())
        try source.start(minWidth: 160, minHeight: 120)
        let whole = try ImageDecoder.decodeRGBA8(path: path("seam.png"))
        XCTAssertEqual([source.width, source.height, whole.width, whole.height], [160, 120, 160, 120])
        var worst = 0
        for y in 0..<120 {
            let row = try XCTUnwrap(source.heldRow(y))
            for i in 0..<(160 * 4) { worst = max(worst, abs(Int(row[i]) - Int(whole.pixels[y * 160 * 4 + i]))) }
        }
        XCTAssertLessThanOrEqual(worst, 1)
    }

    /// Block art's pixmap is librsvg's drawing at the pixmap's own size, not
    /// a larger drawing filtered down to it: each pixel librsvg draws is
    /// already its area's coverage. (At half the raster, as a JPEG is
    /// decoded, edges were up to 32 levels off.)
    func testThePixmapIsDrawnAtItsOwnSize() throws {
        let image = try ImageDecoder.decode(path: path("seam.svg"), samples: (4, 6)) { _ in
            PixelSize(width: 160, height: 120)
        }
        let drawn = try ImageDecoder.decodeRGBA8(path: path("seam.png"))
        XCTAssertEqual([image.pixmap.width, image.pixmap.height, drawn.width], [160, 120, 160])
        var worst = 0
        for y in 0..<120 {
            for x in 0..<160 {
                for c in 0..<3 {
                    worst = max(worst, abs(level(image.pixmap, x, y, c) - Int(drawn.pixels[(y * 160 + x) * 4 + c])))
                }
            }
        }
        XCTAssertLessThanOrEqual(worst, 1)
    }

    /// Asked for a shape not its own (block art samples a cell finer down
    /// than across), it is drawn stretched by cairo's transform: no band of
    /// background at its sides, as librsvg's own fitting would leave (seen
    /// in xterm's block art).
    func testAnotherShapeIsStretchedNotLetterboxed() throws {
        let image = try ImageDecoder.decode(path: path("shapes.svg")) { _ in PixelSize(width: 48, height: 64) }
        XCTAssertEqual(image.pixmap.width, 48)
        for y in [2, 32, 61] {
            XCTAssertEqual(level(image.pixmap, 0, y, 0), 255, "red at the left edge, row \(y)")
            XCTAssertEqual(level(image.pixmap, 47, y, 1), 255, "white or green at the right edge, row \(y)")
        }
    }

    /// A zoom into 10x10 document pixels at 200x200 is drawn again: the
    /// red half's edge at x = 60 stays one pixel wide, as no enlarged
    /// raster could leave it.
    func testAZoomRendersTheRegionAgainSharp() throws {
        let region = ImageRegion(x: 55, y: 35, width: 10, height: 10)
        let zoomed = try ImageDecoder.decode(path: path("shapes.svg"), region: region) { _ in
            PixelSize(width: 200, height: 200)
        }
        let row = (0..<200).map { level(zoomed.pixmap, $0, 100, 1) }
        XCTAssertEqual(row[..<99].max(), 0, "red up to the edge")
        XCTAssertEqual(row[101...].min(), 255, "white after it")
        // A region off the document's pixels: its edge lands where the
        // region puts it, at (60 - 55.5) / 10 of the view.
        let off = try ImageDecoder.decode(
            path: path("shapes.svg"),
            region: ImageRegion(x: 55.5, y: 35, width: 10, height: 10)
        ) { _ in PixelSize(width: 200, height: 200) }
        let moved = (0..<200).map { level(off.pixmap, $0, 100, 1) }
        XCTAssertEqual(moved[..<90].max(), 0, "red up to the edge")
        XCTAssertEqual(moved[90...].min(), 255, "white from it")
    }

    /// The screen decodes no more pixels than a picture has, but an SVG is
    /// drawn at any size: a 48x48 icon in a large window is drawn at the
    /// art's size, not at 48x48 and enlarged.
    func testASmallDocumentIsDrawnAtTheArtsSizeInTheScreen() {
        let icon = SourceInfo(format: .svg, width: 48, height: 48)
        let art = Renderer.artSize(
            for: icon,
            columns: 60,
            rows: 30,
            cellAspect: 0.5,
            symbols: .blocks,
            atMostSource: true
        )
        XCTAssertEqual(art.pixmap, PixelSize(width: 60 * 8, height: 30 * 8))
        XCTAssertEqual(icon.atMost(PixelSize(width: 480, height: 480)), PixelSize(width: 480, height: 480))
        let png = SourceInfo(format: .png, width: 48, height: 48)
        XCTAssertEqual(png.atMost(PixelSize(width: 480, height: 480)), PixelSize(width: 48, height: 48))
    }

    func testNothingOutsideTheDocumentIsRead() throws {
        let folder = NSTemporaryDirectory() + "svg-\(getpid())"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for name in ["secret.png", "other.svg"] {
            try FileManager.default.copyItem(atPath: path(name), toPath: folder + "/" + name)
        }
        let text = try String(contentsOfFile: path("outside.svg"), encoding: .utf8)
        try text.replacingOccurrences(of: "/PLACEHOLDER", with: folder)
            .write(toFile: folder + "/outside.svg", atomically: true, encoding: .utf8)
        let image = try ImageDecoder.decode(path: folder + "/outside.svg") { _ in PixelSize(width: 40, height: 10) }
        for x in 0..<40 {
            XCTAssertEqual(level(image.pixmap, x, 5, 1), 255, "no magenta at x = \(x): nothing was read")
        }
    }

    func testHostileDocumentsAreBounded() throws {
        // Ten million pixels a side: rendered at the size asked.
        let huge = try ImageDecoder.decode(path: path("huge.svg")) { _ in PixelSize(width: 64, height: 64) }
        XCTAssertEqual(huge.info.width, 65_535, "its size, scaled to the largest side allowed")
        XCTAssertEqual(level(huge.pixmap, 32, 32, 0), 0, "the disc at the centre")
        // A billion laughs: libxml2 refuses the expansion, in one line.
        XCTAssertThrowsError(try ImageDecoder.decode(path: path("laughs.svg")) { _ in PixelSize(width: 8, height: 8) })
        {
            XCTAssertTrue("\($0)".hasPrefix("corrupt SVG image: "), "\($0)")
        }
        // 100,000 nested groups: refused or drawn, in bounded time, never a crash.
        let deep = NSTemporaryDirectory() + "deep-\(getpid()).svg"
        let open = String(repeating: "<g>", count: 100_000)
        let close = String(repeating: "</g>", count: 100_000)
        try
            (#"<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">"# + open
            + #"<rect width="10" height="10"/>"#
            + close + "</svg>").write(toFile: deep, atomically: true, encoding: .utf8)
        defer { unlink(deep) }
        do {
            _ = try ImageDecoder.decode(path: deep) { _ in PixelSize(width: 8, height: 8) }
        } catch {
            XCTAssertTrue("\(error)".hasPrefix("corrupt SVG image: "), "\(error)")
        }
    }
}

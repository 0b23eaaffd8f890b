import Foundation
import URLCacheTestSupport
import XCTest

@testable import BlockArt

/// The art made while a picture decodes (`ImageDecoder.decode(…, art:)`):
/// a row of cells at a time as the filtered rows under it are finished.
/// Its cells must be exactly those `Renderer.render` makes of the finished
/// pixmap, in every option, and it is not made where the decode cannot make
/// the art's pixmap itself.
final class ArtAheadTests: XCTestCase {
    /// Decodes `file` for art in `options` in `columns` × `rows` cells, as `render` does.
    private func decode(
        _ file: URL,
        _ options: RenderOptions,
        columns: Int = 60,
        rows: Int = 20
    ) throws -> (image: DecodedImage, art: PlannedArt?) {
        func fitted(_ info: SourceInfo) -> (cells: CellSize, pixmap: PixelSize) {
            Renderer.artSize(for: info, columns: columns, rows: rows, cellAspect: 0.5, symbols: options.symbols)
        }
        return try ImageDecoder.decode(
            path: file.path,
            samples: Renderer.samples(options.symbols),
            size: { fitted($0).pixmap },
            art: { ArtPlan(columns: fitted($0).cells.columns, rows: fitted($0).cells.rows, options: options) }
        )
    }

    private func image(_ name: String) -> URL { Fixtures.images.appendingPathComponent(name) }

    func testTheArtMadeWithTheDecodeIsTheRenderersArtOfItsPixmap() throws {
        let settings = [
            RenderOptions(symbols: .blocks, colors: .truecolor),
            RenderOptions(symbols: .sextants, colors: .truecolor),
            RenderOptions(symbols: .halves, colors: .palette256, dither: .diffusion),
            RenderOptions(symbols: .quadrants, colors: .palette256, dither: .ordered),
            RenderOptions(symbols: .ascii, colors: .ansi16),
        ]
        // Rows in order on two threads (PNG, JPEG), and rows out of order
        // (Adam7), which add to rows already finished.
        for name in ["large.png", "earth.jpg", "photo.jpg", "large-interlaced.png"] {
            for options in settings {
                let (image, made) = try decode(image(name), options)
                let art = try XCTUnwrap(made, "\(name) \(options)")
                let rendered = Renderer.render(
                    image.pixmap,
                    columns: art.plan.columns,
                    rows: art.plan.rows,
                    options: options
                )
                XCTAssertEqual(art.grid, rendered, "\(name) \(options)")
                XCTAssertEqual(art.plan.options, options)
                XCTAssertGreaterThan(Set(art.grid.cells.map(\.glyph)).count, 1, "\(name): a picture, not a blank")
            }
        }
    }

    func testThePixelsAreThoseOfADecodeWithoutArt() throws {
        let options = RenderOptions(symbols: .sextants)
        let (image, _) = try decode(self.image("large.png"), options)
        let plain = try ImageDecoder.decode(
            path: Fixtures.images.appendingPathComponent("large.png").path,
            samples: Renderer.samples(options.symbols)
        ) { _ in PixelSize(width: image.pixmap.width, height: image.pixmap.height) }
        XCTAssertEqual(image.pixmap, plain.pixmap)
    }

    func testNoArtWhereTheDecodeDoesNotMakeItsPixmap() throws {
        // EXIF-turned or flipped: the rows come in the stored order.
        let upright = try decode(Fixtures.jpeg.appendingPathComponent("orientation1.jpg"), RenderOptions(), columns: 12)
        XCTAssertNotNil(upright.art, "the same picture stored upright")
        for turned in ["orientation3.jpg", "orientation6.jpg"] {
            XCTAssertNil(try decode(Fixtures.jpeg.appendingPathComponent(turned), RenderOptions(), columns: 12).art)
        }
        // A pixmap other than the art's: the screen decodes a picture smaller
        // than the art's sub-cells at its own size, and the renderer enlarges it.
        let small = try ImageDecoder.decode(
            path: Fixtures.pngsuite.appendingPathComponent("basn2c08.png").path,
            size: { PixelSize(width: $0.width, height: $0.height) },
            art: { _ in ArtPlan(columns: 60, rows: 20, options: RenderOptions()) }
        )
        XCTAssertNil(small.art)
        // A zoomed region: its rows are the region's.
        let region = try ImageDecoder.decode(
            path: image("large.png").path,
            region: ImageRegion(x: 0.25, y: 0.25, width: 0.5, height: 0.5),
            size: { _ in PixelSize(width: 40, height: 20) },
            art: { _ in ArtPlan(columns: 40, rows: 10, options: RenderOptions()) }
        )
        XCTAssertNil(region.art)
    }
}

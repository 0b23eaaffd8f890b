import Foundation
import URLCacheTestSupport
import XCTest

@testable import BlockArt

/// The renderer as a pure function of pixels, area and options.
final class RendererTests: XCTestCase {
    /// A pixmap from sRGB rows.
    private func pixmap(_ width: Int, _ height: Int, _ color: (Int, Int) -> RGB8) -> Pixmap {
        var values: [Float] = []
        for y in 0..<height {
            for x in 0..<width {
                let c = LinearRGB(srgb: color(x, y))
                values += [c.r, c.g, c.b]
            }
        }
        return Pixmap(width: width, height: height, values: values)
    }

    /// What a halves cell shows at (column, row) of its 2×2 quarters.
    private func shown(_ cell: Cell, _ x: Int, _ y: Int) -> TerminalColor {
        let covered: Bool
        switch cell.glyph {
        case "\u{2580}": covered = y == 0
        case "\u{2584}": covered = y == 1
        case "\u{258C}": covered = x == 0
        case "\u{2590}": covered = x == 1
        case "\u{2588}": covered = true
        default: covered = false
        }
        return covered ? cell.foreground : cell.background
    }

    func testOneCellPerOneByTwoPixelsShowsTheExactPixels() throws {
        // A file with no gAMA: its numbers are the light shown (basn2c08's
        // gAMA 1.0 now brightens it, as browsers do).
        let path = Fixtures.pngsuite.appendingPathComponent("f00n2c08.png").path
        let rgba = try ImageDecoder.decodeRGBA8(path: path)
        XCTAssertEqual(rgba.width, 32)
        let decoded = try ImageDecoder.decode(path: path) { _ in
            Renderer.pixmapSize(columns: 32, rows: 16, symbols: .halves)
        }
        let grid = Renderer.render(decoded.pixmap, columns: 32, rows: 16, options: RenderOptions())
        for row in 0..<16 {
            for column in 0..<32 {
                for half in 0..<2 {
                    let i = ((row * 2 + half) * 32 + column) * 4
                    let pixel = RGB8(rgba.pixels[i], rgba.pixels[i + 1], rgba.pixels[i + 2])
                    XCTAssertEqual(shown(grid[column, row], 0, half), .rgb(pixel), "cell \(column),\(row) half \(half)")
                }
            }
        }
    }

    func testStripesAverageInLinearLight() {
        // 1-px black and white stripes, four per cell: light adds, so the
        // mean within a sub-cell is sRGB ≈ 188, not the 128 an sRGB average
        // would give.
        let stripes = pixmap(64, 32) { x, _ in x % 2 == 0 ? RGB8(255, 255, 255) : RGB8(0, 0, 0) }
        let grid = Renderer.render(stripes, columns: 16, rows: 8, options: RenderOptions())
        for cell in grid.cells {
            for color in [cell.foreground, cell.background] {
                guard case let .rgb(c) = color else { return XCTFail("\(color)") }
                XCTAssertTrue((186...189).contains(c.r), "\(c)")
            }
        }
    }

    func testASideShowsTheSRGBMeanOfItsSubCells() {
        // Black and white sub-cells (2×1 pixels of halves' 2×4 grid) in a
        // checkerboard: no glyph separates them, and a side shows the mean
        // of their sRGB levels, 128, the least sRGB error. The linear mean,
        // 188, is lighter than any part of the cell looks up close.
        let checkers = pixmap(64, 32) { x, y in (x / 2 + y) % 2 == 0 ? RGB8(255, 255, 255) : RGB8(0, 0, 0) }
        let grid = Renderer.render(checkers, columns: 16, rows: 8, options: RenderOptions())
        for cell in grid.cells {
            for color in [cell.foreground, cell.background] {
                XCTAssertEqual(color, .rgb(RGB8(128, 128, 128)))
            }
        }
    }

    func testEdgesPickTheMatchingGlyph() {
        let leftRight = pixmap(2, 4) { x, _ in x == 0 ? RGB8(255, 0, 0) : RGB8(0, 0, 255) }
        let cell = Renderer.render(leftRight, columns: 1, rows: 1, options: RenderOptions())[0, 0]
        XCTAssertEqual(shown(cell, 0, 0), .rgb(RGB8(255, 0, 0)))
        XCTAssertEqual(shown(cell, 1, 0), .rgb(RGB8(0, 0, 255)))
        let sextant = pixmap(2, 6) { x, y in x == 0 && y < 2 ? RGB8(255, 255, 255) : RGB8(0, 0, 0) }
        let s = Renderer.render(sextant, columns: 1, rows: 1, options: RenderOptions(symbols: .sextants))[0, 0]
        XCTAssertEqual(s.glyph, "\u{1FB00}", "top-left sextant")
    }

    func testEighthBlocksTakeEdgesAtEighths() {
        // On the 8×8 grid: white over the bottom three eighths is ▃ in white
        // on black; white over the left five eighths is ▋. (A shape's
        // foreground is the side its glyph paints: never swapped.)
        let options = RenderOptions(symbols: .blocks)
        let white = TerminalColor.rgb(RGB8(255, 255, 255))
        let bottom = Renderer.render(
            pixmap(8, 8) { _, y in y >= 5 ? RGB8(255, 255, 255) : RGB8(0, 0, 0) },
            columns: 1,
            rows: 1,
            options: options
        )[0, 0]
        XCTAssertEqual(bottom.glyph, "\u{2583}")
        XCTAssertEqual(bottom.foreground, white)
        let left = Renderer.render(
            pixmap(8, 8) { x, _ in x < 5 ? RGB8(255, 255, 255) : RGB8(0, 0, 0) },
            columns: 1,
            rows: 1,
            options: options
        )[0, 0]
        XCTAssertEqual(left.glyph, "\u{258B}")
        XCTAssertEqual(left.foreground, white)
        // Every split is listed once: no two shapes cover the same sub-cells
        // or each other's complement.
        let masks = SymbolSet.blocks.shapes.map(\.mask)
        XCTAssertEqual(Set(masks.flatMap { [$0, ~$0] }).count, masks.count * 2)
        XCTAssertEqual(masks.count, 7 + 6 + 6, "quadrants, then the eighths that are no half")
    }

    func testPaletteModesUseOnlyTheirColours() {
        let image = pixmap(40, 40) { x, y in RGB8(UInt8(x * 6), UInt8(y * 6), 128) }
        for (mode, range) in [(ColorMode.palette256, 16...255), (.ansi16, 0...15), (.ansi8, 0...7)] {
            for dither in Dither.allCases {
                let grid = Renderer.render(
                    image,
                    columns: 20,
                    rows: 10,
                    options: RenderOptions(colors: mode, dither: dither)
                )
                for cell in grid.cells {
                    for color in [cell.foreground, cell.background] {
                        guard case let .index(i) = color else { return XCTFail("\(mode): \(color)") }
                        XCTAssertTrue(range.contains(Int(i)), "\(mode) \(dither): \(i)")
                    }
                }
            }
        }
        let mono = Renderer.render(image, columns: 20, rows: 10, options: RenderOptions(colors: .none))
        XCTAssertTrue(mono.cells.allSatisfy { $0.foreground == .default && $0.background == .default })
    }

    /// sRGB 111 lies between the gray ramp's 108 and 118 (the cube's
    /// nearest are 95 and 135): in 256 colours a flat area takes the
    /// nearest single entry, 108, in every cell alike. Two grays in a
    /// pattern would show 111 from afar, but up close they are speckle,
    /// which screenshots measure worse (Benchmarks/terminals.sh, urxvt).
    func testPaletteModesShowAFlatAreaFlat() throws {
        let image = pixmap(16, 16) { _, _ in RGB8(111, 111, 111) }
        let grid = Renderer.render(image, columns: 8, rows: 4, options: RenderOptions(colors: .palette256))
        for cell in grid.cells {
            guard case let .index(b) = cell.background else { return XCTFail("not a palette colour: \(cell)") }
            XCTAssertEqual(b, 242, "gray 108: \(cell)")
            XCTAssertTrue(cell.glyph == " " || cell.foreground == cell.background, "one colour, no pattern: \(cell)")
        }
    }

    func testRenderingIsAPureFunction() {
        let image = pixmap(33, 17) { x, y in RGB8(UInt8(x * 7 % 256), UInt8(y * 13 % 256), UInt8((x * y) % 256)) }
        for symbols in SymbolSet.allCases {
            let options = RenderOptions(symbols: symbols, colors: .palette256, dither: .diffusion)
            XCTAssertEqual(
                Renderer.render(image, columns: 11, rows: 5, options: options),
                Renderer.render(image, columns: 11, rows: 5, options: options)
            )
        }
    }

    func testFitKeepsTheAspect() {
        XCTAssertTrue(Geometry.fit(width: 800, height: 600, columns: 160, rows: 48) == CellSize(columns: 128, rows: 48))
        XCTAssertTrue(Geometry.fit(width: 32, height: 32, columns: 32, rows: 16) == CellSize(columns: 32, rows: 16))
        XCTAssertTrue(Geometry.fit(width: 1000, height: 100, columns: 80, rows: 24) == CellSize(columns: 80, rows: 4))
        XCTAssertTrue(
            Geometry.fit(width: 100, height: 100, columns: 80, rows: 24, cellAspect: 1)
                == CellSize(columns: 24, rows: 24)
        )
    }

    func testAnsiWriterEmitsSGRAndResetsEachRow() {
        let grid = CellGrid(
            columns: 2,
            rows: 1,
            cells: [
                Cell(glyph: "\u{2580}", foreground: .rgb(RGB8(1, 2, 3)), background: .index(200)),
                Cell(glyph: "\u{2580}", foreground: .rgb(RGB8(1, 2, 3)), background: .index(9)),
            ]
        )
        XCTAssertEqual(AnsiWriter.text(grid), "\u{1B}[38;2;1;2;3;48;5;200m\u{2580}\u{1B}[101m\u{2580}\u{1B}[0m\n")
    }

    func testSRGBRoundTripIsExact() {
        for v in 0...255 {
            XCTAssertEqual(ColorSpace.toSRGB(ColorSpace.toLinear[v]), UInt8(v))
        }
    }

    /// Two threads (top and bottom half) give exactly the cells of one, in
    /// every mode, symbol set and dither, on a picture with detail everywhere.
    func testTwoThreadsGiveExactlyTheOneThreadCells() throws {
        let image = try ImageDecoder.decode(
            path: Fixtures.images.appendingPathComponent("photo.jpg").path,
            samples: (1, 1)
        ) { _ in PixelSize(width: 240, height: 160) }
        for symbols in [SymbolSet.halves, .quadrants, .sextants, .blocks, .ascii] {
            for colors in [ColorMode.truecolor, .palette256, .ansi16, .none] {
                for dither in Dither.allCases {
                    let options = RenderOptions(symbols: symbols, colors: colors, dither: dither)
                    let one = Renderer.render(image.pixmap, columns: 60, rows: 21, options: options, threads: 1)
                    let two = Renderer.render(image.pixmap, columns: 60, rows: 21, options: options, threads: 2)
                    XCTAssertEqual(two, one, "\(symbols) \(colors) \(dither)")
                    XCTAssertGreaterThan(
                        Set(one.cells.map(\.glyph)).count,
                        2,
                        "\(symbols) \(colors) \(dither): art, not a blank"
                    )
                }
            }
        }
    }
}

/// The shapes' sums from rows, columns and quarters, against adding up
/// their sub-cells one by one.
final class ShapePlanTests: XCTestCase {
    func testEveryShapeSumsAsItsSubCellsDo() {
        var generator = SystemRandomNumberGenerator()
        // One room for every set: it is remade when a grid needs another size.
        var parts: [SIMD8<Float>] = []
        for symbols in SymbolSet.allCases where symbols != .ascii {
            let (gx, gy) = (symbols.grid.columns, symbols.grid.rows)
            let values = (0..<gx * gy).map { _ in
                SIMD8<Float>((0..<8).map { lane in lane % 4 == 3 ? 0 : Float.random(in: 0...1, using: &generator) })
            }
            var sums: [SIMD8<Float>] = []
            values.withUnsafeBufferPointer { symbols.plan.sum($0, into: &sums, parts: &parts) }
            XCTAssertEqual(sums.count, symbols.shapes.count)
            for (shape, sum) in zip(symbols.shapes, sums) {
                var expected = SIMD8<Float>.zero
                for k in 0..<gx * gy where shape.mask >> UInt64(k) & 1 == 1 { expected += values[k] }
                XCTAssertLessThan(((sum - expected) * (sum - expected)).sum(), 1e-8, "\(symbols) \(shape.glyph)")
            }
        }
    }

    func testTheEighthBlocksAndQuadrantsSumFromRowsColumnsAndQuarters() {
        let sources = SymbolSet.blocks.plan.sources
        XCTAssertFalse(sources.contains { if case .subCells = $0 { true } else { false } })
        XCTAssertEqual(
            sources.filter { if case .rows = $0 { true } else { false } }.count,
            7,
            "▀ and six lower eighths"
        )
        XCTAssertEqual(
            sources.filter { if case .columns = $0 { true } else { false } }.count,
            7,
            "▌ and six left eighths"
        )
        // Halves on their 2×4 grid: one by one (a few sub-cells each).
        XCTAssertTrue(SymbolSet.halves.plan.sources.allSatisfy { if case .subCells = $0 { true } else { false } })
    }
}

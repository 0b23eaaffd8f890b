/// The renderer: a pure function from pixels to cells. For every cell it
/// tries every glyph of the symbol set with its best two colours (the means,
/// in linear light, of the sub-cells each colour covers) and keeps the one
/// of least squared error; in palette modes the error includes what the
/// palette costs each colour.
public enum Renderer {
    /// The pixmap size the renderer reads for a grid: the symbol set's
    /// sub-cells, one pixel each.
    public static func pixmapSize(columns: Int, rows: Int, symbols: SymbolSet) -> PixelSize {
        PixelSize(width: columns * symbols.grid.columns, height: rows * symbols.grid.rows)
    }

    /// Raster pixels per cell at which the renderer samples the image: the
    /// raster artq measures at, fine enough for every glyph's edges.
    public static let cellRaster = (columns: 8, rows: 24)

    /// Raster pixels per sub-cell of `symbols`: what to pass as `samples`
    /// when decoding straight to `pixmapSize`.
    public static func samples(_ symbols: SymbolSet) -> (x: Int, y: Int) {
        (cellRaster.columns / symbols.grid.columns, cellRaster.rows / symbols.grid.rows)
    }

    /// The size of art for an image inside `columns` × `rows` cells (aspect
    /// kept, see `Geometry.fit`) and the pixmap to decode for it. With
    /// `atMostSource` the pixmap is never larger than the image (the screen
    /// keeps it to re-render on resize; the renderer enlarges it itself),
    /// unless the image is drawn at any size (`SourceInfo.atMost`).
    public static func artSize(
        for image: SourceInfo,
        columns: Int,
        rows: Int,
        cellAspect: Double,
        symbols: SymbolSet,
        atMostSource: Bool = false
    ) -> (cells: CellSize, pixmap: PixelSize) {
        let cells = Geometry.fit(
            width: image.width,
            height: image.height,
            columns: columns,
            rows: rows,
            cellAspect: cellAspect
        )
        let pixmap = pixmapSize(columns: cells.columns, rows: cells.rows, symbols: symbols)
        return (cells, atMostSource ? image.atMost(pixmap) : pixmap)
    }

    /// Renders `pixmap` into `columns` × `rows` cells (resampling it first
    /// when it is not already at the sub-cell size).
    ///
    /// A large grid is rendered on two threads, top half and bottom half,
    /// unless error diffusion carries error from each row to the next: the
    /// cells are the same either way (`threads: 1` forces one).
    public static func render(
        _ pixmap: Pixmap,
        columns: Int,
        rows: Int,
        options: RenderOptions,
        threads: Int = 2
    ) -> CellGrid {
        let size = pixmapSize(columns: columns, rows: rows, symbols: options.symbols)
        let source = pixmap.resampled(width: size.width, height: size.height, samples: samples(options.symbols))
        return CellGrid(
            columns: columns,
            rows: rows,
            cells: cells(0..<rows, of: source, columns: columns, options: options, threads: threads)
        )
    }

    /// Below this many cells a second thread costs more than it saves.
    static let parallelCells = 1000

    /// The cells of `rows` of `source`, already at the sub-cell size: a
    /// large part in two halves at once, unless error diffusion carries
    /// error from each row to the next.
    static func cells(
        _ rows: Range<Int>,
        of source: Pixmap,
        columns: Int,
        options: RenderOptions,
        threads: Int = 2
    ) -> [Cell] {
        let diffused = Quantizer(mode: options.colors, dither: options.dither, columns: columns).dither == .diffusion
        let rowsOf = { @Sendable (part: Range<Int>) -> [Cell] in
            var quantizer = Quantizer(mode: options.colors, dither: options.dither, columns: columns)
            return source.values.withUnsafeBufferPointer { values in
                renderRows(
                    part,
                    of: values,
                    width: source.width,
                    columns: columns,
                    options: options,
                    quantizer: &quantizer
                )
            }
        }
        guard threads > 1, !diffused, columns * rows.count >= parallelCells, rows.count >= 2 else {
            return rowsOf(rows)
        }
        let middle = rows.lowerBound + rows.count / 2
        let halves = TwoCores.map(parts: 2) { half in
            rowsOf(half == 0 ? rows.lowerBound..<middle : middle..<rows.upperBound)
        }
        return halves[0] + halves[1]
    }

    /// The cells of `rows` of a sub-cell-sized pixmap's `values`, `width`
    /// pixels across; `quantizer` goes on from the row before (the error
    /// diffusion owes).
    static func renderRows(
        _ rows: Range<Int>,
        of values: UnsafeBufferPointer<Float>,
        width: Int,
        columns: Int,
        options: RenderOptions,
        quantizer: inout Quantizer
    ) -> [Cell] {
        let (gx, gy) = (options.symbols.grid.columns, options.symbols.grid.rows)
        var block = CellBlock(count: gx * gy)
        var scratch = Scratch()
        let shapes = options.symbols.shapes
        let plan = options.symbols.plan
        var cells: [Cell] = []
        cells.reserveCapacity(columns * rows.count)
        for row in rows {
            for column in 0..<columns {
                block.gather(values, width: width, column: column * gx, row: row * gy, grid: (gx, gy))
                quantizer.prepare(&block.linear, column: column, row: row)
                if options.symbols == .ascii {
                    cells.append(asciiCell(block.linear, quantizer: quantizer))
                } else if options.colors == .none {
                    cells.append(monochromeCell(block.linear, symbols: options.symbols, column: column, row: row))
                } else {
                    cells.append(
                        colorCell(&block, shapes: shapes, plan: plan, quantizer: &quantizer, scratch: &scratch)
                    )
                }
            }
            quantizer.nextRow()
        }
        return cells
    }

    /// Reused buffers: nothing is allocated per cell.
    struct Scratch {
        var fronts: [Quantized] = []
        var backs: [Quantized] = []
        /// Per shape: the sums of its foreground side, packed as the plan
        /// makes them, then unpacked.
        var packedSums: [SIMD8<Float>] = []
        /// Row, column and quarter sums the plan adds shapes from.
        var parts: [SIMD8<Float>] = []
        var sums: [ShapeSums] = []
        /// A number per shape: the least error it could have (truecolour),
        /// or how well its means fit (palette modes' shortlist).
        var perShape: [Float] = []
        /// The shapes whose colour pairs are searched, as indices.
        var order: [Int] = []
    }

    /// One cell's sub-cells, in linear light, then packed with their sRGB
    /// levels (where the error is measured: a person, and the PSNR, see
    /// sRGB) in the lanes `ShapePlan` adds up.
    struct CellBlock {
        let count: Int
        var linear: [LinearRGB]
        /// The sub-cells' sRGB levels, three a sub-cell (`fillLevels`).
        var srgb: [Float]
        var packed: [SIMD8<Float>]
        init(count: Int) {
            self.count = count
            linear = Array(repeating: LinearRGB(0, 0, 0), count: count)
            srgb = Array(repeating: 0, count: count * 3)
            packed = Array(repeating: .zero, count: count)
        }

        /// `srgb` from `linear`, all at once (`ColorSpace.toSRGB(_:into:)`).
        mutating func fillLevels() {
            linear.withUnsafeBufferPointer { linear in
                srgb.withUnsafeMutableBufferPointer { ColorSpace.toSRGB(linear, into: $0) }
            }
        }

        /// Reads the cell whose top-left sub-cell is at `column`, `row` of
        /// a pixmap `width` wide, row by row: no division a sub-cell (two
        /// of them took as long as the rest of the gather).
        mutating func gather(_ values: UnsafeBufferPointer<Float>, width: Int, column: Int, row: Int, grid: (Int, Int))
        {
            let (gx, gy) = grid
            linear.withUnsafeMutableBufferPointer { linear in
                for y in 0..<gy {
                    let start = ((row + y) * width + column) * 3
                    for x in 0..<gx {
                        let i = start + x * 3
                        linear[y * gx + x] = LinearRGB(values[i], values[i + 1], values[i + 2])
                    }
                }
            }
        }
    }

    /// The glyph and colour pair of least squared sRGB error for one cell,
    /// over its sub-cells. Truecolour shows each side's sRGB mean;
    /// palette modes search the palette colours around its linear mean.
    static func colorCell(
        _ block: inout CellBlock,
        shapes: [Shape],
        plan: ShapePlan,
        quantizer: inout Quantizer,
        scratch: inout Scratch
    ) -> Cell {
        let stats = CellStats(&block)
        stats.sumShapes(block, shapes: shapes, plan: plan, scratch: &scratch)
        let best =
            quantizer.mode == .truecolor
            ? truecolorChoice(stats, shapes: shapes, scratch: &scratch)
            : paletteChoice(stats, shapes: shapes, quantizer: quantizer, scratch: &scratch)
        if quantizer.dither == .diffusion {
            var shown = [LinearRGB](repeating: best.bg.linear, count: stats.n)
            for k in 0..<stats.n where best.mask >> UInt64(k) & 1 == 1 { shown[k] = best.fg.linear }
            quantizer.record(target: block.linear, shown: shown)
        }
        return Cell(glyph: best.glyph, foreground: best.fg.terminal, background: best.bg.terminal)
    }

    /// A cell as chosen: which sub-cells take the foreground, the glyph that
    /// paints them, and the two colours.
    struct Choice {
        var mask: UInt64
        var glyph: Unicode.Scalar
        var fg: Quantized
        var bg: Quantized
    }
}

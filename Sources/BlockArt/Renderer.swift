/// How to turn pixels into cells.
public struct RenderOptions: Sendable, Equatable {
    public var symbols: SymbolSet
    public var colors: ColorMode
    public var dither: Dither

    public init(symbols: SymbolSet = .halves, colors: ColorMode = .truecolor, dither: Dither = .none) {
        self.symbols = symbols
        self.colors = colors
        self.dither = dither
    }
}

/// The renderer: a pure function from pixels to cells. For every cell it
/// tries every glyph of the symbol set with its best two colours (the means,
/// in linear light, of the sub-cells each colour covers) and keeps the one
/// of least squared error; in palette modes the error includes what the
/// palette costs each colour.
public enum Renderer {
    /// The pixmap size the renderer reads for a grid: the symbol set's
    /// sub-cells, one pixel each.
    public static func pixmapSize(columns: Int, rows: Int, symbols: SymbolSet) -> (width: Int, height: Int) {
        (columns * symbols.grid.columns, rows * symbols.grid.rows)
    }

    /// Raster pixels per cell at which the renderer samples the image: the
    /// raster artq measures at, fine enough for every glyph's edges.
    public static let cellRaster = (columns: 8, rows: 24)

    /// Raster pixels per sub-cell of `symbols`: what to pass as `samples`
    /// when decoding straight to `pixmapSize`.
    public static func samples(_ symbols: SymbolSet) -> (x: Int, y: Int) {
        (cellRaster.columns / symbols.grid.columns, cellRaster.rows / symbols.grid.rows)
    }

    /// Renders `pixmap` into `columns` × `rows` cells (resampling it first
    /// when it is not already at the sub-cell size).
    public static func render(_ pixmap: Pixmap, columns: Int, rows: Int, options: RenderOptions) -> CellGrid {
        let (gx, gy) = options.symbols.grid
        let size = pixmapSize(columns: columns, rows: rows, symbols: options.symbols)
        let source = pixmap.resampled(width: size.width, height: size.height, samples: samples(options.symbols))
        var quantizer = Quantizer(mode: options.colors, dither: options.dither, columns: columns)
        var block = CellBlock(count: gx * gy)
        var scratch = Scratch()
        let shapes = options.symbols.shapes
        var cells: [Cell] = []
        cells.reserveCapacity(columns * rows)
        source.values.withUnsafeBufferPointer { values in
            for row in 0..<rows {
                for column in 0..<columns {
                    for k in 0..<block.count {
                        let x = column * gx + k % gx, y = row * gy + k / gx
                        let i = (y * size.width + x) * 3
                        block.linear[k] = LinearRGB(values[i], values[i + 1], values[i + 2])
                    }
                    quantizer.prepare(&block.linear, column: column, row: row)
                    if options.symbols == .ascii {
                        cells.append(asciiCell(block.linear, quantizer: quantizer))
                    } else if options.colors == .none {
                        cells.append(monochromeCell(block.linear, symbols: options.symbols, column: column, row: row))
                    } else {
                        cells.append(bestCell(&block, shapes: shapes, quantizer: &quantizer, scratch: &scratch))
                    }
                }
                quantizer.nextRow()
            }
        }
        return CellGrid(columns: columns, rows: rows, cells: cells)
    }

    /// How much a cell's average colour counts against its sub-cells' errors
    /// in palette modes (truecolor keeps the average exactly anyway).
    static let cellMeanWeight: Float = 0.75

    /// Reused buffers: nothing is allocated per cell.
    struct Scratch {
        var fronts: [Quantized] = []
        var backs: [Quantized] = []
        /// The back side's error for each of `backs`.
        var backErrors: [Float] = []
        /// Per shape: the sums of its foreground side.
        var sums: [ShapeSums] = []
        /// The shapes whose colour pairs are searched, as indices.
        var order: [Int] = []
    }

    /// A shape's foreground side: linear and sRGB sums, sub-cell count, and
    /// how much of the cell's energy its two means explain (higher is better).
    struct ShapeSums {
        var front: SIMD3<Float>
        var srgbFront: SIMD3<Float>
        var count: Int
        var score: Float
    }

    /// How many shapes palette modes try colour pairs for.
    static let shortlistLength = 4

    /// One cell's sub-cells, in linear light and in sRGB (where the error
    /// is measured: a person, and the PSNR, see sRGB).
    struct CellBlock {
        let count: Int
        var linear: [LinearRGB]
        var srgb: [SIMD3<Float>]
        init(count: Int) {
            self.count = count
            linear = Array(repeating: LinearRGB(0, 0, 0), count: count)
            srgb = Array(repeating: .zero, count: count)
        }
    }

    /// The glyph and colour pair of least error for one cell: every shape,
    /// with the linear means of the sub-cells on each side as its colours
    /// (so the cell's average light is kept), scored by squared sRGB error.
    /// In palette modes each side tries the palette colours around its mean.
    static func bestCell(_ block: inout CellBlock, shapes: [Shape], quantizer: inout Quantizer,
                         scratch: inout Scratch) -> Cell {
        let n = block.count
        var total = SIMD3<Float>.zero, srgbTotal = SIMD3<Float>.zero
        var energy: Float = 0
        for k in 0..<n {
            let c = block.linear[k]
            total += SIMD3(c.r, c.g, c.b)
            let s = SIMD3(Float(ColorSpace.toSRGB(c.r)), Float(ColorSpace.toSRGB(c.g)), Float(ColorSpace.toSRGB(c.b)))
            block.srgb[k] = s
            srgbTotal += s
            energy += (s * s).sum()
        }
        // Σ|s − colour|² over a side, from its sums alone: |s|² − 2 colour·Σs + count·|colour|².
        @inline(__always) func sideError(_ sum: SIMD3<Float>, _ count: Float, _ color: SIMD3<Float>) -> Float {
            count * (color * color).sum() - 2 * (color * sum).sum()
        }
        let mean = LinearRGB(total.x / Float(n), total.y / Float(n), total.z / Float(n))
        // In palette modes the cell's average counts too: two palette colours
        // in a pattern can show a colour the palette lacks. Its error is
        // taken in sRGB, as the eye (and the measure) sees it; the curve's
        // slope at the mean would be cheaper but steers ~0.3 dB off.
        let weight = quantizer.mode == .truecolor ? 0 : Renderer.cellMeanWeight * Float(n)
        let meanSRGB = SIMD3(Float(ColorSpace.toSRGB(mean.r)), Float(ColorSpace.toSRGB(mean.g)), Float(ColorSpace.toSRGB(mean.b)))
        @inline(__always) func meanError(_ fraction: Float, _ fg: Quantized, _ bg: Quantized) -> Float {
            guard weight > 0 else { return 0 }
            let mixed = fg.vector * fraction + bg.vector * (1 - fraction)
            let shown = SIMD3(Float(ColorSpace.toSRGB(mixed.x)), Float(ColorSpace.toSRGB(mixed.y)), Float(ColorSpace.toSRGB(mixed.z)))
            let d = shown - meanSRGB
            return weight * (d * d).sum()
        }
        quantizer.candidates(mean, into: &scratch.fronts)
        var best = (mask: UInt16(0), glyph: Unicode.Scalar(" "), fg: scratch.fronts[0], bg: scratch.fronts[0])
        var bestError = Float.infinity
        for q in scratch.fronts {
            let e = energy + sideError(srgbTotal, Float(n), q.srgb) + meanError(1, q, q)
            if e < bestError {
                bestError = e
                best = (0, " ", q, q)
            }
        }
        // One pass sums every shape's sides; the colour search then reads them.
        scratch.sums.removeAll(keepingCapacity: true)
        for shape in shapes {
            var front = SIMD3<Float>.zero, srgbFront = SIMD3<Float>.zero
            var count = 0
            for k in 0..<n where shape.mask >> UInt16(k) & 1 == 1 {
                let c = block.linear[k]
                front += SIMD3(c.r, c.g, c.b)
                srgbFront += block.srgb[k]
                count += 1
            }
            let back = total - front
            let score = (front * front).sum() / Float(count) + (back * back).sum() / Float(n - count)
            scratch.sums.append(ShapeSums(front: front, srgbFront: srgbFront, count: count, score: score))
        }
        scratch.order.removeAll(keepingCapacity: true)
        scratch.order.append(contentsOf: shapes.indices)
        if weight > 0, shapes.count > Renderer.shortlistLength {
            // Palette modes search colour pairs only for the few shapes that
            // fit best before quantising: the rest cannot win.
            let sums = scratch.sums
            scratch.order.sort { sums[$0].score > sums[$1].score }
            scratch.order.removeLast(shapes.count - Renderer.shortlistLength)
        }
        if quantizer.mode == .truecolor {
            // One colour a side, its linear mean, shown exactly: score each
            // shape with the means' sRGB and make colours for the winner only.
            @inline(__always) func srgb(_ v: SIMD3<Float>) -> SIMD3<Float> {
                SIMD3(Float(ColorSpace.toSRGB(v.x)), Float(ColorSpace.toSRGB(v.y)), Float(ColorSpace.toSRGB(v.z)))
            }
            var winner: (index: Int, front: SIMD3<Float>, back: SIMD3<Float>)?
            for index in scratch.order {
                let sums = scratch.sums[index]
                let nf = Float(sums.count), nb = Float(n - sums.count)
                let front = sums.front / nf, back = (total - sums.front) / nb
                let e = energy + sideError(sums.srgbFront, nf, srgb(front)) + sideError(srgbTotal - sums.srgbFront, nb, srgb(back))
                if e < bestError {
                    bestError = e
                    winner = (index, front, back)
                }
            }
            if let winner {
                let shape = shapes[winner.index]
                best = (shape.mask, shape.glyph, quantizer.quantize(LinearRGB(winner.front.x, winner.front.y, winner.front.z)),
                        quantizer.quantize(LinearRGB(winner.back.x, winner.back.y, winner.back.z)))
            }
        } else {
            for index in scratch.order {
                let shape = shapes[index], sums = scratch.sums[index]
                let nf = Float(sums.count), nb = Float(n - sums.count)
                let back = (total - sums.front) / nb, srgbBack = srgbTotal - sums.srgbFront, srgbFront = sums.srgbFront
                let front = sums.front / nf
                quantizer.candidates(LinearRGB(front.x, front.y, front.z), into: &scratch.fronts)
                quantizer.candidates(LinearRGB(back.x, back.y, back.z), into: &scratch.backs)
                // The sides' errors first: the mean's error only adds, so a pair
                // already worse without it is skipped before its table look-ups.
                scratch.backErrors.removeAll(keepingCapacity: true)
                var bestBack = Float.infinity
                for qb in scratch.backs {
                    let e = sideError(srgbBack, nb, qb.srgb)
                    scratch.backErrors.append(e)
                    bestBack = min(bestBack, e)
                }
                let fraction = nf / Float(n)
                for qf in scratch.fronts {
                    let ef = energy + sideError(srgbFront, nf, qf.srgb)
                    if ef + bestBack >= bestError { continue }
                    for (b, qb) in scratch.backs.enumerated() {
                        let sides = ef + scratch.backErrors[b]
                        if sides >= bestError { continue }
                        let e = sides + meanError(fraction, qf, qb)
                        if e < bestError {
                            bestError = e
                            best = (shape.mask, shape.glyph, qf, qb)
                        }
                    }
                }
            }
        }
        if quantizer.dither == .diffusion {
            var shown = [LinearRGB](repeating: best.bg.linear, count: n)
            for k in 0..<n where best.mask >> UInt16(k) & 1 == 1 { shown[k] = best.fg.linear }
            quantizer.record(target: block.linear, shown: shown)
        }
        return Cell(glyph: best.glyph, foreground: best.fg.terminal, background: best.bg.terminal)
    }
}

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

    /// Renders `pixmap` into `columns` × `rows` cells (resampling it first
    /// when it is not already at the sub-cell size).
    public static func render(_ pixmap: Pixmap, columns: Int, rows: Int, options: RenderOptions) -> CellGrid {
        let (gx, gy) = options.symbols.grid
        let size = pixmapSize(columns: columns, rows: rows, symbols: options.symbols)
        let source = pixmap.resampled(width: size.width, height: size.height)
        var quantizer = Quantizer(mode: options.colors, dither: options.dither, columns: columns)
        let n = gx * gy
        let masks = options.symbols.masks
        var cells: [Cell] = []
        cells.reserveCapacity(columns * rows)
        var sub = [LinearRGB](repeating: LinearRGB(0, 0, 0), count: n)
        source.values.withUnsafeBufferPointer { values in
            for row in 0..<rows {
                for column in 0..<columns {
                    for k in 0..<n {
                        let x = column * gx + k % gx, y = row * gy + k / gx
                        let i = (y * size.width + x) * 3
                        sub[k] = LinearRGB(values[i], values[i + 1], values[i + 2])
                    }
                    quantizer.prepare(&sub, column: column, row: row)
                    let cell: Cell
                    if options.symbols == .ascii {
                        cell = asciiCell(sub, quantizer: &quantizer)
                    } else if options.colors == .none {
                        cell = monochromeCell(sub, symbols: options.symbols, column: column, row: row)
                    } else {
                        cell = bestCell(sub, masks: masks, symbols: options.symbols, quantizer: &quantizer)
                    }
                    cells.append(cell)
                }
                quantizer.nextRow()
            }
        }
        return CellGrid(columns: columns, rows: rows, cells: cells)
    }

    /// The glyph and colour pair of least error for one cell.
    static func bestCell(_ sub: [LinearRGB], masks: [UInt8], symbols: SymbolSet, quantizer: inout Quantizer) -> Cell {
        let n = sub.count
        var tr: Float = 0, tg: Float = 0, tb: Float = 0, energy: Float = 0
        for c in sub {
            tr += c.r; tg += c.g; tb += c.b
            energy += c.r * c.r + c.g * c.g + c.b * c.b
        }
        // Uniform cell first: one colour for the whole cell.
        let mean = LinearRGB(tr / Float(n), tg / Float(n), tb / Float(n))
        let flat = quantizer.quantize(mean)
        var bestError = energy - (tr * tr + tg * tg + tb * tb) / Float(n) + Float(n) * Palette.distance(mean, flat.linear)
        var best = (mask: UInt8(0), fg: flat, bg: flat)
        for mask in masks {
            var fr: Float = 0, fg: Float = 0, fb: Float = 0, count = 0
            for k in 0..<n where mask >> UInt8(k) & 1 == 1 {
                fr += sub[k].r; fg += sub[k].g; fb += sub[k].b
                count += 1
            }
            let nf = Float(count), nb = Float(n - count)
            let br = tr - fr, bgc = tg - fg, bb = tb - fb
            // Squared error of the two means: energy minus what the means explain.
            let within = energy - (fr * fr + fg * fg + fb * fb) / nf - (br * br + bgc * bgc + bb * bb) / nb
            if within >= bestError { continue }
            let front = LinearRGB(fr / nf, fg / nf, fb / nf), back = LinearRGB(br / nb, bgc / nb, bb / nb)
            let qf = quantizer.quantize(front), qb = quantizer.quantize(back)
            let error = within + nf * Palette.distance(front, qf.linear) + nb * Palette.distance(back, qb.linear)
            if error < bestError {
                bestError = error
                best = (mask, qf, qb)
            }
        }
        var shown = [LinearRGB](repeating: best.bg.linear, count: n)
        for k in 0..<n where best.mask >> UInt8(k) & 1 == 1 { shown[k] = best.fg.linear }
        quantizer.record(target: sub, shown: shown)
        return Cell(glyph: symbols.glyph(best.mask), foreground: best.fg.terminal, background: best.bg.terminal)
    }

    /// ASCII: a luminance ramp character in the cell's colour.
    static func asciiCell(_ sub: [LinearRGB], quantizer: inout Quantizer) -> Cell {
        var r: Float = 0, g: Float = 0, b: Float = 0
        for c in sub { r += c.r; g += c.g; b += c.b }
        let n = Float(sub.count)
        let mean = LinearRGB(r / n, g / n, b / n)
        let luminance = 0.2126 * mean.r + 0.7152 * mean.g + 0.0722 * mean.b
        let level = Float(ColorSpace.toSRGB(luminance)) / 255
        let ramp = SymbolSet.asciiRamp
        let glyph = ramp[min(ramp.count - 1, Int(level * Float(ramp.count)))]
        if quantizer.mode == .none { return Cell(glyph: glyph, foreground: .default, background: .default) }
        // The brightest colour of the cell's hue: the ramp carries the darkness.
        let peak = max(mean.r, mean.g, mean.b, 1e-6)
        let color = quantizer.quantize(LinearRGB(mean.r / peak, mean.g / peak, mean.b / peak))
        return Cell(glyph: glyph, foreground: color.terminal, background: .default)
    }

    /// No colour: sub-cells brighter than a Bayer threshold are drawn.
    static func monochromeCell(_ sub: [LinearRGB], symbols: SymbolSet, column: Int, row: Int) -> Cell {
        let (gx, gy) = symbols.grid
        var mask = 0
        for (k, c) in sub.enumerated() {
            let luminance = Float(ColorSpace.toSRGB(0.2126 * c.r + 0.7152 * c.g + 0.0722 * c.b)) / 255
            let x = column * gx + k % gx, y = row * gy + k / gx
            if luminance > Quantizer.bayer(x, y) { mask |= 1 << k }
        }
        if symbols == .halves {
            // Halves draw only these shapes: take the nearest.
            let shapes = [0b0000, 0b0011, 0b1100, 0b0101, 0b1010, 0b1111]
            mask = shapes.min { ($0 ^ mask).nonzeroBitCount < ($1 ^ mask).nonzeroBitCount } ?? 0
        }
        return Cell(glyph: symbols.glyph(UInt8(mask)), foreground: .default, background: .default)
    }
}

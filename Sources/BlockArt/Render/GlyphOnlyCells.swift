/// The cells that do without a colour pair: the ASCII ramp (one colour,
/// the darkness in the glyph) and monochrome (glyphs alone, dithered).
extension Renderer {
    /// ASCII: a luminance ramp character in the cell's colour.
    static func asciiCell(_ sub: [LinearRGB], quantizer: Quantizer) -> Cell {
        var r: Float = 0
        var g: Float = 0
        var b: Float = 0
        for c in sub {
            r += c.r
            g += c.g
            b += c.b
        }
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

    /// No colour: sub-cells brighter than a Bayer threshold are lit, and the
    /// shape nearest to that pattern is drawn.
    static func monochromeCell(_ sub: [LinearRGB], symbols: SymbolSet, column: Int, row: Int) -> Cell {
        let (gx, gy) = (symbols.grid.columns, symbols.grid.rows)
        var lit: UInt64 = 0
        for (k, c) in sub.enumerated() {
            let luminance = Float(ColorSpace.toSRGB(0.2126 * c.r + 0.7152 * c.g + 0.0722 * c.b)) / 255
            if luminance > Quantizer.bayer(column * gx + k % gx, row * gy + k / gx) { lit |= 1 << UInt64(k) }
        }
        let full: UInt64 = sub.count >= 64 ? .max : (1 << UInt64(sub.count)) - 1
        var best = (distance: lit.nonzeroBitCount, glyph: Unicode.Scalar(" "))
        if (lit ^ full).nonzeroBitCount < best.distance { best = ((lit ^ full).nonzeroBitCount, "\u{2588}") }
        for shape in symbols.shapes {
            let d = (shape.mask ^ lit).nonzeroBitCount
            if d < best.distance { best = (d, shape.glyph) }
            let complement = shape.mask ^ full
            if let glyph = shape.complement, (complement ^ lit).nonzeroBitCount < best.distance {
                best = ((complement ^ lit).nonzeroBitCount, glyph)
            }
        }
        return Cell(glyph: best.glyph, foreground: .default, background: .default)
    }
}

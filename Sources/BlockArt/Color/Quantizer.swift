/// A colour as chosen for output: its linear value (for error sums) and how
/// the terminal is told it.
struct Quantized {
    var linear: LinearRGB
    var terminal: TerminalColor
    /// The colour as shown, in sRGB 0–255.
    let srgb: SIMD3<Float>
    /// The linear value as a vector.
    let vector: SIMD3<Float>

    init(linear: LinearRGB, terminal: TerminalColor) {
        self.linear = linear
        self.terminal = terminal
        vector = linear.vector
        srgb = ColorSpace.toSRGB(vector)
    }
}

/// Maps colours to what the colour mode can show, and carries the dither
/// state from cell to cell.
struct Quantizer {
    let mode: ColorMode
    let dither: Dither
    let columns: Int
    /// Floyd–Steinberg: the error owed to this row's and the next row's cells.
    private var owed: [LinearRGB]
    private var owedNext: [LinearRGB]
    private var column = 0

    init(mode: ColorMode, dither: Dither, columns: Int) {
        self.mode = mode
        self.dither = mode == .truecolor || mode == .none ? .none : dither
        self.columns = columns
        owed = Array(repeating: LinearRGB(0, 0, 0), count: columns + 2)
        owedNext = owed
    }

    /// The 4×4 Bayer threshold in 0..<1 at (x, y).
    static func bayer(_ x: Int, _ y: Int) -> Float {
        let matrix: [Float] = [0, 8, 2, 10, 12, 4, 14, 6, 3, 11, 1, 9, 15, 7, 13, 5]
        return (matrix[(y & 3) * 4 + (x & 3)] + 0.5) / 16
    }

    /// Adjusts a cell's sub-cell colours before the glyph search: the error
    /// diffused to it, or the ordered pattern's offset.
    mutating func prepare(_ sub: inout [LinearRGB], column: Int, row: Int) {
        self.column = column
        switch dither {
        case .none: return
        case .diffusion:
            let e = owed[column + 1]
            for k in sub.indices {
                sub[k] = LinearRGB(clamp(sub[k].r + e.r), clamp(sub[k].g + e.g), clamp(sub[k].b + e.b))
            }
        case .ordered:
            // About one cube step (in sRGB, ~40 of 255) of spread.
            let offset = (Quantizer.bayer(column, row) - 0.5) * 40 / 255
            for k in sub.indices {
                sub[k] = LinearRGB(shift(sub[k].r, offset), shift(sub[k].g, offset), shift(sub[k].b, offset))
            }
        }
    }

    /// After a cell is chosen: the error it leaves is passed on.
    mutating func record(target: [LinearRGB], shown: [LinearRGB]) {
        guard dither == .diffusion else { return }
        var er: Float = 0
        var eg: Float = 0
        var eb: Float = 0
        for k in target.indices {
            er += target[k].r - shown[k].r
            eg += target[k].g - shown[k].g
            eb += target[k].b - shown[k].b
        }
        let n = Float(target.count)
        let e = LinearRGB(er / n, eg / n, eb / n)
        func add(_ array: inout [LinearRGB], _ i: Int, _ w: Float) {
            array[i] = LinearRGB(array[i].r + e.r * w, array[i].g + e.g * w, array[i].b + e.b * w)
        }
        add(&owed, column + 2, 7 / 16)
        add(&owedNext, column, 3 / 16)
        add(&owedNext, column + 1, 5 / 16)
        add(&owedNext, column + 2, 1 / 16)
    }

    mutating func nextRow() {
        owed = owedNext
        owedNext = Array(repeating: LinearRGB(0, 0, 0), count: columns + 2)
    }

    /// The palette colours around `c`: the cube's corners around it and the
    /// gray levels near its mean (just the exact colour in truecolor).
    func candidates(_ c: LinearRGB, into found: inout [Quantized]) {
        found.removeAll(keepingCapacity: true)
        guard mode == .palette256 else {
            found.append(quantize(c))
            return
        }
        let table = Quantizer.palette256
        let cube = Palette.cubeLinear
        // Per channel, the cube level nearest and its neighbour on the value's side.
        func around(_ v: Float) -> (low: Int, high: Int) {
            let i = Palette.nearestLevel(v)
            let other = v > cube[i] ? min(5, i + 1) : max(0, i - 1)
            return (min(i, other), max(i, other))
        }
        let r = around(c.r)
        let g = around(c.g)
        let b = around(c.b)
        for ri in r.low...r.high {
            for gi in g.low...g.high {
                for bi in b.low...b.high { found.append(table[16 + 36 * ri + 6 * gi + bi]) }
            }
        }
        // Four grays: the two around the mean and one beyond each, since a
        // pair of grays can mix to a level the cube lacks.
        let lo = Palette.grayLevel(below: (c.r + c.g + c.b) / 3)
        for i in max(0, lo - 1)...min(23, lo + 2) { found.append(table[232 + i]) }
    }

    /// Every 256-colour entry as a candidate, made once (indices 0–15 are
    /// never offered: their values depend on the theme).
    static let palette256: [Quantized] = (0..<256).map { index in
        Quantized(linear: LinearRGB(srgb: Palette.color256(index)), terminal: .index(UInt8(index)))
    }

    func quantize(_ c: LinearRGB) -> Quantized {
        switch mode {
        case .truecolor:
            let s = c.srgb
            return Quantized(linear: LinearRGB(srgb: s), terminal: .rgb(s))
        case .palette256:
            let (index, color) = Palette.nearest256(c)
            return Quantized(linear: color, terminal: .index(index))
        case .ansi16, .ansi8:
            let (index, color) = Palette.nearestANSI(c, count: mode == .ansi16 ? 16 : 8)
            return Quantized(linear: color, terminal: .index(index))
        case .none:
            return Quantized(linear: c, terminal: .default)
        }
    }

    private func clamp(_ v: Float) -> Float { v < 0 ? 0 : (v > 1 ? 1 : v) }

    /// Moves a linear value by `offset` in sRGB terms.
    private func shift(_ v: Float, _ offset: Float) -> Float {
        let s = Float(ColorSpace.toSRGB(v)) / 255 + offset
        let clamped = s < 0 ? 0 : (s > 1 ? 1 : s)
        return ColorSpace.toLinear[Int(clamped * 255 + 0.5)]
    }
}

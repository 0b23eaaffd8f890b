/// Which glyphs the renderer may print. Each cell is split into a grid of
/// sub-cells; a glyph covers some of them with its foreground colour and
/// leaves the rest to the background colour.
public enum SymbolSet: String, Sendable, CaseIterable {
    /// ▀ ▄ ▌ ▐ █ and space: in every font (the default).
    case halves
    /// Adds the quadrant blocks ▖ ▗ ▘ ▝ ▚ ▞ and their complements.
    case quadrants
    /// The 2×3 blocks of Unicode 13 (U+1FB00–U+1FB3B), for fonts that have them.
    case sextants
    /// The quadrants and the eighth blocks ▁▂▃▄▅▆▇ and ▏▎▍▌▋▊▉ (chafa's
    /// "block"): in every font, and drawn by VTE and alacritty themselves.
    case blocks
    /// A luminance ramp, for terminals or locales without Unicode.
    case ascii

    /// Sub-cells per cell, columns and rows: fine enough that every glyph's
    /// edges fall on sub-cell edges (▀ splits a sextant row, so sextants use
    /// six rows), and at least the 2×4 per cell at which the eye, and the
    /// quality measure, integrate.
    public var grid: CellSize {
        switch self {
        case .halves, .quadrants: return CellSize(columns: 2, rows: 4)
        case .sextants: return CellSize(columns: 2, rows: 6)
        case .blocks: return CellSize(columns: 8, rows: 8)
        case .ascii: return CellSize(columns: 2, rows: 2)
        }
    }

    /// What the set can draw: each shape as the set of sub-cells in the
    /// foreground (bit k = sub-cell k, row-major) with its glyph. Each split
    /// of the cell is listed once; its complement is the same choice with
    /// the colours swapped.
    var shapes: [Shape] { SymbolSet.shapeTable[self] ?? [] }

    /// How the renderer sums the shapes.
    var plan: ShapePlan { SymbolSet.planTable[self] ?? ShapePlan(shapes: [], grid: grid) }

    private static let planTable: [SymbolSet: ShapePlan] = Dictionary(
        uniqueKeysWithValues: SymbolSet.allCases.map {
            ($0, ShapePlan(shapes: $0.shapes, grid: $0.grid))
        }
    )

    private static let shapeTable: [SymbolSet: [Shape]] = {
        var table: [SymbolSet: [Shape]] = [:]
        let quadrant = { (p: Int) in quadrantShape(p, grid: CellSize(columns: 2, rows: 4)) }
        table[.halves] = [3, 5].map(quadrant)  // ▀ ▌
        table[.quadrants] = (1...7).map(quadrant)
        // Sextant k (column k % 2, row k / 2) covers two of the six sub-rows.
        var sextants: [Shape] = (1...31).map { pattern in
            var mask: UInt64 = 0
            for k in 0..<6 where pattern >> k & 1 == 1 {
                let column = k % 2
                let row = (k / 2) * 2
                mask |= 1 << UInt64(row * 2 + column) | 1 << UInt64((row + 1) * 2 + column)
            }
            return Shape(mask: mask, glyph: sextantGlyph(pattern), complement: sextantGlyph(63 - pattern))
        }
        // ▀: the top three sub-rows
        sextants.append(Shape(mask: 0b0000_0011_1111, glyph: "\u{2580}", complement: "\u{2584}"))
        table[.sextants] = sextants
        table[.blocks] = eighthBlockShapes()
        table[.ascii] = []
        return table
    }()

    /// On the 8×8 grid: the quadrant shapes, then the lower and the left
    /// eighths that are not already a split listed (▄ is ▀'s, ▌ a quadrant's).
    /// Few eighths have a complement glyph (▔ for ▇, ▕ for ▉): monochrome
    /// output skips the rest.
    private static func eighthBlockShapes() -> [Shape] {
        let rect = { (columns: Range<Int>, rows: Range<Int>) in
            SymbolSet.rect(columns: columns, rows: rows, gridColumns: 8)
        }
        var shapes: [Shape] = (1...7).map { quadrantShape($0, grid: CellSize(columns: 8, rows: 8)) }
        let full = UInt64.max
        func add(_ mask: UInt64, _ glyph: UInt32, _ complement: UInt32?) {
            guard !shapes.contains(where: { $0.mask == mask || $0.mask == full ^ mask }) else { return }
            shapes.append(
                Shape(
                    mask: mask,
                    glyph: Unicode.Scalar(glyph) ?? "?",
                    complement: complement.flatMap(Unicode.Scalar.init)
                )
            )
        }
        for i in 1...7 {
            // U+2581 + (i − 1): the lower i eighths; U+2588 + i: the left 8 − i eighths.
            add(rect(0..<8, 8 - i..<8), 0x2580 + UInt32(i), i == 7 ? 0x2594 : nil)
            add(rect(0..<8 - i, 0..<8), 0x2588 + UInt32(i), i == 1 ? 0x2595 : nil)
        }
        return shapes
    }

    /// The sub-cells of a rectangle on a grid `gridColumns` wide.
    private static func rect(columns: Range<Int>, rows: Range<Int>, gridColumns: Int) -> UInt64 {
        var mask: UInt64 = 0
        for row in rows { for column in columns { mask |= 1 << UInt64(row * gridColumns + column) } }
        return mask
    }

    /// Quadrant pattern `p` (bit0 top-left, bit1 top-right, bit2
    /// bottom-left, bit3 bottom-right) on a grid: each quadrant is half the
    /// grid each way.
    private static func quadrantShape(_ p: Int, grid: CellSize) -> Shape {
        let w = grid.columns / 2
        let h = grid.rows / 2
        var mask: UInt64 = 0
        for q in 0..<4 where p >> q & 1 == 1 {
            mask |= rect(
                columns: (q % 2) * w..<(q % 2) * w + w,
                rows: (q / 2) * h..<(q / 2) * h + h,
                gridColumns: grid.columns
            )
        }
        return Shape(mask: mask, glyph: quadrantGlyphs[p], complement: quadrantGlyphs[15 - p])
    }

    /// The glyph of sextant pattern `p` (bit k = sextant k, row-major).
    static func sextantGlyph(_ p: Int) -> Unicode.Scalar {
        switch p {
        case 0: return " "
        case 63: return "\u{2588}"
        case 21: return "\u{258C}"  // the left column: ▌
        case 42: return "\u{2590}"  // the right column: ▐
        default:
            let index = p - 1 - (p > 21 ? 1 : 0) - (p > 42 ? 1 : 0)
            return Unicode.Scalar(0x1FB00 + UInt32(index)) ?? "?"
        }
    }

    /// Index: bit0 top-left, bit1 top-right, bit2 bottom-left, bit3 bottom-right.
    static let quadrantGlyphs: [Unicode.Scalar] = [
        " ", "\u{2598}", "\u{259D}", "\u{2580}", "\u{2596}", "\u{258C}", "\u{259E}", "\u{259B}",
        "\u{2597}", "\u{259A}", "\u{2590}", "\u{259C}", "\u{2584}", "\u{2599}", "\u{259F}", "\u{2588}",
    ]

    /// The ASCII ramp, darkest to brightest.
    static let asciiRamp: [Unicode.Scalar] = [" ", ".", ":", "-", "=", "+", "*", "#", "%", "@"]
}

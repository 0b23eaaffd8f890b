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
    /// A luminance ramp, for terminals or locales without Unicode.
    case ascii

    /// Sub-cells per cell, columns and rows: fine enough that every glyph's
    /// edges fall on sub-cell edges (▀ splits a sextant row, so sextants use
    /// six rows), and at least the 2×4 per cell at which the eye, and the
    /// quality measure, integrate.
    public var grid: (columns: Int, rows: Int) {
        switch self {
        case .halves, .quadrants: return (2, 4)
        case .sextants: return (2, 6)
        case .ascii: return (2, 2)
        }
    }

    /// What the set can draw: each shape as the set of sub-cells in the
    /// foreground (bit k = sub-cell k, row-major) with its glyph. Each split
    /// of the cell is listed once; its complement is the same choice with
    /// the colours swapped.
    var shapes: [Shape] { SymbolSet.shapeTable[self] ?? [] }

    private static let shapeTable: [SymbolSet: [Shape]] = {
        var table: [SymbolSet: [Shape]] = [:]
        // Quadrant q (bit0 top-left, bit1 top-right, bit2 bottom-left, bit3 bottom-right) on the 2×4 grid.
        func quadrantMask(_ pattern: Int) -> UInt16 {
            var mask: UInt16 = 0
            for q in 0..<4 where pattern >> q & 1 == 1 {
                let column = q % 2, top = (q / 2) * 2
                mask |= 1 << UInt16(top * 2 + column) | 1 << UInt16((top + 1) * 2 + column)
            }
            return mask
        }
        func quadrant(_ p: Int) -> Shape { Shape(mask: quadrantMask(p), glyph: quadrantGlyphs[p], complement: quadrantGlyphs[15 - p]) }
        table[.halves] = [3, 5].map(quadrant)  // ▀ ▌
        table[.quadrants] = (1...7).map(quadrant)
        // Sextant k (column k % 2, row k / 2) covers two of the six sub-rows.
        var sextants: [Shape] = (1...31).map { pattern in
            var mask: UInt16 = 0
            for k in 0..<6 where pattern >> k & 1 == 1 {
                let column = k % 2, row = (k / 2) * 2
                mask |= 1 << UInt16(row * 2 + column) | 1 << UInt16((row + 1) * 2 + column)
            }
            return Shape(mask: mask, glyph: sextantGlyph(pattern), complement: sextantGlyph(63 - pattern))
        }
        sextants.append(Shape(mask: 0b0000_0011_1111, glyph: "\u{2580}", complement: "\u{2584}"))  // ▀: the top three sub-rows
        table[.sextants] = sextants
        table[.ascii] = []
        return table
    }()

    /// The glyph of sextant pattern `p` (bit k = sextant k, row-major).
    static func sextantGlyph(_ p: Int) -> Unicode.Scalar {
        switch p {
        case 0: return " "
        case 63: return "\u{2588}"
        case 21: return "\u{258C}"   // the left column: ▌
        case 42: return "\u{2590}"   // the right column: ▐
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

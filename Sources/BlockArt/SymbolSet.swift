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

    /// Sub-cells per cell: columns and rows.
    public var grid: (columns: Int, rows: Int) {
        switch self {
        case .halves, .quadrants, .ascii: return (2, 2)
        case .sextants: return (2, 3)
        }
    }

    /// The partitions of the sub-cells this set can draw, as bit masks of
    /// the sub-cells in the foreground (bit k = sub-cell k, row-major). Each
    /// partition is listed once: its complement is the same glyph choice
    /// with the colours swapped.
    var masks: [UInt8] {
        switch self {
        case .halves: return [0b0011, 0b0101]                 // ▀ ▌
        case .quadrants: return Array(1...7)                   // every split of 4
        case .sextants: return Array(1...31)                   // every split of 6
        case .ascii: return []
        }
    }

    /// The glyph drawing `mask` (foreground on the set bits).
    func glyph(_ mask: UInt8) -> Unicode.Scalar {
        switch self {
        case .halves, .quadrants, .ascii:
            return SymbolSet.quadrantGlyphs[Int(mask & 0xF)]
        case .sextants:
            let m = Int(mask & 0x3F)
            switch m {
            case 0: return " "
            case 63: return "\u{2588}"
            case 21: return "\u{258C}"   // left column: ▌
            case 42: return "\u{2590}"   // right column: ▐
            default:
                let index = m - 1 - (m > 21 ? 1 : 0) - (m > 42 ? 1 : 0)
                return Unicode.Scalar(0x1FB00 + UInt32(index)) ?? "?"
            }
        }
    }

    /// Index: bit0 top-left, bit1 top-right, bit2 bottom-left, bit3 bottom-right.
    private static let quadrantGlyphs: [Unicode.Scalar] = [
        " ", "\u{2598}", "\u{259D}", "\u{2580}", "\u{2596}", "\u{258C}", "\u{259E}", "\u{259B}",
        "\u{2597}", "\u{259A}", "\u{2590}", "\u{259C}", "\u{2584}", "\u{2599}", "\u{259F}", "\u{2588}",
    ]

    /// The ASCII ramp, darkest to brightest.
    static let asciiRamp: [Unicode.Scalar] = [" ", ".", ":", "-", "=", "+", "*", "#", "%", "@"]
}

/// How many colours the terminal shows.
public enum ColorMode: String, Sendable, CaseIterable {
    /// 24-bit colour.
    case truecolor
    /// The xterm 256-colour palette (the 6×6×6 cube and the gray ramp are used).
    case palette256 = "256"
    /// The 16 ANSI colours.
    case ansi16 = "16"
    /// The 8 basic ANSI colours.
    case ansi8 = "8"
    /// No colour: the glyphs alone, in the terminal's own colours.
    case none
}

/// How palette modes spread the quantisation error.
public enum Dither: String, Sendable, CaseIterable {
    case none
    /// A 4×4 Bayer pattern over the cells.
    case ordered
    /// Floyd–Steinberg error diffusion from cell to cell.
    case diffusion
}

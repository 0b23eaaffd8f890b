/// Turns a cell grid into text for a terminal or a file: per row, SGR
/// colour sequences, the glyphs, a reset and a newline. No cursor movement,
/// so the output can be piped, saved, or `cat`ed later.
public enum AnsiWriter {
    public static func text(_ grid: CellGrid) -> String {
        var out = ""
        out.reserveCapacity(grid.columns * grid.rows * 24)
        for row in 0..<grid.rows {
            var fg: TerminalColor? = nil, bg: TerminalColor? = nil
            for column in 0..<grid.columns {
                let cell = grid[column, row]
                var params: [String] = []
                if cell.foreground != fg { params.append(sgr(cell.foreground, background: false)) }
                if cell.background != bg { params.append(sgr(cell.background, background: true)) }
                if !params.isEmpty { out += "\u{1B}[" + params.joined(separator: ";") + "m" }
                fg = cell.foreground
                bg = cell.background
                out.unicodeScalars.append(cell.glyph)
            }
            out += "\u{1B}[0m\n"
        }
        return out
    }

    static func sgr(_ color: TerminalColor, background: Bool) -> String {
        switch color {
        case .default: return background ? "49" : "39"
        case let .rgb(c): return "\(background ? 48 : 38);2;\(c.r);\(c.g);\(c.b)"
        case let .index(i) where i < 8: return "\(Int(i) + (background ? 40 : 30))"
        case let .index(i) where i < 16: return "\(Int(i) - 8 + (background ? 100 : 90))"
        case let .index(i): return "\(background ? 48 : 38);5;\(i)"
        }
    }
}

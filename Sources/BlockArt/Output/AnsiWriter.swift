/// Turns a cell grid into text for a terminal or a file: per row, SGR
/// colour sequences, the glyphs, a reset and a newline. No cursor movement,
/// so the output can be piped, saved, or `cat`ed later.
public enum AnsiWriter {
    public static func text(_ grid: CellGrid) -> String {
        String(decoding: bytes(grid), as: UTF8.self)
    }

    /// The same text as UTF-8 bytes, written straight into one buffer:
    /// building it through Strings cost more than rendering truecolour art.
    public static func bytes(_ grid: CellGrid) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(grid.columns * grid.rows * 40 + grid.rows * 8)
        for row in 0..<grid.rows {
            appendRow(grid, row, startsPlain: true, into: &out)
            out.append(UInt8(ascii: "\n"))
        }
        return out
    }

    /// The grid drawn at a place on the screen (0-based row and column): each
    /// row starts with a cursor position (CUP) instead of following a newline,
    /// for a screen that draws the art itself around ncurses' text.
    public static func placedBytes(_ grid: CellGrid, row top: Int, column left: Int) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(grid.columns * grid.rows * 40 + grid.rows * 16)
        for row in 0..<grid.rows {
            moveTo(row: top + row, column: left, into: &out)
            appendRow(grid, row, startsPlain: false, into: &out)
        }
        return out
    }

    /// `new` at `top`, `left` (0-based) over `old` there: each run of
    /// cells that differ, from a cursor move to its first cell.
    public static func placedChangedBytes(
        from old: CellGrid,
        to new: CellGrid,
        row top: Int,
        column left: Int
    ) -> [UInt8] {
        guard old.columns == new.columns, old.rows == new.rows else { return placedBytes(new, row: top, column: left) }
        var out: [UInt8] = []
        for (y, run) in changedRuns(from: old, to: new) {
            moveTo(row: top + y, column: left + run.lowerBound, into: &out)
            appendRow(new, y, startsPlain: false, columns: run, into: &out)
        }
        return out
    }

    /// CUP to a cell, 0-based.
    private static func moveTo(row: Int, column: Int, into out: inout [UInt8]) {
        out.append(contentsOf: [0x1B, UInt8(ascii: "[")])
        number(row + 1, into: &out)
        out.append(UInt8(ascii: ";"))
        number(column + 1, into: &out)
        out.append(UInt8(ascii: "H"))
    }

    /// The next frame of an animation printed as `bytes` printed the last:
    /// from the line under the art, up to it, and only the runs of cells
    /// that changed rewritten (CUU, CR, CUF, CUD: moves within the lines
    /// already printed, which never scroll), then back under the art.
    public static func changedBytes(from old: CellGrid, to new: CellGrid) -> [UInt8] {
        guard old.columns == new.columns, old.rows == new.rows else { return [] }
        var out: [UInt8] = []
        var row = new.rows
        func move(_ count: Int, _ final: Unicode.Scalar) {
            guard count > 0 else { return }
            out.append(contentsOf: [0x1B, UInt8(ascii: "[")])
            number(count, into: &out)
            out.append(UInt8(ascii: final))
        }
        for (y, run) in changedRuns(from: old, to: new) {
            if row > y { move(row - y, "A") } else { move(y - row, "B") }
            row = y
            out.append(UInt8(ascii: "\r"))
            move(run.lowerBound, "C")
            appendRow(new, y, startsPlain: false, columns: run, into: &out)
        }
        guard row != new.rows else { return out }
        move(new.rows - row, "B")
        out.append(UInt8(ascii: "\r"))
        return out
    }

    /// The runs of cells that differ between two grids of one size, row by row.
    private static func changedRuns(from old: CellGrid, to new: CellGrid) -> [(row: Int, columns: Range<Int>)] {
        var runs: [(row: Int, columns: Range<Int>)] = []
        for y in 0..<new.rows {
            var x = 0
            while x < new.columns {
                guard old[x, y] != new[x, y] else {
                    x += 1
                    continue
                }
                var end = x + 1
                while end < new.columns && old[end, y] != new[end, y] { end += 1 }
                runs.append((y, x..<end))
                x = end
            }
        }
        return runs
    }

    /// One row: SGR colour changes and glyphs, then a reset if a colour was
    /// set. A row starts in the terminal's own colours: after the previous
    /// row's reset (`startsPlain`, the text form), or after a reset written
    /// here (placed among ncurses' text, whose attributes are its own). So a
    /// grid of default colours (`--colors none`) writes no colour at all.
    private static func appendRow(
        _ grid: CellGrid,
        _ row: Int,
        startsPlain: Bool,
        columns: Range<Int>? = nil,
        into out: inout [UInt8]
    ) {
        if !startsPlain { out.append(contentsOf: [0x1B, UInt8(ascii: "["), UInt8(ascii: "0"), UInt8(ascii: "m")]) }
        var fg = TerminalColor.default
        var bg = TerminalColor.default
        var coloured = false
        for column in columns ?? 0..<grid.columns {
            let cell = grid[column, row]
            let newForeground = cell.foreground != fg
            let newBackground = cell.background != bg
            if newForeground || newBackground {
                out.append(0x1B)
                out.append(UInt8(ascii: "["))
                if newForeground { sgr(cell.foreground, background: false, into: &out) }
                if newForeground && newBackground { out.append(UInt8(ascii: ";")) }
                if newBackground { sgr(cell.background, background: true, into: &out) }
                out.append(UInt8(ascii: "m"))
                coloured = true
            }
            fg = cell.foreground
            bg = cell.background
            Unicode.UTF8.encode(cell.glyph) { out.append($0) }
        }
        if coloured { out.append(contentsOf: [0x1B, UInt8(ascii: "["), UInt8(ascii: "0"), UInt8(ascii: "m")]) }
    }

    /// The SGR parameters for one colour ("38;2;r;g;b", "48;5;n", "91" …).
    static func sgr(_ color: TerminalColor, background: Bool, into out: inout [UInt8]) {
        switch color {
        case .default: number(background ? 49 : 39, into: &out)
        case let .rgb(c):
            number(background ? 48 : 38, into: &out)
            out.append(contentsOf: [UInt8(ascii: ";"), UInt8(ascii: "2"), UInt8(ascii: ";")])
            number(Int(c.r), into: &out)
            out.append(UInt8(ascii: ";"))
            number(Int(c.g), into: &out)
            out.append(UInt8(ascii: ";"))
            number(Int(c.b), into: &out)
        case let .index(i) where i < 8: number(Int(i) + (background ? 40 : 30), into: &out)
        case let .index(i) where i < 16: number(Int(i) - 8 + (background ? 100 : 90), into: &out)
        case let .index(i):
            number(background ? 48 : 38, into: &out)
            out.append(contentsOf: [UInt8(ascii: ";"), UInt8(ascii: "5"), UInt8(ascii: ";")])
            number(Int(i), into: &out)
        }
    }

    /// A non-negative number in decimal.
    private static func number(_ value: Int, into out: inout [UInt8]) {
        if value >= 10 { number(value / 10, into: &out) }
        out.append(UInt8(ascii: "0") + UInt8(value % 10))
    }
}

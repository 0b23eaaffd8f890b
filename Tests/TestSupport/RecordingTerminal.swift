import BlockArt
import URLCacheScreen
import URLCacheSupport

/// A terminal stand-in that keeps what was drawn as rows of text.
public final class RecordingTerminal: Terminal {
    public var size: CellSize
    public let colorMode: ColorMode = .truecolor
    public var screen: [[Character]]
    public var styles: [[TextStyle]]
    public var events: [InputEvent] = []

    public init(columns: Int, rows: Int) {
        size = CellSize(columns: columns, rows: rows)
        screen = Array(repeating: Array(repeating: " ", count: columns), count: rows)
        styles = Array(repeating: Array(repeating: .plain, count: columns), count: rows)
    }

    public func erase() {
        picture = nil
        screen = Array(repeating: Array(repeating: " ", count: size.columns), count: size.rows)
        styles = Array(repeating: Array(repeating: .plain, count: size.columns), count: size.rows)
    }

    /// Text written past the right edge or off the screen: a layout bug.
    public var overflows: [String] = []

    /// As a terminal does: a wide character takes two cells (the second
    /// holds a NUL here, left out of `line`).
    public func put(_ text: String, row: Int, column: Int, style: TextStyle) {
        var x = column
        for ch in text {
            let width = ch.columns
            guard row >= 0, row < size.rows, x >= 0, x + width <= size.columns else {
                overflows.append(String(ch))
                x += width
                continue
            }
            screen[row][x] = ch
            styles[row][x] = style
            if width == 2 { screen[row][x + 1] = "\u{0}" }
            x += width
        }
    }

    /// The picture of pixels shown, and where; nil when none is.
    public var picture: (picture: PixelPicture, row: Int, column: Int)?
    /// What it says kitty holds of an animation's frames (a test sets it).
    public var heldFrames: FrameCompositor.KittyFrames?
    public var kittyFrames: FrameCompositor.KittyFrames? { heldFrames }
    public var cellPixels: PixelSize { PixelSize(width: 8, height: 16) }

    /// The block art put last, cells and colours.
    public var art: CellGrid?

    public func put(_ picture: PixelPicture, row: Int, column: Int) {
        self.picture = (picture, row, column)
    }

    public func put(_ grid: CellGrid, row: Int, column: Int) {
        art = grid
        for r in 0..<grid.rows {
            for c in 0..<grid.columns where row + r < size.rows && column + c < size.columns {
                screen[row + r][column + c] = Character(grid[c, r].glyph)
            }
        }
    }

    public func refresh() {}
    public let inputDescriptor: Int32 = -1
    public func nextEvent() -> InputEvent? { events.isEmpty ? nil : events.removeFirst() }
    public func resized() {}
    public var suspended = 0
    public func suspend(_ stop: () -> Void) {
        suspended += 1
        stop()
    }
    public func redrawAll() {}

    public func line(_ row: Int) -> String {
        String(screen[row].filter { $0 != "\u{0}" }).trimmingCharacters(in: .whitespaces)
    }
    /// The columns row `row` uses, up to its last non-blank cell.
    public func usedColumns(_ row: Int) -> Int { (screen[row].lastIndex { $0 != " " } ?? -1) + 1 }
    public var text: String { (0..<size.rows).map(line).joined(separator: "\n") }
}

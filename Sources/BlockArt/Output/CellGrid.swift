/// What the renderer produces: rows of cells, for the screen or the ANSI writer.
public struct CellGrid: Sendable, Equatable {
    public let columns: Int
    public let rows: Int
    public var cells: [Cell]

    public init(columns: Int, rows: Int, cells: [Cell]) {
        precondition(cells.count == columns * rows, "cell count mismatch")
        self.columns = columns
        self.rows = rows
        self.cells = cells
    }

    public subscript(column: Int, row: Int) -> Cell { cells[row * columns + column] }
}

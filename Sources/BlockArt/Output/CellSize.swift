/// A size in cells: a window's, the art's, a grid's samples per cell.
/// One type where a labelled tuple stood, as `PixelSize` is for pixels.
public struct CellSize: Sendable, Hashable, CustomStringConvertible {
    public var columns: Int
    public var rows: Int

    public init(columns: Int, rows: Int) {
        self.columns = columns
        self.rows = rows
    }

    /// "160x48", as `--size` takes it.
    public var description: String { "\(columns)x\(rows)" }
}

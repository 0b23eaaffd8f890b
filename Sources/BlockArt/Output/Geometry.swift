/// Where an image goes in a grid of cells.
public enum Geometry {
    /// The largest size, in cells, that shows a `width` × `height` image
    /// inside `columns` × `rows` with its aspect kept. `cellAspect` is a
    /// cell's width over its height (0.5: twice as tall as wide). Small
    /// images are enlarged to fill the area, as chafa and timg do.
    public static func fit(
        width: Int,
        height: Int,
        columns: Int,
        rows: Int,
        cellAspect: Double = 0.5
    ) -> CellSize {
        guard width > 0, height > 0, columns > 0, rows > 0 else {
            return CellSize(columns: max(columns, 0) > 0 ? 1 : 0, rows: rows > 0 ? 1 : 0)
        }
        // Image height in units of cell widths: a cell is 1 wide, 1/aspect tall.
        let imageAspect = Double(width) / Double(height)  // width over height, in pixels
        let areaAspect = Double(columns) * cellAspect / Double(rows)  // width over height, in cell-width units
        var cols = Double(columns)
        var lines = Double(rows)
        if imageAspect > areaAspect {
            lines = cols * cellAspect / imageAspect
        } else {
            cols = lines * imageAspect / cellAspect
        }
        return CellSize(
            columns: max(1, min(columns, Int(cols.rounded()))),
            rows: max(1, min(rows, Int(lines.rounded())))
        )
    }
}

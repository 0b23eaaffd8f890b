/// A source whose library holds the whole decoded picture as RGBA8 rows
/// (libheif's decode, librsvg's render, an animation's first canvas): the
/// rows are copied out in order, one way for all of them.
protocol HeldRows: RowSource {
    /// The next row to hand over.
    var nextIndex: Int { get set }
    /// Row `y` of the held picture (width × 4 bytes), or nil when there is none.
    func heldRow(_ y: Int) -> UnsafePointer<UInt8>?
    /// What a missing row is called in the error ("missing row").
    var missingRow: String { get }
}

extension HeldRows {
    var missingRow: String { "no row \(nextIndex)" }

    func nextRow(_ row: UnsafeMutablePointer<UInt8>) throws(DecodeError) -> RowPlacement {
        guard nextIndex < height, let source = heldRow(nextIndex) else {
            throw .corrupt(format: format.description, message: missingRow)
        }
        row.update(from: source, count: width * 4)
        defer { nextIndex += 1 }
        return RowPlacement(y: nextIndex, count: width)
    }
}

/// How each shape's foreground sums are found. The eighth blocks are whole
/// rows or whole columns of the 8×8 grid, and the quadrants whole quarters
/// of it: their sums are a few additions of row, column and half-row sums,
/// made in one pass over the cell, where adding up their sub-cells one by
/// one took 576 additions a cell (a third of an animation's CPU in tmux).
/// Any other shape is summed sub-cell by sub-cell.
struct ShapePlan: Sendable {
    /// Where a shape's sums come from: bit i of the mask is row i, column
    /// i, quarter i (top-left, top-right, bottom-left, bottom-right) or
    /// sub-cell i.
    enum Source: Sendable, Equatable {
        case rows(UInt64)
        case columns(UInt64)
        case quarters(UInt64)
        case subCells(UInt64)
    }

    let grid: CellSize
    let sources: [Source]
    /// Whether any shape reads row (or quarter) sums, or column sums: the
    /// pass over the cell makes only what is read.
    let readsRows: Bool
    let readsColumns: Bool

    init(shapes: [Shape], grid: CellSize) {
        self.grid = grid
        let (gx, gy) = (grid.columns, grid.rows)
        // Small grids gain nothing: the shapes have a few sub-cells each.
        let whole = gx * gy >= 32 && gx % 2 == 0 && gy % 2 == 0
        let rowMasks = (0..<gy).map { ShapePlan.rect(0..<gx, $0..<$0 + 1, gx) }
        let columnMasks = (0..<gx).map { ShapePlan.rect($0..<$0 + 1, 0..<gy, gx) }
        let quarterMasks = (0..<4).map { q in
            ShapePlan.rect((q % 2) * gx / 2..<(q % 2 + 1) * gx / 2, (q / 2) * gy / 2..<(q / 2 + 1) * gy / 2, gx)
        }
        sources = shapes.map { shape in
            guard whole else { return .subCells(shape.mask) }
            if let parts = ShapePlan.union(shape.mask, of: rowMasks) { return .rows(parts) }
            if let parts = ShapePlan.union(shape.mask, of: columnMasks) { return .columns(parts) }
            if let parts = ShapePlan.union(shape.mask, of: quarterMasks) { return .quarters(parts) }
            return .subCells(shape.mask)
        }
        readsRows = sources.contains { if case .rows = $0 { true } else if case .quarters = $0 { true } else { false } }
        readsColumns = sources.contains { if case .columns = $0 { true } else { false } }
    }

    /// The parts whose union is `mask` exactly, as bits; nil if it is not one.
    private static func union(_ mask: UInt64, of parts: [UInt64]) -> UInt64? {
        var covered: UInt64 = 0
        var chosen: UInt64 = 0
        for (i, part) in parts.enumerated() where mask & part == part {
            covered |= part
            chosen |= 1 << UInt64(i)
        }
        return covered == mask ? chosen : nil
    }

    private static func rect(_ columns: Range<Int>, _ rows: Range<Int>, _ gridColumns: Int) -> UInt64 {
        var mask: UInt64 = 0
        for row in rows { for column in columns { mask |= 1 << UInt64(row * gridColumns + column) } }
        return mask
    }

    /// Every shape's foreground sums for one cell, in `sums` (in the
    /// shapes' order): linear light in lanes 0–2, sRGB levels in lanes 4–6.
    /// `parts` is room the caller keeps between cells: made per call (a
    /// temporary allocation of 32-byte vectors goes to the heap), it was a
    /// malloc and a free a cell, 8% of an animation's CPU.
    func sum(_ values: UnsafeBufferPointer<SIMD8<Float>>, into sums: inout [SIMD8<Float>], parts: inout [SIMD8<Float>])
    {
        let (gx, gy) = (grid.columns, grid.rows)
        sums.removeAll(keepingCapacity: true)
        let needed = 2 * gy + gx + gy + 4
        if parts.count != needed { parts = [SIMD8<Float>](repeating: .zero, count: needed) }
        // Half-rows (left, right) and columns; rows and quarters from them.
        parts.withUnsafeMutableBufferPointer { parts in
            parts.update(repeating: .zero)
            if readsRows || readsColumns {
                for y in 0..<gy {
                    var left = SIMD8<Float>.zero
                    var right = SIMD8<Float>.zero
                    for x in 0..<gx {
                        let v = values[y * gx + x]
                        if x < gx / 2 { left += v } else { right += v }
                        if readsColumns { parts[2 * gy + x] += v }
                    }
                    parts[2 * y] = left
                    parts[2 * y + 1] = right
                    parts[2 * gy + gx + y] = left + right
                    parts[2 * gy + gx + gy + (y < gy / 2 ? 0 : 2)] += left
                    parts[2 * gy + gx + gy + (y < gy / 2 ? 1 : 3)] += right
                }
            }
            for source in sources {
                switch source {
                case let .rows(bits): sums.append(ShapePlan.add(bits, parts, from: 2 * gy + gx))
                case let .columns(bits): sums.append(ShapePlan.add(bits, parts, from: 2 * gy))
                case let .quarters(bits): sums.append(ShapePlan.add(bits, parts, from: 2 * gy + gx + gy))
                case let .subCells(bits):
                    sums.append(ShapePlan.add(bits, UnsafeMutableBufferPointer(mutating: values), from: 0))
                }
            }
        }
    }

    /// The sum of the parts named by `bits`, counted from `base`.
    @inline(__always)
    private static func add(
        _ bits: UInt64,
        _ parts: UnsafeMutableBufferPointer<SIMD8<Float>>,
        from base: Int
    ) -> SIMD8<Float> {
        var total = SIMD8<Float>.zero
        var rest = bits
        while rest != 0 {
            total += parts[base + rest.trailingZeroBitCount]
            rest &= rest - 1
        }
        return total
    }
}

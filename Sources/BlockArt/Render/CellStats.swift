/// What both colour searches need of one cell: its sums in linear light and
/// in sRGB, and each shape's foreground side, so that any split's error
/// comes from sums alone.
struct CellStats {
    /// Sub-cells in the cell.
    let n: Int
    /// Sum of the sub-cells in linear light, and in sRGB levels.
    let total: SIMD3<Float>
    let srgbTotal: SIMD3<Float>
    /// Σ|s|² over the sub-cells' sRGB levels: the part of every error that
    /// does not depend on the colours chosen.
    let energy: Float
    /// The cell's average light.
    let mean: LinearRGB

    /// Sums the block, filling in its sRGB values on the way.
    init(_ block: inout Renderer.CellBlock) {
        let n = block.count
        var total = SIMD3<Float>.zero, srgbTotal = SIMD3<Float>.zero
        var energy: Float = 0
        for k in 0..<n {
            let c = block.linear[k]
            total += SIMD3(c.r, c.g, c.b)
            let s = ColorSpace.toSRGB(c.vector)
            block.srgb[k] = s
            srgbTotal += s
            energy += (s * s).sum()
        }
        self.n = n
        self.total = total
        self.srgbTotal = srgbTotal
        self.energy = energy
        mean = LinearRGB(total.x / Float(n), total.y / Float(n), total.z / Float(n))
    }

    /// Σ|s − colour|² over a side, from its sums alone (less the energy):
    /// count·|colour|² − 2 colour·Σs.
    @inline(__always)
    static func sideError(_ sum: SIMD3<Float>, _ count: Float, _ color: SIMD3<Float>) -> Float {
        count * (color * color).sum() - 2 * (color * sum).sum()
    }

    /// Sums every shape's foreground side in one pass; the searches then
    /// read them.
    func sumShapes(_ block: Renderer.CellBlock, shapes: [Shape], into sums: inout [ShapeSums]) {
        sums.removeAll(keepingCapacity: true)
        for shape in shapes {
            var front = SIMD3<Float>.zero, srgbFront = SIMD3<Float>.zero
            // Only the set bits: an 8×8 grid has 64 sub-cells.
            var bits = shape.mask
            let count = bits.nonzeroBitCount
            while bits != 0 {
                let k = bits.trailingZeroBitCount
                bits &= bits - 1
                let c = block.linear[k]
                front += SIMD3(c.r, c.g, c.b)
                srgbFront += block.srgb[k]
            }
            let back = total - front
            let score = (front * front).sum() / Float(count) + (back * back).sum() / Float(n - count)
            sums.append(ShapeSums(front: front, srgbFront: srgbFront, count: count, score: score))
        }
    }
}

/// A shape's foreground side: linear and sRGB sums, sub-cell count, and
/// how much of the cell's energy its two means explain (higher is better).
struct ShapeSums {
    var front: SIMD3<Float>
    var srgbFront: SIMD3<Float>
    var count: Int
    var score: Float
}

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
        block.fillLevels()
        var both = SIMD8<Float>.zero
        var energy: Float = 0
        // Through pointers: 64 sub-cells a cell, every frame, where array
        // accesses checked each index and each write the array's owner.
        block.linear.withUnsafeBufferPointer { linear in
            block.srgb.withUnsafeBufferPointer { srgb in
                block.packed.withUnsafeMutableBufferPointer { packed in
                    for k in 0..<n {
                        let c = linear[k]
                        let s = SIMD3(srgb[3 * k], srgb[3 * k + 1], srgb[3 * k + 2])
                        let value = SIMD8<Float>(c.r, c.g, c.b, 0, s.x, s.y, s.z, 0)
                        packed[k] = value
                        both += value
                        energy += (s * s).sum()
                    }
                }
            }
        }
        self.n = n
        total = SIMD3(both[0], both[1], both[2])
        srgbTotal = SIMD3(both[4], both[5], both[6])
        self.energy = energy
        mean = LinearRGB(total.x / Float(n), total.y / Float(n), total.z / Float(n))
    }

    /// Σ|s − colour|² over a side, from its sums alone (less the energy):
    /// count·|colour|² − 2 colour·Σs.
    @inline(__always)
    static func sideError(_ sum: SIMD3<Float>, _ count: Float, _ color: SIMD3<Float>) -> Float {
        count * (color * color).sum() - 2 * (color * sum).sum()
    }

    /// Sums every shape's foreground side (see `ShapePlan`); the searches
    /// then read them.
    func sumShapes(_ block: Renderer.CellBlock, shapes: [Shape], plan: ShapePlan, scratch: inout Renderer.Scratch) {
        block.packed.withUnsafeBufferPointer { plan.sum($0, into: &scratch.packedSums, parts: &scratch.parts) }
        scratch.sums.removeAll(keepingCapacity: true)
        for (shape, both) in zip(shapes, scratch.packedSums) {
            let front = SIMD3(both[0], both[1], both[2])
            let srgbFront = SIMD3(both[4], both[5], both[6])
            scratch.sums.append(ShapeSums(front: front, srgbFront: srgbFront, count: shape.mask.nonzeroBitCount))
        }
    }

    /// How much of the cell's energy a shape's two linear means explain
    /// (higher is better): palette modes search the best few.
    func score(_ sums: ShapeSums) -> Float {
        let back = total - sums.front
        return (sums.front * sums.front).sum() / Float(sums.count) + (back * back).sum() / Float(n - sums.count)
    }
}

/// A shape's foreground side: linear and sRGB sums, and sub-cell count.
struct ShapeSums {
    var front: SIMD3<Float>
    var srgbFront: SIMD3<Float>
    var count: Int
}

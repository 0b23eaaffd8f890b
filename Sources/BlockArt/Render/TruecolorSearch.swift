extension Renderer {
    /// Truecolour: one colour a side, its linear mean, shown exactly. Each
    /// shape is scored with its means' sRGB, and colours are made for the
    /// winner only.
    ///
    /// A shape's sRGB error cannot fall below what its sides' sRGB means
    /// would leave (`floor`), which needs no conversion to sRGB. Shapes are
    /// scored from the lowest floor up, and one whose floor is above the
    /// best error so far is passed over: it cannot win. The winner is the
    /// one the full search picks (least error, then the earlier shape, the
    /// flat cell before all), since only shapes that lose are passed over.
    static func truecolorChoice(
        _ cell: CellStats,
        shapes: [Shape],
        quantizer: Quantizer,
        scratch: inout Scratch
    ) -> Choice {
        let n = cell.n
        // The flat cell: the mean over the whole of it.
        let flat = quantizer.quantize(cell.mean)
        var bestError = cell.energy + CellStats.sideError(cell.srgbTotal, Float(n), flat.srgb)
        var winner: (index: Int, front: SIMD3<Float>, back: SIMD3<Float>)?
        // The floors, and the shape with the lowest, scored first.
        scratch.perShape.removeAll(keepingCapacity: true)
        var first = 0
        for (index, sums) in scratch.sums.enumerated() {
            let floor = cell.floor(sums)
            scratch.perShape.append(floor)
            if floor < scratch.perShape[first] { first = index }
        }
        // Float rounding in a floor and an error is far below this margin
        // (a few units in the last place of the energy, which bounds both).
        let margin = cell.energy * 1e-5 + 1
        func score(_ index: Int) {
            let sums = scratch.sums[index]
            let nf = Float(sums.count)
            let nb = Float(n - sums.count)
            let front = sums.front / nf
            let back = (cell.total - sums.front) / nb
            let e =
                cell.energy + CellStats.sideError(sums.srgbFront, nf, ColorSpace.toSRGB(front))
                + CellStats.sideError(cell.srgbTotal - sums.srgbFront, nb, ColorSpace.toSRGB(back))
            if e < bestError || (e == bestError && winner.map { index < $0.index } == true) {
                bestError = e
                winner = (index, front, back)
            }
        }
        if !scratch.sums.isEmpty { score(first) }
        for index in scratch.sums.indices where index != first && scratch.perShape[index] <= bestError + margin {
            score(index)
        }
        guard let winner else { return Choice(mask: 0, glyph: " ", fg: flat, bg: flat) }
        let shape = shapes[winner.index]
        return Choice(
            mask: shape.mask,
            glyph: shape.glyph,
            fg: quantizer.quantize(LinearRGB(winner.front)),
            bg: quantizer.quantize(LinearRGB(winner.back))
        )
    }
}

extension CellStats {
    /// The least sRGB error a shape could have with any two colours: each
    /// side's own sRGB mean, where the error is energy − |Σs|²/count.
    @inline(__always)
    func floor(_ sums: ShapeSums) -> Float {
        let front = sums.srgbFront
        let back = srgbTotal - sums.srgbFront
        return energy - (front * front).sum() / Float(sums.count) - (back * back).sum() / Float(n - sums.count)
    }
}

extension Renderer {
    /// Truecolour: one colour a side, its linear mean, shown exactly. Each
    /// shape is scored with its means' sRGB, and colours are made for the
    /// winner only.
    static func truecolorChoice(_ cell: CellStats, shapes: [Shape], quantizer: Quantizer,
                                scratch: inout Scratch) -> Choice {
        let n = cell.n
        // The flat cell: the mean over the whole of it.
        let flat = quantizer.quantize(cell.mean)
        var best = Choice(mask: 0, glyph: " ", fg: flat, bg: flat)
        var bestError = cell.energy + CellStats.sideError(cell.srgbTotal, Float(n), flat.srgb)
        var winner: (index: Int, front: SIMD3<Float>, back: SIMD3<Float>)?
        for (index, sums) in scratch.sums.enumerated() {
            let nf = Float(sums.count), nb = Float(n - sums.count)
            let front = sums.front / nf, back = (cell.total - sums.front) / nb
            let e = cell.energy + CellStats.sideError(sums.srgbFront, nf, ColorSpace.toSRGB(front))
                + CellStats.sideError(cell.srgbTotal - sums.srgbFront, nb, ColorSpace.toSRGB(back))
            if e < bestError {
                bestError = e
                winner = (index, front, back)
            }
        }
        if let winner {
            let shape = shapes[winner.index]
            best = Choice(mask: shape.mask, glyph: shape.glyph, fg: quantizer.quantize(LinearRGB(winner.front)),
                          bg: quantizer.quantize(LinearRGB(winner.back)))
        }
        return best
    }
}

extension Renderer {
    /// How much a cell's average colour counts against its sub-cells' errors
    /// in palette modes (truecolor keeps the average exactly anyway).
    static let cellMeanWeight: Float = 0.75

    /// How many shapes palette modes try colour pairs for.
    static let shortlistLength = 4

    /// Palette modes: each side tries the palette colours around its mean,
    /// and the cell's average counts too, since two palette colours in a
    /// pattern can show a colour the palette lacks. That average's error is
    /// taken in sRGB, as the eye (and the measure) sees it; the curve's
    /// slope at the mean would be cheaper but steers ~0.3 dB off.
    static func paletteChoice(_ cell: CellStats, shapes: [Shape], quantizer: Quantizer,
                              scratch: inout Scratch) -> Choice {
        let n = cell.n
        let weight = Renderer.cellMeanWeight * Float(n)
        let meanSRGB = ColorSpace.toSRGB(cell.mean.vector)
        @inline(__always) func meanError(_ fraction: Float, _ fg: Quantized, _ bg: Quantized) -> Float {
            let shown = ColorSpace.toSRGB(fg.vector * fraction + bg.vector * (1 - fraction))
            let d = shown - meanSRGB
            return weight * (d * d).sum()
        }
        // The flat cell: one palette colour near the mean.
        quantizer.candidates(cell.mean, into: &scratch.fronts)
        var best = Choice(mask: 0, glyph: " ", fg: scratch.fronts[0], bg: scratch.fronts[0])
        var bestError = Float.infinity
        for q in scratch.fronts {
            let e = cell.energy + CellStats.sideError(cell.srgbTotal, Float(n), q.srgb) + meanError(1, q, q)
            if e < bestError {
                bestError = e
                best = Choice(mask: 0, glyph: " ", fg: q, bg: q)
            }
        }
        shortlist(shapes.count, &scratch)
        for index in scratch.order {
            let shape = shapes[index], sums = scratch.sums[index]
            let nf = Float(sums.count), nb = Float(n - sums.count)
            let back = (cell.total - sums.front) / nb, srgbBack = cell.srgbTotal - sums.srgbFront, srgbFront = sums.srgbFront
            let front = sums.front / nf
            quantizer.candidates(LinearRGB(front), into: &scratch.fronts)
            quantizer.candidates(LinearRGB(back), into: &scratch.backs)
            // The sides' errors first: the mean's error only adds, so a pair
            // already worse without it is skipped before its table look-ups.
            scratch.backErrors.removeAll(keepingCapacity: true)
            var bestBack = Float.infinity
            for qb in scratch.backs {
                let e = CellStats.sideError(srgbBack, nb, qb.srgb)
                scratch.backErrors.append(e)
                bestBack = min(bestBack, e)
            }
            let fraction = nf / Float(n)
            for qf in scratch.fronts {
                let ef = cell.energy + CellStats.sideError(srgbFront, nf, qf.srgb)
                if ef + bestBack >= bestError { continue }
                for (b, qb) in scratch.backs.enumerated() {
                    let sides = ef + scratch.backErrors[b]
                    if sides >= bestError { continue }
                    let e = sides + meanError(fraction, qf, qb)
                    if e < bestError {
                        bestError = e
                        best = Choice(mask: shape.mask, glyph: shape.glyph, fg: qf, bg: qb)
                    }
                }
            }
        }
        return best
    }

    /// Colour pairs are searched only for the few shapes that fit best
    /// before quantising (`scratch.order`): the rest cannot win.
    @inline(__always)
    private static func shortlist(_ count: Int, _ scratch: inout Scratch) {
        scratch.order.removeAll(keepingCapacity: true)
        scratch.order.append(contentsOf: 0..<count)
        guard count > Renderer.shortlistLength else { return }
        let sums = scratch.sums
        scratch.order.sort { sums[$0].score > sums[$1].score }
        scratch.order.removeLast(count - Renderer.shortlistLength)
    }
}

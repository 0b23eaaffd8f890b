extension Renderer {
    /// How many shapes palette modes try colour pairs for.
    static let shortlistLength = 4

    /// Palette modes: each side tries the palette colours around its mean,
    /// and the pair of least squared sRGB error over the sub-cells wins.
    /// The cell's average is not rewarded on its own: two palette colours
    /// in a pattern can show from afar a colour the palette lacks, but up
    /// close they are speckle across a flat area. A weight of 0.75 on the
    /// average's error did that. Without it, the screenshots of urxvt
    /// (256 colours) gain 0.4–0.5 dB and artq's coarse measure rises
    /// 0.02–0.38 dB, to within 0.12 dB of the palette's ceiling; its cell
    /// measure (each cell's mean alone) falls 1–2.5 dB, still above chafa's.
    /// What a person sees up close, and the coarse measure, win.
    static func paletteChoice(
        _ cell: CellStats,
        shapes: [Shape],
        quantizer: Quantizer,
        scratch: inout Scratch
    ) -> Choice {
        let n = cell.n
        // The flat cell: one palette colour near the mean.
        quantizer.candidates(cell.mean, into: &scratch.fronts)
        let flat = nearest(scratch.fronts, sum: cell.srgbTotal, count: Float(n))
        var best = Choice(mask: 0, glyph: " ", fg: flat.color, bg: flat.color)
        var bestError = cell.energy + flat.error
        shortlist(cell, &scratch)
        for index in scratch.order {
            let shape = shapes[index]
            let sums = scratch.sums[index]
            let nf = Float(sums.count)
            let nb = Float(n - sums.count)
            let back = (cell.total - sums.front) / nb
            let front = sums.front / nf
            quantizer.candidates(LinearRGB(front), into: &scratch.fronts)
            quantizer.candidates(LinearRGB(back), into: &scratch.backs)
            // The sides' errors add up with nothing shared: each side's
            // nearest colour is the pair's.
            let fg = nearest(scratch.fronts, sum: sums.srgbFront, count: nf)
            let bg = nearest(scratch.backs, sum: cell.srgbTotal - sums.srgbFront, count: nb)
            let error = cell.energy + fg.error + bg.error
            if error < bestError {
                bestError = error
                best = Choice(mask: shape.mask, glyph: shape.glyph, fg: fg.color, bg: bg.color)
            }
        }
        return best
    }

    /// The candidate of least squared sRGB error over a side with these
    /// sums, and that error (less the side's energy).
    @inline(__always)
    private static func nearest(
        _ candidates: [Quantized],
        sum: SIMD3<Float>,
        count: Float
    ) -> (color: Quantized, error: Float) {
        var best = (color: candidates[0], error: Float.infinity)
        for q in candidates {
            let e = CellStats.sideError(sum, count, q.srgb)
            if e < best.error { best = (q, e) }
        }
        return best
    }

    /// Colour pairs are searched only for the few shapes that fit best
    /// before quantising (`scratch.order`): the rest cannot win.
    @inline(__always)
    private static func shortlist(_ cell: CellStats, _ scratch: inout Scratch) {
        let count = scratch.sums.count
        scratch.order.removeAll(keepingCapacity: true)
        scratch.order.append(contentsOf: 0..<count)
        guard count > Renderer.shortlistLength else { return }
        scratch.perShape.removeAll(keepingCapacity: true)
        for sums in scratch.sums { scratch.perShape.append(cell.score(sums)) }
        let scores = scratch.perShape
        scratch.order.sort { scores[$0] > scores[$1] }
        scratch.order.removeLast(count - Renderer.shortlistLength)
    }
}

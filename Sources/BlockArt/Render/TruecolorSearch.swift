extension Renderer {
    /// Truecolour: each side shows the mean of its sub-cells' sRGB levels,
    /// the colour of least squared sRGB error over them, so a shape's error
    /// is its floor (`CellStats.floor`) and the least floor wins: least
    /// error, then the earlier shape, the flat cell before all.
    ///
    /// Light is still averaged linearly within a sub-cell, the finest detail
    /// a glyph can show. Across the sub-cells of a side, the linear mean
    /// kept each cell's average light exactly (artq's cell measure, about
    /// 60 dB) but showed noise lighter than any of its pixels looks up
    /// close. The sRGB mean gives that up (the cell measure falls to
    /// 35–56 dB) for what a person sees: at 60×20 cells, in every glyph
    /// set, artq's per-pixel measure rises 0.10–0.18 dB on detail600.png
    /// and 0.08–0.16 on photo.jpg, and its coarse one 0.08–0.21 on
    /// photo.jpg and −0.09 to +0.12 on detail600.png; every block-art
    /// terminal's screenshot gains 0.03–0.21 dB (`terminals.sh`). The
    /// palette modes made the same choice.
    static func truecolorChoice(_ cell: CellStats, shapes: [Shape], scratch: inout Scratch) -> Choice {
        let n = Float(cell.n)
        var bestError = cell.energy - (cell.srgbTotal * cell.srgbTotal).sum() / n
        var winner: Int?
        for (index, sums) in scratch.sums.enumerated() {
            let error = cell.floor(sums)
            if error < bestError {
                bestError = error
                winner = index
            }
        }
        guard let winner else {
            let flat = shown(cell.srgbTotal / n)
            return Choice(mask: 0, glyph: " ", fg: flat, bg: flat)
        }
        let sums = scratch.sums[winner]
        let count = Float(sums.count)
        return Choice(
            mask: shapes[winner].mask,
            glyph: shapes[winner].glyph,
            fg: shown(sums.srgbFront / count),
            bg: shown((cell.srgbTotal - sums.srgbFront) / (n - count))
        )
    }

    /// A mean of sRGB levels, rounded to the level the terminal is sent.
    private static func shown(_ levels: SIMD3<Float>) -> Quantized {
        func level(_ v: Float) -> UInt8 { UInt8(max(0, min(255, v + 0.5))) }
        let rgb = RGB8(level(levels.x), level(levels.y), level(levels.z))
        return Quantized(linear: LinearRGB(srgb: rgb), terminal: .rgb(rgb))
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

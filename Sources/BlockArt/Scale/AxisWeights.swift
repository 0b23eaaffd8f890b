/// One axis of the filter: per output pixel, the first source pixel it
/// reads, how many, and where their weights start in `weights` (flat, for
/// the hot loop).
struct AxisWeights {
    var start: [Int] = []
    var count: [Int] = []
    var offset: [Int] = []
    var weights: [Float] = []

    /// The output pixels whose windows hold source pixel `s` (windows only
    /// move forward, so their ends never decrease).
    func outputs(containing s: Int) -> Range<Int> {
        var low = 0
        var high = start.count
        while low < high {
            let middle = (low + high) / 2
            if start[middle] + count[middle] > s { high = middle } else { low = middle + 1 }
        }
        var end = low
        while end < start.count && start[end] <= s { end += 1 }
        return low..<end
    }

    init(source: Int, output: Int, samples: Int) {
        let samples = max(1, samples)
        let scale = Double(source) / Double(output * samples)
        // PIL's BOX: a window one raster pixel wide, but never narrower than
        // one source pixel, so that enlarging picks the pixel under the centre.
        let filterScale = max(scale, 1)
        let support = 0.5 * filterScale
        var sums: [Double] = []
        for o in 0..<output {
            let firstCenter = (Double(o * samples) + 0.5) * scale
            let lastCenter = (Double((o + 1) * samples) - 0.5) * scale
            let first = max(0, min(source - 1, Int(firstCenter - support + 0.5)))
            let last = max(first, min(source - 1, Int(lastCenter + support + 0.5)))
            sums = [Double](repeating: 0, count: last - first + 1)
            var used = (low: last, high: first)
            for x in (o * samples)..<((o + 1) * samples) {
                let center = (Double(x) + 0.5) * scale
                let low = max(first, Int(center - support + 0.5))
                let high = min(last + 1, Int(center + support + 0.5))
                func inside(_ j: Int) -> Bool {
                    let t = (Double(j) - center + 0.5) / filterScale
                    return t > -0.5 && t <= 0.5
                }
                let covered = (low..<max(low, high)).filter(inside)
                let chosen = covered.isEmpty ? [max(first, min(last, Int(center)))] : covered
                for j in chosen {
                    sums[j - first] += 1 / Double(chosen.count * samples)
                    used = (min(used.low, j), max(used.high, j))
                }
            }
            // Trim the window to the pixels that got weight.
            sums = Array(sums[(used.low - first)...(used.high - first)])
            start.append(used.low)
            count.append(sums.count)
            offset.append(weights.count)
            weights.append(contentsOf: sums.map { Float($0) })
        }
    }
}

/// The same windows with one number of taps for all, the widest window's:
/// each starts early enough to fit, and the taps it does not use weigh 0.
/// The horizontal pass then runs the same inner loop for every column: a
/// window of 1 or 2 pixels in turn (a scale near 1) mispredicted its
/// loop's end at almost every column.
struct FixedTaps {
    let taps: Int
    let start: [Int]
    /// `taps` a column.
    let weights: [Float]

    init(_ axis: AxisWeights, source: Int) {
        let taps = min(max(1, axis.count.max() ?? 1), max(1, source))
        var start: [Int] = []
        var weights: [Float] = []
        for o in 0..<axis.start.count {
            let first = max(0, min(axis.start[o], source - taps))
            var column = [Float](repeating: 0, count: taps)
            for j in 0..<axis.count[o] { column[axis.start[o] - first + j] = axis.weights[axis.offset[o] + j] }
            start.append(first)
            weights += column
        }
        self.taps = taps
        self.start = start
        self.weights = weights
    }
}

/// Area-averaging (box filter) resampling, fed one source row at a time, so
/// that memory follows the output size and not the source: a 10000×10000
/// image costs a few output rows of accumulators. Each output pixel is the
/// exact area-weighted mean of the source pixels it covers (fractional
/// edges included), the same filter as PIL's BOX. Values are linear light.
public struct BoxResampler {
    public let sourceWidth: Int, sourceHeight: Int
    public let width: Int, height: Int

    /// Per output column: the first source column, how many it covers, and
    /// where its weights start in `weights` (flat, for the hot loop).
    private let columnStart: [Int]
    private let columnCount: [Int]
    private let weightStart: [Int]
    private let weights: [Float]
    private var horizontal: [Float]
    private var accumulator: [Float]
    private var output: [Float]
    private var sourceRow = 0
    private var outputRow = 0
    /// Source rows per output row.
    private let scaleY: Double

    public init(sourceWidth: Int, sourceHeight: Int, width: Int, height: Int) {
        self.sourceWidth = sourceWidth
        self.sourceHeight = sourceHeight
        self.width = max(1, width)
        self.height = max(1, height)
        let scaleX = Double(sourceWidth) / Double(self.width)
        var starts: [Int] = [], counts: [Int] = [], offsets: [Int] = []
        var weights: [Float] = []
        for x in 0..<self.width {
            let left = Double(x) * scaleX, right = Double(x + 1) * scaleX
            let first = Int(left.rounded(.down)), last = min(sourceWidth - 1, Int((right - 1e-9).rounded(.down)))
            starts.append(first)
            offsets.append(weights.count)
            for s in first...max(first, last) {
                weights.append(Float((min(right, Double(s + 1)) - max(left, Double(s))) / scaleX))
            }
            counts.append(max(first, last) - first + 1)
        }
        columnStart = starts
        columnCount = counts
        weightStart = offsets
        self.weights = weights
        horizontal = [Float](repeating: 0, count: self.width * 3)
        accumulator = [Float](repeating: 0, count: self.width * 3)
        output = [Float](repeating: 0, count: self.width * self.height * 3)
        scaleY = Double(sourceHeight) / Double(self.height)
    }

    /// Adds the next source row: sourceWidth × 3 linear values.
    public mutating func push(_ row: UnsafeBufferPointer<Float>) {
        guard sourceRow < sourceHeight, let src = row.baseAddress else { return }
        filterRow { s in (src[s * 3], src[s * 3 + 1], src[s * 3 + 2]) }
        accumulate()
    }

    /// Adds the next source row as decoded bytes (3 per pixel, or 4 with
    /// alpha, composited over `background`), turning them into linear light
    /// on the way: one pass over the decoder's row, nothing else stored.
    mutating func push(bytes row: UnsafePointer<UInt8>, channels: Int, background: LinearRGB) {
        guard sourceRow < sourceHeight else { return }
        ColorSpace.toLinear.withUnsafeBufferPointer { table in
            if channels == 3 {
                filterRow { s in (table[Int(row[s * 3])], table[Int(row[s * 3 + 1])], table[Int(row[s * 3 + 2])]) }
            } else {
                filterRow { s in
                    let p = s * 4
                    let r = table[Int(row[p])], g = table[Int(row[p + 1])], b = table[Int(row[p + 2])]
                    let alpha = row[p + 3]
                    if alpha == 255 { return (r, g, b) }
                    let f = Float(alpha) * (1 / 255)
                    return (r * f + background.r * (1 - f), g * f + background.g * (1 - f), b * f + background.b * (1 - f))
                }
            }
        }
        accumulate()
    }

    /// The horizontal pass: each output column's weighted sum of its source pixels.
    @inline(__always)
    private mutating func filterRow(_ pixel: (Int) -> (Float, Float, Float)) {
        let width = self.width
        columnStart.withUnsafeBufferPointer { starts in
            columnCount.withUnsafeBufferPointer { counts in
                weightStart.withUnsafeBufferPointer { offsets in
                    weights.withUnsafeBufferPointer { w in
                        horizontal.withUnsafeMutableBufferPointer { out in
                            for x in 0..<width {
                                var r: Float = 0, g: Float = 0, b: Float = 0
                                let first = starts[x], base = offsets[x]
                                for j in 0..<counts[x] {
                                    let (pr, pg, pb) = pixel(first + j)
                                    let weight = w[base + j]
                                    r += pr * weight
                                    g += pg * weight
                                    b += pb * weight
                                }
                                out[x * 3] = r
                                out[x * 3 + 1] = g
                                out[x * 3 + 2] = b
                            }
                        }
                    }
                }
            }
        }
    }

    /// The vertical pass, for the row just filtered.
    private mutating func accumulate() {
        // This source row spans [sourceRow, sourceRow + 1); give each output
        // row it overlaps its share.
        let top = Double(sourceRow), bottom = Double(sourceRow + 1)
        while outputRow < height {
            let rowTop = Double(outputRow) * scaleY, rowBottom = Double(outputRow + 1) * scaleY
            let overlap = min(bottom, rowBottom) - max(top, rowTop)
            if overlap > 0 {
                let weight = Float(overlap / scaleY)
                horizontal.withUnsafeBufferPointer { h in
                    accumulator.withUnsafeMutableBufferPointer { acc in
                        for i in 0..<acc.count { acc[i] += h[i] * weight }
                    }
                }
            }
            if rowBottom <= bottom + 1e-9 {
                flushRow()
                if rowBottom >= bottom - 1e-9 { break }
            } else {
                break
            }
        }
        sourceRow += 1
    }

    private mutating func flushRow() {
        let base = outputRow * width * 3
        for i in 0..<accumulator.count {
            output[base + i] = accumulator[i]
            accumulator[i] = 0
        }
        outputRow += 1
    }

    /// The result; rows never delivered (a truncated source) stay as far as
    /// they got.
    public mutating func finish() -> Pixmap {
        if outputRow < height && sourceRow > 0 { flushRow() }
        return Pixmap(width: width, height: height, values: output)
    }
}

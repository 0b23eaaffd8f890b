/// Area-averaging (box filter) resampling, fed one source row at a time, so
/// that memory follows the output size and not the source: a 10000×10000
/// image costs a few output rows of accumulators. Each output pixel is the
/// exact area-weighted mean of the source pixels it covers (fractional
/// edges included), the same filter as PIL's BOX. Values are linear light.
public struct BoxResampler {
    public let sourceWidth: Int, sourceHeight: Int
    public let width: Int, height: Int

    /// Per output column: the first source column and the weights of the
    /// source columns it covers.
    private let columnStart: [Int]
    private let columnWeights: [[Float]]
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
        var starts: [Int] = []
        var weights: [[Float]] = []
        for x in 0..<self.width {
            let left = Double(x) * scaleX, right = Double(x + 1) * scaleX
            let first = Int(left.rounded(.down)), last = min(sourceWidth - 1, Int((right - 1e-9).rounded(.down)))
            starts.append(first)
            weights.append((first...max(first, last)).map { s in
                Float((min(right, Double(s + 1)) - max(left, Double(s))) / scaleX)
            })
        }
        columnStart = starts
        columnWeights = weights
        horizontal = [Float](repeating: 0, count: self.width * 3)
        accumulator = [Float](repeating: 0, count: self.width * 3)
        output = [Float](repeating: 0, count: self.width * self.height * 3)
        scaleY = Double(sourceHeight) / Double(self.height)
    }

    /// Adds the next source row: sourceWidth × 3 linear values.
    public mutating func push(_ row: UnsafeBufferPointer<Float>) {
        guard sourceRow < sourceHeight else { return }
        row.withMemoryRebound(to: Float.self) { src in
            for x in 0..<width {
                var r: Float = 0, g: Float = 0, b: Float = 0
                var s = columnStart[x] * 3
                for w in columnWeights[x] {
                    r += src[s] * w
                    g += src[s + 1] * w
                    b += src[s + 2] * w
                    s += 3
                }
                horizontal[x * 3] = r
                horizontal[x * 3 + 1] = g
                horizontal[x * 3 + 2] = b
            }
        }
        // This source row spans [sourceRow, sourceRow + 1); give each output
        // row it overlaps its share.
        let top = Double(sourceRow), bottom = Double(sourceRow + 1)
        while outputRow < height {
            let rowTop = Double(outputRow) * scaleY, rowBottom = Double(outputRow + 1) * scaleY
            let overlap = min(bottom, rowBottom) - max(top, rowTop)
            if overlap > 0 {
                let weight = Float(overlap / scaleY)
                for i in 0..<accumulator.count { accumulator[i] += horizontal[i] * weight }
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

/// Box-filter resampling in linear light, fed one source row at a time, so
/// that memory follows the output size and not the source: a 10000×10000
/// image costs one source row of column sums and the output.
///
/// Each output pixel is the mean of `samples` raster pixels, and each raster
/// pixel is PIL's BOX filter of the source: the mean of the source pixels
/// whose centres it covers, or the one under its centre when it covers none.
/// The renderer samples every cell at 8×24 raster pixels, the raster at which
/// artq (the measure) compares art with the image, so a sub-cell is
/// exactly the part of that reference it stands for. (Averaging exact areas
/// instead moves hard edges by up to one raster pixel; on graphics that cost
/// 0.2–0.8 dB against the measure, with no difference a person could see.)
// Over 300 lines on purpose: this is the measured hot loop of every decode
// (the vertical and horizontal passes, the column sums, the row flush), and
// its private functions must stay in one file to be inlined into each other
// in debug builds too, where BlockArt is built -O without whole-module
// optimisation (a function in another file is a call per row or pixel).
public struct BoxResampler {
    public let sourceWidth: Int, sourceHeight: Int
    public let width: Int, height: Int

    private let columns: FixedTaps
    private let rows: AxisWeights
    /// A row filtered across, for the scattered rows of an interlaced image.
    private var horizontal: [Float]
    /// Rows in order are summed down first, into these sums a source row
    /// wide, and filtered across once an output row: on a downscale the
    /// horizontal pass then runs for each output row, not each source row
    /// (half as often for 720 rows to 352), and writes straight into the
    /// output, where a row-wide accumulator was copied there.
    private var columnSums: [SIMD4<Float>] = []
    /// No source row has been added into `columnSums` since the last
    /// output row: the next one is stored, not added (no zeroing pass).
    private var columnSumsEmpty = true
    /// Made on first use, uninitialised: rows in order are each written
    /// whole, and only the rest are zeroed (at the switch to scattered
    /// rows, or at the end). A resampler copied before any row (an
    /// animation's, a frame each) then copies no output either.
    private var output: [Float] = []
    private var sourceRow = 0
    private var outputRow = 0
    /// Set once rows arrive out of order (an interlaced image): they are
    /// then added straight into `output`.
    private var scattered = false
    /// A scattered row in linear light, filtered across from here (made on
    /// first use; rows in order go straight into `columnSums`).
    private var linearRow: [SIMD4<Float>] = []

    /// `samples`: raster pixels per output pixel, across and down.
    public init(sourceWidth: Int, sourceHeight: Int, width: Int, height: Int, samples: (x: Int, y: Int) = (1, 1)) {
        self.sourceWidth = sourceWidth
        self.sourceHeight = sourceHeight
        self.width = max(1, width)
        self.height = max(1, height)
        columns = FixedTaps(
            AxisWeights(source: sourceWidth, output: self.width, samples: samples.x),
            source: sourceWidth
        )
        rows = AxisWeights(source: sourceHeight, output: self.height, samples: samples.y)
        horizontal = [Float](repeating: 0, count: self.width * 3)
    }

    /// Adds the next source row: sourceWidth × 3 linear values.
    public mutating func push(_ row: UnsafeBufferPointer<Float>) {
        guard sourceRow < sourceHeight, let src = row.baseAddress else { return }
        accumulate(count: sourceWidth, { s in SIMD4(src[s * 3], src[s * 3 + 1], src[s * 3 + 2], 0) }, rest: .zero)
    }

    /// Adds the next source row as decoded bytes (3 per pixel, or 4 with
    /// alpha, composited over `background`), turning them into linear light
    /// on the way. Each source pixel is turned once (twice on a row two
    /// output rows share) and weighed whole, as a vector, into the column
    /// sums: turned once per weight across, and its channels weighed one
    /// by one, it took a third of an animation's decode.
    mutating func push(bytes row: UnsafePointer<UInt8>, channels: Int, background: LinearRGB) {
        push(bytes: row, channels: channels, background: background, at: RowPlacement(y: sourceRow, count: sourceWidth))
    }

    /// One RGBA8 pixel in linear light, laid over `background` unless opaque.
    @inline(__always)
    private static func composited(
        _ pixel: UnsafePointer<UInt8>,
        table: UnsafeBufferPointer<Float>,
        background: LinearRGB
    ) -> SIMD4<Float> {
        let color = LinearRGB(table[Int(pixel[0])], table[Int(pixel[1])], table[Int(pixel[2])])
        let alpha = pixel[3]
        if alpha == 255 { return SIMD4(color.r, color.g, color.b, 0) }
        let mixed = color.over(background, alpha: Float(alpha) * (1 / 255))
        return SIMD4(mixed.r, mixed.g, mixed.b, 0)
    }

    /// Adds a decoded row that goes where `place` says (bytes, 3 a pixel
    /// or 4 with alpha composited over `background`).
    mutating func push(bytes row: UnsafePointer<UInt8>, channels: Int, background: LinearRGB, at place: RowPlacement) {
        ColorSpace.toLinear.withUnsafeBufferPointer { table in
            if channels == 3 {
                push(at: place, background: background) { k in
                    SIMD4(table[Int(row[k * 3])], table[Int(row[k * 3 + 1])], table[Int(row[k * 3 + 2])], 0)
                }
            } else {
                push(at: place, background: background) { k in
                    BoxResampler.composited(row + k * 4, table: table, background: background)
                }
            }
        }
    }

    /// Adds a row of palette indices, a byte a pixel, that goes where
    /// `place` says: `palette` is in linear light, its transparency
    /// already laid over `background` (`linearPalette`). A pixel is one
    /// load, where RGBA bytes are three table loads and a test of alpha.
    mutating func push(
        indices row: UnsafePointer<UInt8>,
        palette: UnsafeBufferPointer<SIMD4<Float>>,
        background: LinearRGB,
        at place: RowPlacement
    ) {
        push(at: place, background: background) { k in palette[Int(row[k])] }
    }

    /// A palette of RGBA8 words (bytes r, g, b, a in memory) in linear
    /// light, each colour laid over `background` by its alpha.
    static func linearPalette(_ words: [UInt32], over background: LinearRGB) -> [SIMD4<Float>] {
        ColorSpace.toLinear.withUnsafeBufferPointer { table in
            words.withUnsafeBytes { bytes in
                guard let base = bytes.bindMemory(to: UInt8.self).baseAddress else { return [] }
                return (0..<words.count).map {
                    BoxResampler.composited(base + $0 * 4, table: table, background: background)
                }
            }
        }
    }

    /// Adds delivered row `place`, its pixel `k` in linear light from
    /// `pixel(k)`. Whole rows in order stream through one row of column
    /// sums. An
    /// interlaced pass's row (some of one row's pixels, rows in any order)
    /// is filtered with the pixels it lacks as zeros and added straight
    /// into the output rows it weighs in: every pixel comes in exactly one
    /// pass and the filter is linear, so the passes add up to the whole
    /// image's result. A whole row shorter than the image (a file cut
    /// short: nothing decoded past `count`) is the background past it.
    @inline(__always)
    private mutating func push(at place: RowPlacement, background: LinearRGB, pixel: (Int) -> SIMD4<Float>) {
        let undecoded = SIMD4(background.r, background.g, background.b, 0)
        let count = min(place.count, sourceWidth)
        if place.isWholeRow && place.y == sourceRow && !scattered {
            guard sourceRow < sourceHeight else { return }
            accumulate(count: count, pixel, rest: undecoded)
            return
        }
        guard place.y < sourceHeight else { return }
        if !scattered {
            // Rows came in order until now (a GIF's rows above an interlaced
            // frame): the output row they had begun keeps their share.
            scattered = true
            if outputRow < height { flushRow() }
            makeOutput()
            zeroRows(from: outputRow)
        }
        if place.isWholeRow {
            fillLinearRow(count: count, pixel, rest: undecoded)
        } else {
            // The pass's pixels in place, the ones it lacks as zeros.
            sizeLinearRow()
            linearRow.withUnsafeMutableBufferPointer { linear in
                linear.update(repeating: .zero)
                for k in 0..<place.count {
                    let x = place.xStart + k * place.xStep
                    guard x < sourceWidth else { break }
                    linear[x] = pixel(k)
                }
            }
        }
        BoxResampler.filter(linearRow, into: &horizontal, columns: columns)
        let rowSize = width * 3
        for o in rows.outputs(containing: place.y) {
            let weight = rows.weights[rows.offset[o] + place.y - rows.start[o]]
            horizontal.withUnsafeBufferPointer { h in
                output.withUnsafeMutableBufferPointer { out in
                    for i in 0..<rowSize { out[o * rowSize + i] += h[i] * weight }
                }
            }
        }
    }

    /// The source row in linear light: its first `count` pixels from
    /// `pixel(s)`, the rest `rest`.
    @inline(__always)
    private mutating func fillLinearRow(count: Int, _ pixel: (Int) -> SIMD4<Float>, rest: SIMD4<Float>) {
        sizeLinearRow()
        let width = sourceWidth
        linearRow.withUnsafeMutableBufferPointer { linear in
            for s in 0..<count { linear[s] = pixel(s) }
            for s in count..<width { linear[s] = rest }
        }
    }

    /// `linearRow` made, on first use, a source row long.
    private mutating func sizeLinearRow() {
        if linearRow.count != sourceWidth { linearRow = [SIMD4<Float>](repeating: .zero, count: sourceWidth) }
    }

    /// The horizontal pass over a row of pixels a source row wide: each
    /// output column's weighted sum of its source pixels, a pixel's three
    /// channels at once.
    private static func filter(_ row: [SIMD4<Float>], into out: inout [Float], columns: FixedTaps) {
        out.withUnsafeMutableBufferPointer { out in
            row.withUnsafeBufferPointer { filter($0, into: out, columns: columns) }
        }
    }

    private static func filter(
        _ src: UnsafeBufferPointer<SIMD4<Float>>,
        into out: UnsafeMutableBufferPointer<Float>,
        columns: FixedTaps
    ) {
        let width = columns.start.count
        let taps = columns.taps
        columns.start.withUnsafeBufferPointer { starts in
            columns.weights.withUnsafeBufferPointer { w in
                // One or two taps (a scale near 1 or above) written out:
                // the loop's own counting cost as much as its sums.
                for x in 0..<width {
                    let first = starts[x]
                    let base = x &* taps
                    var sum = src[first] * w[base]
                    if taps == 2 {
                        sum += src[first &+ 1] * w[base &+ 1]
                    } else if taps > 2 {
                        for j in 1..<taps { sum += src[first &+ j] * w[base &+ j] }
                    }
                    out[x &* 3] = sum.x
                    out[x &* 3 &+ 1] = sum.y
                    out[x &* 3 &+ 2] = sum.z
                }
            }
        }
    }

    /// The vertical pass, for the next source row: its first `count`
    /// pixels from `pixel(s)` in linear light, the rest `rest`. Output rows
    /// take contiguous, non-decreasing runs of source rows, and neighbours
    /// share at most the row where one ends and the next begins, so one
    /// row of sums is enough (a shared row's pixels are read twice).
    @inline(__always)
    private mutating func accumulate(count: Int, _ pixel: (Int) -> SIMD4<Float>, rest: SIMD4<Float>) {
        let s = sourceRow
        while outputRow < height {
            let first = rows.start[outputRow]
            let n = rows.count[outputRow]
            if s < first { break }
            if s < first + n {
                addToColumnSums(
                    weight: rows.weights[rows.offset[outputRow] + s - first],
                    count: count,
                    pixel,
                    rest: rest
                )
            }
            guard s >= first + n - 1 else { break }
            flushRow()
        }
        sourceRow += 1
    }

    /// The row × `weight` into `columnSums` (stored, if they hold nothing
    /// yet), straight from `pixel`: a row of linear pixels written and read
    /// back cost as much again on a wide source (64 KB a row of 4000).
    @inline(__always)
    private mutating func addToColumnSums(weight: Float, count: Int, _ pixel: (Int) -> SIMD4<Float>, rest: SIMD4<Float>)
    {
        let width = sourceWidth
        if columnSums.count != width { columnSums = [SIMD4<Float>](repeating: .zero, count: width) }
        let store = columnSumsEmpty
        // Through a buffer: indexing the array checked bounds and uniqueness
        // at every value (three quarters of the vertical pass's time).
        columnSums.withUnsafeMutableBufferPointer { sums in
            if store {
                for i in 0..<count { sums[i] = pixel(i) * weight }
                for i in count..<width { sums[i] = rest * weight }
            } else {
                for i in 0..<count { sums[i] += pixel(i) * weight }
                for i in count..<width { sums[i] += rest * weight }
            }
        }
        columnSumsEmpty = false
    }

    /// The output row summed so far, filtered across into its place.
    private mutating func flushRow() {
        makeOutput()
        let rowSize = width * 3
        let base = outputRow * rowSize
        output.withUnsafeMutableBufferPointer { out in
            let row = UnsafeMutableBufferPointer(rebasing: out[base..<(base + rowSize)])
            if columnSumsEmpty {
                row.update(repeating: 0)
            } else {
                columnSums.withUnsafeBufferPointer { BoxResampler.filter($0, into: row, columns: columns) }
            }
        }
        columnSumsEmpty = true
        outputRow += 1
    }

    /// Output rows that no later source row changes: those above the one
    /// being summed, while rows come in order (none once they have not).
    var finishedRows: Int { scattered ? 0 : outputRow }

    /// Whether rows came out of order, adding into rows already finished.
    var rowsOutOfOrder: Bool { scattered }

    /// The output so far, of which `finishedRows` rows are final.
    func withOutput<R>(_ body: (UnsafeBufferPointer<Float>) -> R) -> R {
        output.withUnsafeBufferPointer(body)
    }

    /// The result; rows never delivered (a truncated source) stay as far as
    /// they got.
    public mutating func finish() -> Pixmap {
        if !scattered && outputRow < height && sourceRow > 0 { flushRow() }
        makeOutput()
        if !scattered { zeroRows(from: outputRow) }
        return Pixmap(width: width, height: height, values: output)
    }

    private mutating func makeOutput() {
        guard output.isEmpty else { return }
        let count = width * height * 3
        output = [Float](unsafeUninitializedCapacity: count) { _, initialized in initialized = count }
    }

    /// Output rows from `row` on, none written yet, as zeros.
    private mutating func zeroRows(from row: Int) {
        guard row < height else { return }
        output.withUnsafeMutableBufferPointer { out in
            UnsafeMutableBufferPointer(rebasing: out[(row * width * 3)...]).update(repeating: 0)
        }
    }
}

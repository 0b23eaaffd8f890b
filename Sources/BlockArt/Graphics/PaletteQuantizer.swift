/// Chooses the few hundred colours a sixel picture may use, and maps each
/// pixel to one of them.
///
/// The colours are found in a histogram of 6-bit bins, each bin holding the
/// linear-light mean of its pixels: a variance-driven median cut gives the
/// first palette, and k-means rounds refine it. A cluster's colour is the
/// mean of its pixels in linear light (as the renderer's colours are), and
/// distances are taken in sRGB, where the eye and the PSNR measure them.
/// No dithering: at hundreds of colours it adds more error per pixel than
/// it removes from the area average (measured in Benchmarks/pixels.sh).
struct PaletteQuantizer {
    /// The palette as the terminal will show it.
    let colors: [SIMD3<Float>]
    /// The palette sorted by green, with each colour's index, for the
    /// nearest-colour search.
    private let order: [Int32]
    private let sorted: [SIMD3<Float>]
    private let greens: [Float]
    /// A palette for `image` of at most `maxColors` colours, each passed
    /// through `shown` (what the terminal makes of a colour it is sent).
    init(_ image: PixelImage, maxColors: Int, rounds: Int = 4, shown: (SIMD3<Float>) -> SIMD3<Float>) {
        let points = Histogram(image).points
        var centres: [SIMD3<Float>]
        if points.count <= maxColors && points.allSatisfy(\.exact) {
            centres = points.map(\.srgb)
        } else {
            var cut = MedianCut(points: points)
            cut.split(into: maxColors)
            centres = cut.centres
            for _ in 0..<rounds {
                let search = PaletteQuantizer(colors: centres)
                var sums = [SIMD3<Float>](repeating: .zero, count: centres.count)
                var weights = [Float](repeating: 0, count: centres.count)
                for point in points {
                    let k = search.nearest(point.srgb)
                    sums[k] += point.linear * point.weight
                    weights[k] += point.weight
                }
                for k in centres.indices where weights[k] > 0 {
                    centres[k] = ColorSpace.toSRGB(sums[k] / weights[k])
                }
            }
        }
        var unique: [SIMD3<Float>] = []
        var seen = Set<SIMD3<Float>>()
        for colour in centres.map(shown) where seen.insert(colour).inserted { unique.append(colour) }
        self.init(colors: unique)
    }

    private init(colors: [SIMD3<Float>]) {
        self.colors = colors
        order = colors.indices.sorted { colors[$0].y < colors[$1].y }.map { Int32($0) }
        sorted = order.map { colors[Int($0)] }
        greens = sorted.map(\.y)
    }

    /// The index of the palette colour nearest `c` (sRGB, squared distance):
    /// outward from `c`'s green in the sorted palette, stopping each way
    /// once the green difference alone is worse than the best found.
    func nearest(_ c: SIMD3<Float>) -> Int {
        var lo = 0
        var hi = greens.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if greens[mid] < c.y { lo = mid + 1 } else { hi = mid }
        }
        return nearest(c, from: lo)
    }

    /// The search from `lo`, the first sorted colour whose green is not below `c`'s.
    private func nearest(_ c: SIMD3<Float>, from lo: Int) -> Int {
        var best = Float.infinity
        var bestIndex = 0
        var down = lo - 1
        var up = lo
        while down >= 0 || up < greens.count {
            if up < greens.count {
                let dg = greens[up] - c.y
                if dg * dg >= best {
                    up = greens.count
                } else {
                    let d = sorted[up] - c
                    let e = (d * d).sum()
                    if e < best {
                        best = e
                        bestIndex = Int(order[up])
                    }
                    up += 1
                }
            }
            if down >= 0 {
                let dg = c.y - greens[down]
                if dg * dg >= best {
                    down = -1
                } else {
                    let d = sorted[down] - c
                    let e = (d * d).sum()
                    if e < best {
                        best = e
                        bestIndex = Int(order[down])
                    }
                    down -= 1
                }
            }
        }
        return bestIndex
    }

    /// Every pixel's palette index, the two halves of the picture on two
    /// threads, each pixel's search over its cell's few candidates.
    func indices(_ image: PixelImage) -> [UInt16] {
        let count = image.width * image.height
        let parts = count >= 1 << 16 ? 2 : 1
        let cells = image.rgb.withUnsafeBufferPointer { PaletteCells(colours: colors, rgb: $0) }
        return TwoCores.map(parts: parts) { part in
            image.rgb.withUnsafeBufferPointer { rgb in
                cells.map(rgb, range: (count * part / parts)..<(count * (part + 1) / parts))
            }
        }.flatMap { $0 }
    }
}

/// The image's colours in 6-bit bins (262,144 of them), each with its
/// pixel count and linear-light mean.
struct Histogram {
    struct Point {
        var weight: Float
        var linear: SIMD3<Float>
        var srgb: SIMD3<Float>
        /// Every pixel in the bin had the same colour.
        var exact: Bool
    }

    let points: [Point]

    init(_ image: PixelImage) {
        let bins = 1 << 18
        var counts = [Int32](repeating: 0, count: bins)
        var sums = [SIMD3<Float>](repeating: .zero, count: bins)
        var first = [UInt32](repeating: 0, count: bins)
        var mixed = [Bool](repeating: false, count: bins)
        let table = ColorSpace.toLinear
        image.rgb.withUnsafeBufferPointer { rgb in
            for i in stride(from: 0, to: rgb.count, by: 3) {
                let r = rgb[i]
                let g = rgb[i + 1]
                let b = rgb[i + 2]
                let bin = Int(r >> 2) << 12 | Int(g >> 2) << 6 | Int(b >> 2)
                let exact = UInt32(r) << 16 | UInt32(g) << 8 | UInt32(b)
                if counts[bin] == 0 { first[bin] = exact } else if first[bin] != exact { mixed[bin] = true }
                counts[bin] += 1
                sums[bin] += SIMD3(table[Int(r)], table[Int(g)], table[Int(b)])
            }
        }
        var points: [Point] = []
        for bin in 0..<bins where counts[bin] > 0 {
            let weight = Float(counts[bin])
            let linear = sums[bin] / weight
            points.append(Point(weight: weight, linear: linear, srgb: ColorSpace.toSRGB(linear), exact: !mixed[bin]))
        }
        self.points = points
    }
}

/// Median cut: boxes of points, the one of most squared error (sRGB,
/// weighted) split at the weighted median of its widest axis, until there
/// are enough.
struct MedianCut {
    private var points: [Histogram.Point]
    private var boxes: [Range<Int>]
    private var errors: [Float]

    init(points: [Histogram.Point]) {
        self.points = points
        boxes = points.isEmpty ? [] : [0..<points.count]
        errors = []
        errors = boxes.map(error)
    }

    mutating func split(into count: Int) {
        while boxes.count < count {
            guard let worst = errors.indices.max(by: { errors[$0] < errors[$1] }), errors[worst] > 0 else { return }
            let box = boxes[worst]
            let axis = widestAxis(box)
            points[box].sort { $0.srgb[axis] < $1.srgb[axis] }
            let total = points[box].reduce(0) { $0 + $1.weight }
            var running: Float = 0
            var cut = box.lowerBound + 1
            for i in box {
                running += points[i].weight
                if running >= total / 2 {
                    cut = min(max(i + 1, box.lowerBound + 1), box.upperBound - 1)
                    break
                }
            }
            boxes[worst] = box.lowerBound..<cut
            errors[worst] = error(boxes[worst])
            boxes.append(cut..<box.upperBound)
            errors.append(error(boxes[boxes.count - 1]))
        }
    }

    /// Each box's colour: the linear-light mean of its pixels, in sRGB.
    var centres: [SIMD3<Float>] {
        boxes.map { box in
            var sum = SIMD3<Float>.zero
            var weight: Float = 0
            for point in points[box] {
                sum += point.linear * point.weight
                weight += point.weight
            }
            return ColorSpace.toSRGB(sum / max(weight, 1))
        }
    }

    private func widestAxis(_ box: Range<Int>) -> Int {
        var lo = SIMD3<Float>(repeating: .infinity)
        var hi = SIMD3<Float>(repeating: -.infinity)
        for point in points[box] {
            lo = pointwiseMin(lo, point.srgb)
            hi = pointwiseMax(hi, point.srgb)
        }
        let span = hi - lo
        return span.x >= span.y && span.x >= span.z ? 0 : (span.y >= span.z ? 1 : 2)
    }

    private func error(_ box: Range<Int>) -> Float {
        guard box.count > 1 else { return 0 }
        var sum = SIMD3<Float>.zero
        var squares = SIMD3<Float>.zero
        var weight: Float = 0
        for point in points[box] {
            sum += point.srgb * point.weight
            squares += point.srgb * point.srgb * point.weight
            weight += point.weight
        }
        return (squares - sum * sum / weight).sum()
    }
}

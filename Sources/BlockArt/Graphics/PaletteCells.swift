/// The nearest palette colour of every pixel, by a table of candidates per
/// cell of colour space (Heckbert's locally sorted search).
///
/// sRGB is cut into cells of 8 levels a side (32³ of them). For each cell
/// some pixel falls in, the candidates are the palette colours whose
/// nearest point of the cell is no farther than the farthest point of the
/// cell is from the colour that makes that farthest distance least. Any
/// pixel of the cell has its nearest colour among them (it is at least its
/// nearest-point distance away, and at most that least farthest distance),
/// and there are few: about eight a cell on the 5424² disk's zoomed views
/// with 256 colours. Those pixels touch some 1,500 cells, so the table
/// takes 3 ms, and the indices of a view of 160×44 cells went from 30 ms
/// (a search outward along green) to 20. Smaller cells have fewer
/// candidates but cost more to list than they save.
struct PaletteCells {
    private static let shift: UInt8 = 3
    private static let bits = 8 - Int(shift)
    private static let side = 256 >> shift

    /// Where each cell's candidates start in `candidates`, and how many;
    /// 0 for a cell no pixel falls in.
    private var first: [Int32]
    private var count: [UInt16]
    /// Palette indices, each cell's ascending: a tie goes to the lowest.
    private var candidates: [UInt16] = []
    /// The palette, a channel an array.
    private let red: [Float], green: [Float], blue: [Float]

    /// The table for `colours` (sRGB levels), over the cells `rgb`'s pixels fall in.
    /// The table costs cells touched × colours × 2 distance checks: about
    /// 0.8 million for a photo's view with 256 colours, and at worst (every
    /// cell touched, 1,024 colours) 67 million, some 50 ms.
    init(colours: [SIMD3<Float>], rgb: UnsafeBufferPointer<UInt8>) {
        precondition(colours.count <= Int(UInt16.max) + 1, "palette indices are 16-bit")
        red = colours.map(\.x)
        green = colours.map(\.y)
        blue = colours.map(\.z)
        let cells = PaletteCells.side * PaletteCells.side * PaletteCells.side
        first = [Int32](repeating: 0, count: cells)
        count = [UInt16](repeating: 0, count: cells)
        var touched = [Bool](repeating: false, count: cells)
        for i in stride(from: 0, to: rgb.count - 2, by: 3) {
            touched[PaletteCells.cell(rgb[i], rgb[i + 1], rgb[i + 2])] = true
        }
        var farthest = [Float](repeating: 0, count: colours.count)
        for cell in 0..<cells where touched[cell] {
            first[cell] = Int32(candidates.count)
            list(cell, &farthest)
            count[cell] = UInt16(candidates.count - Int(first[cell]))
        }
    }

    /// Appends `cell`'s candidates (`farthest` is room for one distance a colour).
    private mutating func list(_ cell: Int, _ farthest: inout [Float]) {
        let mask = PaletteCells.side - 1
        let bits = PaletteCells.bits
        let step = Float(1 << PaletteCells.shift)
        let lo = (
            r: Float(cell >> (2 * bits) & mask) * step, g: Float(cell >> bits & mask) * step,
            b: Float(cell & mask) * step
        )
        let hi = (r: lo.r + step - 1, g: lo.g + step - 1, b: lo.b + step - 1)
        // The farthest point of the cell from each colour, and the least of those.
        var least = Float.infinity
        red.withUnsafeBufferPointer { red in
            green.withUnsafeBufferPointer { green in
                blue.withUnsafeBufferPointer { blue in
                    farthest.withUnsafeMutableBufferPointer { farthest in
                        for k in 0..<red.count {
                            let dr = max(red[k] - lo.r, hi.r - red[k])
                            let dg = max(green[k] - lo.g, hi.g - green[k])
                            let db = max(blue[k] - lo.b, hi.b - blue[k])
                            farthest[k] = dr * dr + dg * dg + db * db
                            least = min(least, farthest[k])
                        }
                    }
                    for k in 0..<red.count {
                        let dr = max(lo.r - red[k], red[k] - hi.r, 0)
                        let dg = max(lo.g - green[k], green[k] - hi.g, 0)
                        let db = max(lo.b - blue[k], blue[k] - hi.b, 0)
                        if dr * dr + dg * dg + db * db <= least { candidates.append(UInt16(k)) }
                    }
                }
            }
        }
    }

    @inline(__always)
    private static func cell(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> Int {
        Int(r >> shift) << (2 * bits) | Int(g >> shift) << bits | Int(b >> shift)
    }

    /// The nearest palette colour (squared distance in sRGB; the lowest
    /// index of a tie) of each pixel in `range` of `rgb`, which must be
    /// the pixels the table was made for.
    func map(_ rgb: UnsafeBufferPointer<UInt8>, range: Range<Int>) -> [UInt16] {
        var out = [UInt16](repeating: 0, count: range.count)
        first.withUnsafeBufferPointer { first in
            count.withUnsafeBufferPointer { count in
                candidates.withUnsafeBufferPointer { candidates in
                    red.withUnsafeBufferPointer { red in
                        green.withUnsafeBufferPointer { green in
                            blue.withUnsafeBufferPointer { blue in
                                out.withUnsafeMutableBufferPointer { out in
                                    for i in range {
                                        let r = rgb[i * 3]
                                        let g = rgb[i * 3 + 1]
                                        let b = rgb[i * 3 + 2]
                                        let cell = PaletteCells.cell(r, g, b)
                                        let start = Int(first[cell])
                                        let end = start + Int(count[cell])
                                        let (fr, fg, fb) = (Float(r), Float(g), Float(b))
                                        var best = Float.infinity
                                        var index: UInt16 = 0
                                        for j in start..<end {
                                            let k = Int(candidates[j])
                                            let dr = red[k] - fr
                                            let dg = green[k] - fg
                                            let db = blue[k] - fb
                                            let e = dr * dr + dg * dg + db * db
                                            if e < best {
                                                best = e
                                                index = UInt16(k)
                                            }
                                        }
                                        out[i - range.lowerBound] = index
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        return out
    }
}

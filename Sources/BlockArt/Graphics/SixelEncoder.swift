/// Sixel (xterm -ti vt340, foot, mlterm, WezTerm, Windows Terminal): the
/// picture in bands six pixels high, each band one run-length-encoded line
/// per colour it uses, with a palette of at most the terminal's colour
/// registers.
public enum SixelEncoder {
    /// The colours a sixel picture uses when the terminal does not say how
    /// many registers it has.
    public static let defaultRegisters = 256
    /// The most colours ever used: more cost output and time for little.
    public static let maxRegisters = 1024

    /// `image` as one sixel sequence (DCS … ST), drawn from the cursor's
    /// cell down, with at most `registers` colours.
    public static func encode(_ image: PixelImage, registers: Int = defaultRegisters) -> [UInt8] {
        let palette = PaletteQuantizer(image, maxColors: max(2, min(registers, maxRegisters)), shown: shown)
        let indices = palette.indices(image)
        // P2 = 1: pixels no colour sets keep what is behind them. The raster
        // attributes make pixels square and give the size.
        var out = Array("\u{1B}P0;1;0q\"1;1;\(image.width);\(image.height)".utf8)
        for (i, colour) in palette.colors.enumerated() {
            let p = percent(colour)
            out += Array("#\(i);2;\(p.0);\(p.1);\(p.2)".utf8)
        }
        // Bands are independent: the two halves are written on two cores.
        let bandCount = (image.height + 5) / 6
        let parts = image.width * image.height >= 1 << 16 ? 2 : 1
        let halves = TwoCores.map(parts: parts) { part in
            bands(
                indices,
                width: image.width,
                height: image.height,
                colours: palette.colors.count,
                from: bandCount * part / parts,
                to: bandCount * (part + 1) / parts
            )
        }
        for half in halves { out += half }
        out += [0x1B, UInt8(ascii: "\\")]
        return out
    }

    /// Bands `from..<to` (of six rows each): per band, each colour it uses
    /// as one run-length line from its first pixel to its last, and `-`.
    private static func bands(_ indices: [UInt16], width: Int, height: Int, colours: Int, from: Int, to: Int) -> [UInt8]
    {
        var out: [UInt8] = []
        out.reserveCapacity((to - from) * 6 * width / 2 + 64)
        var bits = [UInt8](repeating: 0, count: colours * width)
        var first = [Int](repeating: 0, count: colours)
        var last = [Int](repeating: 0, count: colours)
        // The band each colour was last seen in, and the colours of this one.
        var band = [Int](repeating: -1, count: colours)
        var used: [Int] = []
        var writer = RunWriter()
        indices.withUnsafeBufferPointer { indices in
            bits.withUnsafeMutableBufferPointer { bits in
                for top in stride(from: from * 6, to: min(height, to * 6), by: 6) {
                    used.removeAll(keepingCapacity: true)
                    for dy in 0..<min(6, height - top) {
                        let bit = UInt8(1) << UInt8(dy)
                        let row = (top + dy) * width
                        for x in 0..<width {
                            let c = Int(indices[row + x])
                            if band[c] != top {
                                band[c] = top
                                used.append(c)
                                first[c] = x
                                last[c] = x
                            } else {
                                if x < first[c] { first[c] = x }
                                if x > last[c] { last[c] = x }
                            }
                            bits[c * width + x] |= bit
                        }
                    }
                    for (n, c) in used.enumerated() {
                        if n > 0 { out.append(UInt8(ascii: "$")) }
                        out.append(UInt8(ascii: "#"))
                        RunWriter.digits(c, &out)
                        if first[c] > 0 { writer.put(0, count: first[c], &out) }
                        let line = c * width
                        writer.put(
                            UnsafeMutableBufferPointer(rebasing: bits[(line + first[c])...(line + last[c])]),
                            &out
                        )
                        writer.flush(&out)
                    }
                    out.append(UInt8(ascii: "-"))
                }
            }
        }
        return out
    }

    /// A colour as sent (sRGB percentages, which is all sixel can say).
    static func percent(_ c: SIMD3<Float>) -> (Int, Int, Int) {
        func p(_ v: Float) -> Int { Int((v * 100 / 255).rounded()) }
        return (p(c.x), p(c.y), p(c.z))
    }

    /// What the terminal shows for a colour it is sent: the percentages
    /// back in bytes, as xterm rounds them.
    static func shown(_ c: SIMD3<Float>) -> SIMD3<Float> {
        let p = percent(c)
        func level(_ v: Int) -> Float { Float((v * 255 + 50) / 100) }
        return SIMD3(level(p.0), level(p.1), level(p.2))
    }
}

/// Sixel characters with runs of four or more as `!count char`.
struct RunWriter {
    private var value: UInt8 = 0
    private var count = 0

    mutating func put(_ bits: UInt8, count n: Int, _ out: inout [UInt8]) {
        if count > 0 && bits == value {
            count += n
            return
        }
        flush(&out)
        value = bits
        count = n
    }

    /// Each of `line`'s bits once, in order, the line left cleared for the
    /// next band: the hot loop, one pass with no call per pixel. Most of a
    /// colour's line is runs of 0 (columns it is not in), crossed eight
    /// bytes at a time.
    mutating func put(_ line: UnsafeMutableBufferPointer<UInt8>, _ out: inout [UInt8]) {
        guard let base = line.baseAddress else { return }
        let n = line.count
        var i = 0
        while i < n {
            let bits = base[i]
            var j = i + 1
            if bits == 0 {
                while j + 8 <= n && UnsafeRawPointer(base + j).loadUnaligned(as: UInt64.self) == 0 { j += 8 }
            }
            while j < n && base[j] == bits { j += 1 }
            put(bits, count: j - i, &out)
            i = j
        }
        line.update(repeating: 0)
    }

    mutating func flush(_ out: inout [UInt8]) {
        guard count > 0 else { return }
        let char = 63 + value
        if count >= 4 {
            out.append(UInt8(ascii: "!"))
            RunWriter.digits(count, &out)
            out.append(char)
        } else {
            for _ in 0..<count { out.append(char) }
        }
        count = 0
    }

    /// `n`'s decimal digits (n ≥ 0), with no String made.
    static func digits(_ n: Int, _ out: inout [UInt8]) {
        if n >= 10 { digits(n / 10, &out) }
        out.append(UInt8(ascii: "0") + UInt8(n % 10))
    }
}

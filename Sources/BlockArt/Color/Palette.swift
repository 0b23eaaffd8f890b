/// The xterm palettes and the nearest-colour search, in linear light.
enum Palette {
    /// xterm's default values of the 16 ANSI colours (themes change them).
    static let ansi: [RGB8] = [
        RGB8(0, 0, 0), RGB8(205, 0, 0), RGB8(0, 205, 0), RGB8(205, 205, 0),
        RGB8(0, 0, 238), RGB8(205, 0, 205), RGB8(0, 205, 205), RGB8(229, 229, 229),
        RGB8(127, 127, 127), RGB8(255, 0, 0), RGB8(0, 255, 0), RGB8(255, 255, 0),
        RGB8(92, 92, 255), RGB8(255, 0, 255), RGB8(0, 255, 255), RGB8(255, 255, 255),
    ]
    static let cubeLevels: [UInt8] = [0, 95, 135, 175, 215, 255]
    static let cubeLinear: [Float] = cubeLevels.map { ColorSpace.toLinear[Int($0)] }
    static let grayLinear: [Float] = (0..<24).map { ColorSpace.toLinear[8 + 10 * $0] }

    /// The 256-colour value of an index.
    static func color256(_ index: Int) -> RGB8 {
        if index < 16 { return ansi[index] }
        if index < 232 {
            let i = index - 16
            return RGB8(cubeLevels[i / 36], cubeLevels[i / 6 % 6], cubeLevels[i % 6])
        }
        let v = UInt8(8 + 10 * (index - 232))
        return RGB8(v, v, v)
    }

    /// The nearest of the 6×6×6 cube and the gray ramp (indices 16–255; the
    /// 16 themable colours are left out, their values being unknown). The
    /// cube is a product of levels, so its nearest point is found channel by
    /// channel; the gray nearest lies beside the channels' mean.
    static func nearest256(_ c: LinearRGB) -> (index: UInt8, color: LinearRGB) {
        let r = nearestLevel(c.r)
        let g = nearestLevel(c.g)
        let b = nearestLevel(c.b)
        let cube = LinearRGB(cubeLinear[r], cubeLinear[g], cubeLinear[b])
        var bestIndex = 16 + 36 * r + 6 * g + b
        var best = cube
        var bestDistance = distance(c, cube)
        let lo = grayLevel(below: (c.r + c.g + c.b) / 3)
        for i in [lo, min(23, lo + 1)] {
            let gray = LinearRGB(grayLinear[i], grayLinear[i], grayLinear[i])
            let d = distance(c, gray)
            if d < bestDistance {
                bestDistance = d
                best = gray
                bestIndex = 232 + i
            }
        }
        return (UInt8(bestIndex), best)
    }

    /// The gray ramp level at or just below `mean` (the first level when
    /// `mean` is darker than all): the nearest gray is it or the next.
    @inline(__always)
    static func grayLevel(below mean: Float) -> Int {
        var level = 0
        while level < 23 && grayLinear[level + 1] < mean { level += 1 }
        return level
    }

    /// The nearest of the first `count` ANSI colours (16 or 8), at xterm's values.
    static func nearestANSI(_ c: LinearRGB, count: Int) -> (index: UInt8, color: LinearRGB) {
        var best = 0
        var bestDistance = Float.infinity
        for i in 0..<count {
            let d = distance(c, ansiLinear[i])
            if d < bestDistance {
                bestDistance = d
                best = i
            }
        }
        return (UInt8(best), ansiLinear[best])
    }

    static let ansiLinear: [LinearRGB] = ansi.map { LinearRGB(srgb: $0) }

    @inline(__always)
    static func nearestLevel(_ v: Float) -> Int {
        var i = 0
        while i < 5 && v > (cubeLinear[i] + cubeLinear[i + 1]) / 2 { i += 1 }
        return i
    }

    @inline(__always)
    static func distance(_ a: LinearRGB, _ b: LinearRGB) -> Float {
        let dr = a.r - b.r
        let dg = a.g - b.g
        let db = a.b - b.b
        return dr * dr + dg * dg + db * db
    }
}

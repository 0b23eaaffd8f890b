internal import CImageShim

#if canImport(Glibc)
import Glibc
#endif

/// sRGB ↔ linear light. Light adds linearly: averaging sRGB values darkens
/// every edge and fine texture (1-px black/white stripes must average to
/// sRGB ≈ 188, not 128), so all filtering and colour choice happens on
/// linear values, and only output goes back to sRGB.
public enum ColorSpace {
    /// sRGB byte → linear value in 0...1.
    public static let toLinear: [Float] = (0..<256).map { i in
        let c = Double(i) / 255
        return Float(c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4))
    }

    /// Linear value quantised to 16 bits → nearest sRGB byte. Adjacent sRGB
    /// bytes are at least ~20 steps apart at this resolution, so every byte
    /// survives the round trip exactly (a 1:1 render shows the exact pixels).
    static let encodeTable: [UInt8] = {
        var table = [UInt8](repeating: 0, count: 65536)
        var level = 0
        for i in 0..<65536 {
            let value = Float(i) / 65535
            while level < 255 && value > (toLinear[level] + toLinear[level + 1]) / 2 { level += 1 }
            table[i] = UInt8(level)
        }
        return table
    }()

    /// 0...255 as floats.
    static let levels: [Float] = (0..<256).map { Float($0) }

    /// Where a linear value (clamped to 0...1) falls in `encodeTable`.
    @inline(__always)
    static func encodeIndex(_ linear: Float) -> Int {
        Int((linear < 0 ? 0 : (linear > 1 ? 1 : linear)) * 65535 + 0.5)
    }

    /// Linear value (clamped to 0...1) → sRGB byte, rounded to the nearest.
    @inline(__always)
    public static func toSRGB(_ linear: Float) -> UInt8 {
        encodeTable[encodeIndex(linear)]
    }

    /// The sRGB levels (`toSRGB`, as floats) of many linear colours at
    /// once, three to a colour: the renderer converts 64 sub-cells a cell.
    /// The clamp and rounding are `encodeIndex`'s, vectorised in C
    /// (`cimg_srgb_levels`); the level comes as a float from `levels`,
    /// since converting the byte (cvtsi2ss) made each value wait on the
    /// register's last one.
    static func toSRGB(_ linear: UnsafeBufferPointer<LinearRGB>, into levels: UnsafeMutableBufferPointer<Float>) {
        precondition(
            levels.count >= linear.count * 3 && MemoryLayout<LinearRGB>.stride == 3 * MemoryLayout<Float>.stride
        )
        guard let from = linear.baseAddress, let to = levels.baseAddress else { return }
        encodeTable.withUnsafeBufferPointer { table in
            ColorSpace.levels.withUnsafeBufferPointer { values in
                UnsafeRawPointer(from).withMemoryRebound(to: Float.self, capacity: linear.count * 3) { floats in
                    cimg_srgb_levels(floats, to, linear.count * 3, table.baseAddress, values.baseAddress)
                }
            }
        }
    }

    /// Linear values → sRGB levels (0–255, as floats): where the renderer
    /// measures error, since a person, and the PSNR, see sRGB.
    @inline(__always)
    public static func toSRGB(_ linear: SIMD3<Float>) -> SIMD3<Float> {
        SIMD3(Float(toSRGB(linear.x)), Float(toSRGB(linear.y)), Float(toSRGB(linear.z)))
    }
}

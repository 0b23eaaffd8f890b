import Foundation

@testable import BlockArt

extension Pixmap {
    /// PSNR of these pixels against `other`'s, on their sRGB levels (0 to
    /// 255), as artq and the colour tests measure; 0 when the sizes differ.
    func psnr(against other: Pixmap) -> Double {
        guard width == other.width, height == other.height, values.count == other.values.count else { return 0 }
        let level = { (v: Float) -> Double in
            let l = Double(min(max(v, 0), 1))
            return 255 * (l <= 0.0031308 ? l * 12.92 : 1.055 * pow(l, 1 / 2.4) - 0.055)
        }
        let squares = zip(values, other.values).map { pair -> Double in
            let d = level(pair.0) - level(pair.1)
            return d * d
        }
        return 10 * log10(255 * 255 / max(squares.reduce(0, +) / Double(squares.count), 1e-12))
    }
}

/// A colour in linear light.
public struct LinearRGB: Sendable, Equatable {
    public var r: Float, g: Float, b: Float
    public init(_ r: Float, _ g: Float, _ b: Float) {
        self.r = r
        self.g = g
        self.b = b
    }
    public init(srgb: RGB8) {
        self.init(ColorSpace.toLinear[Int(srgb.r)], ColorSpace.toLinear[Int(srgb.g)], ColorSpace.toLinear[Int(srgb.b)])
    }
    public init(_ vector: SIMD3<Float>) { self.init(vector.x, vector.y, vector.z) }
    public var srgb: RGB8 { RGB8(ColorSpace.toSRGB(r), ColorSpace.toSRGB(g), ColorSpace.toSRGB(b)) }
    /// The same colour as a vector, for sums.
    public var vector: SIMD3<Float> { SIMD3(r, g, b) }

    /// This colour laid over `background` with `alpha` (0–1) coverage:
    /// compositing is a mix of light, so it happens in linear values.
    @inline(__always)
    public func over(_ background: LinearRGB, alpha: Float) -> LinearRGB {
        LinearRGB(
            r * alpha + background.r * (1 - alpha),
            g * alpha + background.g * (1 - alpha),
            b * alpha + background.b * (1 - alpha)
        )
    }
}

/// An sRGB colour as printed.
public struct RGB8: Sendable, Equatable, Hashable {
    public var r: UInt8, g: UInt8, b: UInt8
    public init(_ r: UInt8, _ g: UInt8, _ b: UInt8) {
        self.r = r
        self.g = g
        self.b = b
    }

    /// Parses "RRGGBB" (a leading # allowed).
    public init?(hex: String) {
        let digits = hex.hasPrefix("#") ? String(hex.dropFirst()) : hex
        guard digits.count == 6, let value = UInt32(digits, radix: 16) else { return nil }
        self.init(UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF))
    }
}

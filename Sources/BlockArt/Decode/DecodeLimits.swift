/// What the decoders refuse before allocating anything for pixels.
public struct DecodeLimits: Sendable, Equatable {
    /// Widest or tallest image accepted.
    public var maxDimension = 65_535
    /// Most pixels accepted (400 megapixels by default).
    public var maxPixels = 400_000_000

    public init(maxDimension: Int = 65_535, maxPixels: Int = 400_000_000) {
        self.maxDimension = maxDimension
        self.maxPixels = maxPixels
    }

    func check(width: Int, height: Int) throws(DecodeError) {
        if width <= 0 || height <= 0 { throw .corrupt(format: "image", message: "zero width or height") }
        if width > maxDimension || height > maxDimension || width * height > maxPixels {
            throw .tooLarge(width: width, height: height)
        }
    }
}

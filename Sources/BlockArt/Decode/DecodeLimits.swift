/// What the decoders refuse before allocating anything for pixels.
public struct DecodeLimits: Sendable, Equatable {
    /// Widest or tallest image accepted.
    public var maxDimension = 65_535
    /// Most pixels accepted (400 megapixels by default) from a decoder
    /// that streams rows, whose memory follows the size shown.
    public var maxPixels = 400_000_000
    /// Most pixels accepted from a decoder that must hold the whole
    /// picture (HEIF, AVIF, JPEG XL, and an animation's canvas): some 7
    /// bytes a pixel between the library and us, so 50 megapixels is about
    /// 350 MB. A 48-megapixel phone photo fits.
    public var maxWholePixels = 50_000_000
    /// Most tiles a HEIF grid may join: libheif spends about 1.5 ms on a
    /// tile however small it is, and phones write at most a few hundred
    /// (768 for 200 megapixels in 512-pixel tiles).
    public var maxTiles = 1024

    public init(maxDimension: Int = 65_535, maxPixels: Int = 400_000_000, maxWholePixels: Int = 50_000_000) {
        self.maxDimension = maxDimension
        self.maxPixels = maxPixels
        self.maxWholePixels = maxWholePixels
    }

    func check(width: Int, height: Int) throws(DecodeError) {
        if width <= 0 || height <= 0 { throw .corrupt(format: "image", message: "zero width or height") }
        if width > maxDimension || height > maxDimension || width * height > maxPixels {
            throw .tooLarge(width: width, height: height)
        }
    }

    /// `check`, for a `format` decoded whole: held to `maxWholePixels` too.
    func checkWhole(format: String, width: Int, height: Int) throws(DecodeError) {
        try check(width: width, height: height)
        if width * height > maxWholePixels {
            throw .tooLargeWhole(format: format, width: width, height: height, limit: maxWholePixels)
        }
    }
}

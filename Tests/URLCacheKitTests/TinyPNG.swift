import BlockArt

/// A real PNG of 4×4 pixels of one gray: the controller decodes every body
/// before it may replace the cached image, so a signature with filler
/// behind it is (rightly) refused as damaged.
enum TinyPNG {
    static func bytes(gray: UInt8) -> [UInt8] {
        ITermImage.png(PixelImage(width: 4, height: 4, rgb: Array(repeating: gray, count: 4 * 4 * 3))) ?? []
    }
}

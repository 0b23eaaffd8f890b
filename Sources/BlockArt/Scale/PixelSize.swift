/// A size in pixels: an image's, a decode's target, a window's, a
/// picture's on screen. One type where a labelled tuple stood in 53
/// places, so that sizes compare, hash and print as values.
public struct PixelSize: Sendable, Hashable, CustomStringConvertible {
    public var width: Int
    public var height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// The size turned a quarter: width and height swapped.
    public var transposed: PixelSize { PixelSize(width: height, height: width) }

    /// "1808x1808".
    public var description: String { "\(width)x\(height)" }
}

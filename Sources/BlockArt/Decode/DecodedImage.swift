/// What the header says about an image, in display orientation.
public struct SourceInfo: Sendable, Equatable {
    public var format: ImageFormat
    public var width: Int
    public var height: Int

    public init(format: ImageFormat, width: Int, height: Int) {
        self.format = format
        self.width = width
        self.height = height
    }

    /// `size`, but no more pixels across or down than the picture has: a
    /// larger decode would only enlarge them. A picture drawn at any size
    /// (an SVG, whose own size is often an icon's 48x48) is not bounded.
    public func atMost(_ size: PixelSize) -> PixelSize {
        guard !format.drawsAtAnySize else { return size }
        return PixelSize(width: min(size.width, width), height: min(size.height, height))
    }
}

/// A decoded, downscaled image.
public struct DecodedImage: Sendable, Equatable {
    public var info: SourceInfo
    public var pixmap: Pixmap
    /// What was wrong with the file, though it could be shown.
    public var warnings: [DecodeWarning]

    public init(info: SourceInfo, pixmap: Pixmap, warnings: [DecodeWarning] = []) {
        self.info = info
        self.pixmap = pixmap
        self.warnings = warnings
    }
}

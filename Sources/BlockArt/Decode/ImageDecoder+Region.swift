/// Where a decode's pixels come from: a region of the stored image (a
/// zoom's view, EXIF orientation undone), and how small the decoder may
/// shrink it before the box filter.
extension ImageDecoder {
    /// Where the region (or the whole picture) lies in the stored pixels,
    /// and what the decoder's `start` scales: the stored image, or the
    /// decoder's crop of the region, with the region then measured in it.
    static func place(
        _ region: ImageRegion?,
        of source: RowSource,
        shown info: SourceInfo
    ) -> (part: ImageRegion, base: PixelSize) {
        let shown = region ?? ImageRegion(x: 0, y: 0, width: Double(info.width), height: Double(info.height))
        let part = shown.stored(
            orientation: source.orientation,
            displayWidth: Double(info.width),
            displayHeight: Double(info.height)
        )
        guard region != nil, let cut = crop(source, to: part) else { return (part, source.storedSize) }
        return (
            ImageRegion(x: part.x - Double(cut.x), y: part.y - Double(cut.y), width: part.width, height: part.height),
            PixelSize(width: cut.width, height: cut.height)
        )
    }

    /// Starts `source` at the smallest scale that gives `part` of `base` at
    /// least `need` pixels; returns the pixels of the decoded raster that
    /// `part` touches.
    static func start(
        _ source: RowSource,
        part: ImageRegion,
        base: PixelSize,
        need: PixelSize
    ) throws(DecodeError) -> (columns: Range<Int>, rows: Range<Int>) {
        // The whole raster's size that gives the region that many pixels.
        let across = Double(base.width) / max(1, part.width)
        let down = Double(base.height) / max(1, part.height)
        try source.start(
            minWidth: Int((Double(need.width) * across).rounded(.up)),
            minHeight: Int((Double(need.height) * down).rounded(.up))
        )
        return part.pixels(
            scaleX: Double(source.width) / Double(max(1, base.width)),
            scaleY: Double(source.height) / Double(max(1, base.height)),
            width: source.width,
            height: source.height
        )
    }

    /// The smallest size a decoder may shrink to for `target` pixels
    /// sampled `raster` to a cell. libjpeg's DCT scaling shrinks almost for
    /// free, but not below half the raster the resampler samples: shrinking
    /// to the pixmap itself blurred edges the raster sees (-0.4 dB on the
    /// GOES-like globe); half costs ~10 ms on 12 MP and stays within 0.03 dB
    /// of the full image. Pixels shown 1:1 (a raster of one) get at least
    /// 1.5 times their size, so that the box filter, not the DCT, makes each
    /// of them (a 7/8 DCT scale for 0.8× cost kitty's picture 20 dB).
    static func decodedAtLeast(_ target: PixelSize, raster: (x: Int, y: Int)) -> PixelSize {
        raster == (1, 1)
            ? PixelSize(width: target.width * 3 / 2, height: target.height * 3 / 2)
            : PixelSize(width: target.width * max(2, raster.x) / 2, height: target.height * max(2, raster.y) / 2)
    }

    /// The source's crop to the whole stored pixels `part` touches, where
    /// it crops before it scales (WebP): memory then follows the view, not
    /// the whole image at the view's scale.
    static func crop(_ source: RowSource, to part: ImageRegion) -> (x: Int, y: Int, width: Int, height: Int)? {
        let stored = source.storedSize
        let x = max(0, min(stored.width - 1, Int(part.x.rounded(.down))))
        let y = max(0, min(stored.height - 1, Int(part.y.rounded(.down))))
        let right = max(x + 1, min(stored.width, Int((part.x + part.width).rounded(.up))))
        let bottom = max(y + 1, min(stored.height, Int((part.y + part.height).rounded(.up))))
        return source.crop(x: x, y: y, width: right - x, height: bottom - y)
    }
}

/// A rectangle of an image, in source pixels of its display orientation:
/// what a zoomed view shows, and all a decode for it needs to deliver.
public struct ImageRegion: Equatable, Sendable {
    public var x: Double, y: Double, width: Double, height: Double

    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// Whether `other` lies inside (a hair's rounding allowed).
    public func covers(_ other: ImageRegion) -> Bool {
        other.x >= x - 0.01 && other.y >= y - 0.01 && other.x + other.width <= x + width + 0.01
            && other.y + other.height <= y + height + 0.01
    }

    /// The region as an image of its own shape (whole pixels, at least
    /// one): what its size is asked for and it is laid out as.
    public func info(_ format: ImageFormat) -> SourceInfo {
        SourceInfo(format: format, width: max(1, Int(width.rounded())), height: max(1, Int(height.rounded())))
    }

    /// The same rectangle in the stored image, whose EXIF `orientation`
    /// turns it into a `displayWidth` × `displayHeight` picture (the
    /// inverse of `Pixmap.oriented`, for a rectangle).
    func stored(orientation: Int, displayWidth w: Double, displayHeight h: Double) -> ImageRegion {
        switch orientation {
        case 2: return ImageRegion(x: w - x - width, y: y, width: width, height: height)
        case 3: return ImageRegion(x: w - x - width, y: h - y - height, width: width, height: height)
        case 4: return ImageRegion(x: x, y: h - y - height, width: width, height: height)
        case 5: return ImageRegion(x: y, y: x, width: height, height: width)
        case 6: return ImageRegion(x: y, y: w - x - width, width: height, height: width)
        case 7: return ImageRegion(x: h - y - height, y: w - x - width, width: height, height: width)
        case 8: return ImageRegion(x: h - y - height, y: x, width: height, height: width)
        default: return self
        }
    }

    /// The whole pixels it touches in a raster `scale` times the stored
    /// size (a JPEG decoded at 1/2), inside `width` × `height`.
    public func pixels(
        scaleX: Double,
        scaleY: Double,
        width limitW: Int,
        height limitH: Int
    ) -> (columns: Range<Int>, rows: Range<Int>) {
        func span(_ start: Double, _ length: Double, _ scale: Double, _ limit: Int) -> Range<Int> {
            let low = max(0, min(limit - 1, Int((start * scale).rounded(.down))))
            let high = max(low + 1, min(limit, Int(((start + length) * scale).rounded(.up))))
            return low..<high
        }
        return (span(x, width, scaleX, limitW), span(y, height, scaleY, limitH))
    }
}

/// Which part of each decoded row goes to the resampler when only a
/// window of the image is wanted: the window's columns and rows (in the
/// decoded raster), and the column the decoder's rows start at (a JPEG
/// cropped to whole iMCUs starts a little left of the window).
struct RowCrop: Equatable {
    var columns: Range<Int>
    var rows: Range<Int>
    var deliveredFrom = 0

    /// For a delivered row at `place`: how many pixels into its bytes the
    /// window's first pixel is, and where the kept pixels go in the
    /// window; nil when none of them is inside.
    func crop(_ place: RowPlacement) -> (skip: Int, place: RowPlacement)? {
        guard rows.contains(place.y) else { return nil }
        // A row with nothing decoded is still a row: the background.
        if place.isWholeRow && place.count == 0 { return (0, RowPlacement(y: place.y - rows.lowerBound, count: 0)) }
        // Pixel k of the row is image column deliveredFrom + xStart + k·xStep.
        let first = deliveredFrom + place.xStart
        let step = max(1, place.xStep)
        let k0 = first >= columns.lowerBound ? 0 : (columns.lowerBound - first + step - 1) / step
        let k1 = first >= columns.upperBound ? 0 : min(place.count, (columns.upperBound - first + step - 1) / step)
        guard k1 > k0 else { return nil }
        let x = first + k0 * step - columns.lowerBound
        return (k0, RowPlacement(y: place.y - rows.lowerBound, xStart: x, xStep: place.xStep, count: k1 - k0))
    }
}

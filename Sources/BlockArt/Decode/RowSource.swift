/// A decoder delivering 8-bit rows: RGBA for PNG, RGB for JPEG. Plain
/// images come top to bottom, whole rows; an interlaced PNG comes as its
/// Adam7 passes, each row a sparse set of one image row's pixels.
///
/// The decoder reads the header when it is made (`storedSize`,
/// `orientation`), is told the smallest size the caller needs (`start`:
/// JPEG then decodes at the smallest DCT scale that still gives it, PNG
/// always decodes at full size), and then hands over `rowCount` rows.
protocol RowSource: AnyObject {
    /// Which decoder this is.
    var format: ImageFormat { get }
    /// The image's size as stored (before the EXIF orientation is applied).
    var storedSize: PixelSize { get }
    /// The EXIF Orientation (1–8); 1 where the format has none.
    var orientation: Int { get }
    /// Before `start`: decode only this rectangle of the stored image,
    /// before any scaling, where the decoder can (libwebp crops, then
    /// scales). Returns the rectangle it will decode, which may begin a
    /// little up and left of the one asked for: `start` then scales that
    /// rectangle, and its rows come as rows 0, 1, …. nil: the whole image.
    func crop(x: Int, y: Int, width: Int, height: Int) -> (x: Int, y: Int, width: Int, height: Int)?
    /// Starts decoding at no less than `minWidth` × `minHeight` (in stored
    /// orientation; of the crop, if there is one) where the decoder can
    /// shrink for free.
    func start(minWidth: Int, minHeight: Int) throws(DecodeError)
    /// The size of the rows delivered, once started.
    var width: Int { get }
    var height: Int { get }
    /// Bytes per pixel in the rows delivered (4 or 3; 1 with a `palette`).
    var channels: Int { get }
    /// When set, rows are palette indices, a byte a pixel, into these
    /// RGBA8 words (bytes r, g, b, a in memory): a GIF's lines are handed
    /// over as read, and the colours looked up by the consumer, off the
    /// decoder's thread (which on a large GIF is the one that sets the pace).
    var palette: [UInt32]? { get }
    /// How many rows `nextRow` delivers: the height, or for an interlaced
    /// image the rows of all its passes.
    var rowCount: Int { get }
    /// Fills `row` (at most width × channels bytes) with the next row and
    /// says where its pixels belong.
    func nextRow(_ row: UnsafeMutablePointer<UInt8>) throws(DecodeError) -> RowPlacement
    /// After `start`: decode no more than this window of the raster where
    /// the decoder can skip work, and return the column its rows then
    /// start at. Rows may still come from outside the window (the caller
    /// drops them), and `rowCount` may shrink.
    func window(columns: Range<Int>, rows: Range<Int>) throws(DecodeError) -> Int
    /// Reads past the last row, so that a damaged tail is reported.
    func finish() throws(DecodeError)
    /// What went wrong without stopping the decoding, once it is done.
    var warnings: [DecodeWarning] { get }
    /// The ICC profile the file embeds, once the header is read; nil when
    /// it has none (its numbers are then sRGB's).
    var iccProfile: [UInt8]? { get }
}

extension RowSource {
    /// Decoders that crop no better than the window does decode it all.
    func crop(x: Int, y: Int, width: Int, height: Int) -> (x: Int, y: Int, width: Int, height: Int)? { nil }

    /// Decoders that cannot skip (PNG, GIF, WebP, AVIF) deliver every row
    /// whole: only the window's part of each is filtered.
    func window(columns: Range<Int>, rows: Range<Int>) throws(DecodeError) -> Int { 0 }

    /// Rows of bytes, not indices.
    var palette: [UInt32]? { nil }

    /// Formats whose profiles are not read yet: taken as sRGB.
    var iccProfile: [UInt8]? { nil }
}

/// Where a delivered row's `count` pixels go: columns xStart, xStart +
/// xStep, … of image row `y`. A whole row with fewer pixels than the
/// image is wide was cut short (a truncated file): the rest is background.
struct RowPlacement: Equatable {
    var y: Int
    var xStart = 0
    var xStep = 1
    var count: Int

    /// Whether it is the whole of row `y`.
    var isWholeRow: Bool { xStart == 0 && xStep == 1 }
}

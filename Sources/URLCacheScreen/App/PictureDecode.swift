import BlockArt
import FoundationEssentials
import URLCacheKit

/// What the screen's decoding threads share: the background under
/// transparency, the renderer's samples per cell, and the pipe that wakes
/// the key loop when a decode is done.
struct DecodeContext: Sendable {
    var background: RGB8
    var samples: (x: Int, y: Int)
    var wakeups: WakePipe
}

/// What a Display Image decodes to, from the picture's size: the pixmap's
/// size, and the art to render while it decodes (`ImageDecoder.decode(…,
/// art:)`), which the view then draws without rendering it again.
struct DecodeTarget: Sendable {
    var size: @Sendable (SourceInfo) -> PixelSize
    var art: @Sendable (SourceInfo) -> ArtPlan? = { _ in nil }
}

extension ScreenState.PictureSource {
    /// The picture decoded from where it came from (a region of it, or
    /// all), at the size `size` picks, with the art `art` plans when it
    /// could be made as the rows came (Display Image's decodes; the zoom and
    /// the gallery ask for none).
    func decode(
        _ context: DecodeContext,
        region: ImageRegion? = nil,
        size: @escaping @Sendable (SourceInfo) -> PixelSize,
        art: @escaping @Sendable (SourceInfo) -> ArtPlan? = { _ in nil }
    ) throws(DecodeError) -> (image: DecodedImage, art: PlannedArt?) {
        let (background, samples) = (context.background, context.samples)
        switch self {
        case let .file(path):
            return try ImageDecoder.decode(
                path: path,
                background: background,
                samples: samples,
                region: region,
                size: size,
                art: art
            )
        case let .bundled(url):
            guard let bytes = BundledImage.bytes(for: url) else { throw .unsupportedFormat("no bundled picture") }
            return try ImageDecoder.decode(
                bytes: bytes,
                background: background,
                samples: samples,
                region: region,
                size: size,
                art: art
            )
        }
    }
}

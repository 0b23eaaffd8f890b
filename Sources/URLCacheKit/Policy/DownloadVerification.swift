import BlockArt
import URLCacheSupport

/// The last gate before a download becomes the cached image: the body is
/// decoded, all of it, and only an image that decodes without an error or
/// a warning may replace the one that is there. A 200 that lies about its
/// length, a PNG signature followed by noise or a JPEG cut short all look
/// like images to the sniffer; only a decode tells. The decode is as cheap
/// as the format allows: a JPEG at libjpeg's 1/8 DCT scale (its Huffman
/// data is still read to the end), a PNG inflated and unfiltered row by row
/// into an 8×8 box filter, so memory stays small whatever the size; an
/// animation's every frame.
enum DownloadVerification {
    /// What is wrong with the staged body at `path`, or nil when it decodes.
    static func damage(of path: String) -> FetchError? {
        let warnings: [DecodeWarning]
        do {
            warnings = try decodeWhole(path)
        } catch {
            let bytes = Posix.fileSize(path) ?? 0
            switch error {
            case let .corrupt(format, _) where error.isTruncation:
                return .damagedImage(format: format, bytes: bytes, detail: nil)
            case let .corrupt(format, _): return .damagedImage(format: format, bytes: bytes, detail: error.description)
            // Not damage: too large to show, or this machine could not read it.
            default: return .cannotShow(detail: error.description)
            }
        }
        for warning in warnings {
            if case let .truncated(format) = warning {
                return .damagedImage(format: format, bytes: Posix.fileSize(path) ?? 0, detail: nil)
            }
        }
        return nil
    }

    /// Decodes every frame of an animation (a GIF cut between frames decodes
    /// its first frame whole), else the still, at 8×8: what was wrong.
    private static func decodeWhole(_ path: String) throws(DecodeError) -> [DecodeWarning] {
        guard let animation = try AnimationDecoder.open(path: path, size: { _ in PixelSize(width: 8, height: 8) })
        else {
            return try ImageDecoder.decode(path: path) { _ in PixelSize(width: 8, height: 8) }.warnings
        }
        // Composed, not filtered: what can be wrong is in the composing.
        while try animation.next(passingOver: { _ in true }) != nil {}
        return animation.warnings
    }
}

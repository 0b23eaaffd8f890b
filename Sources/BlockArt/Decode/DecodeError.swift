import URLCacheSupport

/// Why an image file could not become pixels. Each description is one line
/// naming the problem.
public enum DecodeError: Error, Equatable, CustomStringConvertible {
    /// The file could not be opened or read (missing, a directory, no
    /// permission): the errno says which.
    case unreadable(path: String, errno: Errno)
    /// None of the formats decoded; says what it looks like ("HEIF", "HTML text", "empty file").
    case unsupportedFormat(String)
    /// Refused before decoding: width or height over 65535, or more pixels
    /// than allowed.
    case tooLarge(width: Int, height: Int)
    /// Refused before decoding: more pixels than a library that holds the
    /// whole picture may have (`DecodeLimits.maxWholePixels`).
    case tooLargeWhole(format: String, width: Int, height: Int, limit: Int)
    /// Refused before decoding: a HEIF grid of more tiles than
    /// `DecodeLimits.maxTiles`, or a file of more items than twice that.
    case tooManyTiles(count: Int, limit: Int)
    case tooManyItems(count: Int, limit: Int)
    /// The decoder found the data corrupt or cut short, in its words
    /// ("PNG: CRC error", "JPEG: Bogus marker length").
    case corrupt(format: String, message: String)
    /// Memory for the pixels could not be had.
    case outOfMemory
    /// The format's library, opened on first use, could not be loaded
    /// (AVIF: libavif and its codecs are not linked, to keep starts quick);
    /// `reason` is the loader's ("libavif.so: cannot open shared object file").
    case decoderMissing(format: String, reason: String)

    /// The data ends before the image does: the PNG shim's read callback
    /// says "file is truncated" when the file runs out (a truncated JPEG
    /// is a `DecodeWarning` instead: libjpeg shows what it has).
    public var isTruncation: Bool {
        if case .corrupt(_, "file is truncated") = self { return true }
        return false
    }

    public var description: String {
        switch self {
        case .unreadable(_, .isDirectory): return "a directory, not an image file"
        case let .unreadable(path, errno): return "cannot read \(path.terminalSafe): \(errno)"
        case let .unsupportedFormat(what): return "unsupported image format: \(what)"
        case let .tooLarge(width, height): return "image too large: \(width)×\(height)"
        case let .tooLargeWhole(format, width, height, limit):
            let megapixels = limit % 1_000_000 == 0 ? "\(limit / 1_000_000)" : "\(Double(limit) / 1_000_000)"
            return "\(format) image too large: \(width)×\(height) is over the \(megapixels) megapixels decoded whole"
        case let .tooManyTiles(count, limit): return "HEIF grid of \(count) tiles: over the \(limit) a picture may have"
        case let .tooManyItems(count, limit): return "HEIF file of \(count) items: over the \(limit) a picture may have"
        case let .corrupt(format, message): return "corrupt \(format) image: \(message.terminalSafe)"
        case .outOfMemory: return "out of memory decoding the image"
        case let .decoderMissing(format, reason): return "cannot decode \(format): \(reason.terminalSafe)"
        }
    }
}

/// Something wrong with an image that did not stop it from being shown.
public enum DecodeWarning: Equatable, Sendable, CustomStringConvertible {
    /// The file ends before the image does: what was there is shown, the
    /// rest is the decoder's gray.
    case truncated(format: String)
    /// An animation past `AnimationLimits` (frames, frames × pixels, or
    /// decode time): it plays its first `frames` frames.
    case animationCut(frames: Int)
    /// Frame `frame` (0-based) of an animation is damaged: the loop ends
    /// before it.
    case damagedFrame(format: String, frame: Int)
    /// The file's ICC profile is damaged, or too large to be one: the
    /// picture is shown as sRGB.
    case profileIgnored(format: String)

    public var description: String {
        switch self {
        case let .truncated(format): return "truncated \(format): shown partially"
        case let .animationCut(frames):
            return "animation past its limits: playing its first \(frames) frame\(frames == 1 ? "" : "s")"
        case let .profileIgnored(format):
            return "damaged ICC profile in the \(format) ignored: colours shown as sRGB"
        case let .damagedFrame(format, frame):
            return "\(format) frame \(frame + 1) is damaged: playing the \(frame) before it"
        }
    }
}

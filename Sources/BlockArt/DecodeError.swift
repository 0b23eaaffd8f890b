/// Why an image file could not become pixels. Each description is one line
/// naming the problem.
public enum DecodeError: Error, Equatable, CustomStringConvertible {
    /// The file could not be opened or read.
    case unreadable(path: String, reason: String)
    /// Not PNG or JPEG; says what it looks like ("GIF", "HTML text", "empty file").
    case unsupportedFormat(String)
    /// Refused before decoding: width or height over 65535, or more pixels
    /// than allowed.
    case tooLarge(width: Int, height: Int)
    /// The decoder found the data corrupt or cut short, in its words
    /// ("PNG: CRC error", "JPEG: Bogus marker length").
    case corrupt(format: String, message: String)
    /// Memory for the pixels could not be had.
    case outOfMemory

    public var description: String {
        switch self {
        case let .unreadable(path, reason): return "cannot read \(path.sanitized): \(reason)"
        case let .unsupportedFormat(what): return "unsupported image format: \(what)"
        case let .tooLarge(width, height): return "image too large: \(width)×\(height)"
        case let .corrupt(format, message): return "corrupt \(format) image: \(message.sanitized)"
        case .outOfMemory: return "out of memory decoding the image"
        }
    }
}

extension String {
    /// Control characters replaced: decoder messages and paths come from outside.
    var sanitized: String {
        String(String.UnicodeScalarView(unicodeScalars.map { scalar in
            (scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)) ? "\u{FFFD}" : scalar
        }))
    }
}

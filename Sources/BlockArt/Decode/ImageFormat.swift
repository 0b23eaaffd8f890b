#if canImport(Glibc)
import Glibc
#endif

/// What a file is, decided from its first bytes, never from its name or a
/// Content-Type.
public enum ImageFormat: Sendable, Equatable, CustomStringConvertible {
    case png
    case jpeg
    case gif
    case webp
    case avif
    /// HEIF with HEVC (HEIC), as phones save it.
    case heif
    /// JPEG XL, its bare codestream or its container.
    case jxl
    /// An SVG document, rendered at the size shown.
    case svg
    case tiff
    case qoi
    /// Anything else, described for a message ("GIF", "HTML text", "empty file").
    case unsupported(String)

    /// How many leading bytes `sniff` looks at.
    public static let sniffLength = 256

    /// Tells the format from a file's first bytes (`sniffLength` suffice):
    /// the images we read, then what else it is, for the message.
    public static func sniff<C: Collection>(_ bytes: C) -> ImageFormat where C.Element == UInt8 {
        let head = Head(bytes: Array(bytes.prefix(sniffLength)))
        if head.bytes.isEmpty { return .unsupported("empty file") }
        return image(head) ?? isoMedia(head) ?? otherBinary(head) ?? text(head)
    }

    /// A file's first bytes, and their magic numbers.
    private struct Head {
        let bytes: [UInt8]

        func starts(_ magic: [UInt8], at offset: Int = 0) -> Bool {
            bytes.count >= offset + magic.count && Array(bytes[offset..<offset + magic.count]) == magic
        }

        func starts(_ magic: String, at offset: Int = 0) -> Bool { starts(Array(magic.utf8), at: offset) }
    }

    private static func image(_ head: Head) -> ImageFormat? {
        if head.starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if head.starts([0xFF, 0xD8, 0xFF]) { return .jpeg }
        if head.starts("GIF87a") || head.starts("GIF89a") { return .gif }
        if head.starts("GIF8") { return .unsupported("GIF of an unknown version") }
        if head.starts("RIFF"), head.starts("WEBP", at: 8) { return .webp }
        if head.starts("qoif") { return .qoi }
        if head.starts([0xFF, 0x0A]) || head.starts([0, 0, 0, 0x0C, 0x4A, 0x58, 0x4C, 0x20, 0x0D, 0x0A, 0x87, 0x0A]) {
            return .jxl
        }
        // Classic TIFF (42) and BigTIFF (43), either byte order.
        if head.starts([0x49, 0x49, 0x2A, 0x00]) || head.starts([0x4D, 0x4D, 0x00, 0x2A])
            || head.starts([0x49, 0x49, 0x2B, 0x00]) || head.starts([0x4D, 0x4D, 0x00, 0x2B])
        {
            return .tiff
        }
        return nil
    }

    /// An ISO media file (an `ftyp` box first): AVIF by its major brand or a
    /// compatible one (a "mif1" file that is AVIF), else named by its brand.
    private static func isoMedia(_ head: Head) -> ImageFormat? {
        guard head.starts("ftyp", at: 4) else { return nil }
        let b = head.bytes
        let brand = String(decoding: b.dropFirst(8).prefix(4), as: UTF8.self)
        let boxEnd = min(b.count, b.count >= 4 ? Int(b[0]) << 24 | Int(b[1]) << 16 | Int(b[2]) << 8 | Int(b[3]) : 0)
        let brands = [8] + Array(stride(from: 16, to: boxEnd - 3, by: 4))
        if brands.contains(where: { head.starts("avif", at: $0) || head.starts("avis", at: $0) }) { return .avif }
        if brand.hasPrefix("avi") { return .unsupported("AVIF (\(brand.filter { $0.isLetter || $0.isNumber }))") }
        // HEIC's brands, or HEIF's structural one (mif1) when no AVIF brand is there.
        if ["heic", "heix", "heim", "heis", "mif1"].contains(brand) { return .heif }
        if brand.hasPrefix("hei") || brand.hasPrefix("mif") || brand.hasPrefix("hev") {
            return .unsupported("HEIF (\(brand.filter { $0.isLetter || $0.isNumber }))")
        }
        return .unsupported("ISO media (\(brand.filter { $0.isLetter || $0.isNumber }))")
    }

    private static func otherBinary(_ head: Head) -> ImageFormat? {
        if head.starts([0x42, 0x4D]) { return .unsupported("BMP") }
        if head.starts([0x00, 0x00, 0x01, 0x00]) { return .unsupported("ICO") }
        if head.starts([0x1F, 0x8B]) { return .unsupported("gzip data") }
        if head.starts("%PDF") { return .unsupported("PDF") }
        // "PNG" a byte in, or the IHDR chunk where a PNG's first chunk sits:
        // a PNG whose signature bytes were damaged.
        if head.starts("PNG", at: 1) || head.starts("IHDR", at: 12) {
            return .unsupported("damaged PNG (bad signature)")
        }
        return nil
    }

    /// Text (a server's error page, mostly), or binary data we cannot name.
    private static func text(_ head: Head) -> ImageFormat {
        let b = head.bytes
        let text = String(decoding: b, as: UTF8.self).drop(while: { $0.isWhitespace || $0 == "\u{FEFF}" }).lowercased()
        if text.hasPrefix("<!doctype html") || text.hasPrefix("<html") || text.hasPrefix("<head")
            || text.hasPrefix("<body")
        {
            return .unsupported("HTML text")
        }
        // An SVG root in the first bytes, after any prolog or comment.
        if text.hasPrefix("<svg")
            || (text.hasPrefix("<?xml") || text.hasPrefix("<!"))
                && (text.contains("<svg") || text.contains("<!doctype svg"))
        {
            return .svg
        }
        if text.hasPrefix("<?xml") { return .unsupported("XML text") }
        if text.hasPrefix("{") || text.hasPrefix("[") { return .unsupported("JSON or other text") }
        let printable = b.filter { $0 == 9 || $0 == 10 || $0 == 13 || (0x20..<0x7F).contains($0) || $0 >= 0x80 }
        if printable.count == b.count { return .unsupported("text") }
        return .unsupported("unknown binary data")
    }

    /// Tells the format of an open file from its first bytes, and rewinds it.
    static func sniff(_ file: UnsafeMutablePointer<FILE>) -> ImageFormat {
        var head = [UInt8](repeating: 0, count: sniffLength)
        let count = fread(&head, 1, head.count, file)
        rewind(file)
        return sniff(head.prefix(count))
    }

    /// Drawn at any size, each pixel the coverage of the picture's area
    /// under it (a vector picture: SVG). Its own size bounds no decode
    /// (`SourceInfo.atMost`), and the whole picture is drawn at the
    /// pixmap's own size, not at half the raster as a decoder is asked (a
    /// zoomed region still is, see `ImageDecoder.decode`): the drawing's
    /// time follows its rows, and an SVG wallpaper's at 160x48 cells went
    /// from 58 to 40 ms.
    public var drawsAtAnySize: Bool { self == .svg }

    public var description: String {
        switch self {
        case .png: return "PNG"
        case .jpeg: return "JPEG"
        case .gif: return "GIF"
        case .webp: return "WebP"
        case .avif: return "AVIF"
        case .heif: return "HEIF"
        case .jxl: return "JPEG XL"
        case .svg: return "SVG"
        case .tiff: return "TIFF"
        case .qoi: return "QOI"
        case let .unsupported(what): return what
        }
    }

    /// The usual file name extension, without its dot ("img" for what
    /// this program cannot read: a saved copy still says it is binary).
    public var fileExtension: String {
        switch self {
        case .png: return "png"
        case .jpeg: return "jpg"
        case .gif: return "gif"
        case .webp: return "webp"
        case .avif: return "avif"
        case .heif: return "heic"
        case .jxl: return "jxl"
        case .svg: return "svg"
        case .tiff: return "tif"
        case .qoi: return "qoi"
        case .unsupported: return "img"
        }
    }

    /// Whether this program can decode it.
    public var isSupported: Bool {
        switch self {
        case .png, .jpeg, .gif, .webp, .avif, .heif, .jxl, .svg, .tiff, .qoi: return true
        case .unsupported: return false
        }
    }
}

internal import CImageShim

#if canImport(Glibc)
import Glibc
#endif

/// HEIF/HEIC through libheif (opened at the first one): the primary image,
/// a grid's tiles joined, its irot, imir and clap applied, decoded whole
/// to RGBA8 when the header is read (libheif decodes no less), then handed
/// over a row at a time. Its ICC profile, as phones embed Display P3, is
/// applied by `ColorManagedSource`.
final class HEIFRowSource: HeldRows {
    private let decoder: OpaquePointer
    private(set) var width = 0, height = 0
    let channels = 4
    var format: ImageFormat { .heif }
    /// The transformations are applied in the decode.
    var orientation: Int { 1 }
    var storedSize: PixelSize { PixelSize(width: width, height: height) }
    var rowCount: Int { height }
    var warnings: [DecodeWarning] { [] }
    var nextIndex = 0

    /// The largest file read whole: a HEIC is a photo, not gigabytes.
    static let maxBytes = 1 << 30

    /// The id of the HEVC decoder libheif uses: ours, libde265 with two
    /// workers ("urlcache-libde265"), once libheif is loaded.
    static var hevcDecoder: String { String(cString: cimg_heif_hevc_decoder()) }

    /// How many pictures that decoder has made RGB itself (ycbcr_rgb.c).
    static var ownConversions: Int { Int(cimg_hevc_rgb_pictures()) }

    init(file: UnsafeMutablePointer<FILE>, limits: DecodeLimits) throws(DecodeError) {
        guard cimg_heif_load() == 0 else {
            throw .decoderMissing(format: "HEIF", reason: String(cString: cimg_heif_load_error()))
        }
        guard let decoder = cimg_heif_open(file, HEIFRowSource.maxBytes) else { throw .outOfMemory }
        self.decoder = decoder
        var items: UInt32 = 0
        var tiles: UInt32 = 0
        guard cimg_heif_count(decoder, &items, &tiles) == 0 else { throw failure() }
        // Before libheif parses the items, which costs it time by their square.
        guard tiles <= limits.maxTiles else { throw .tooManyTiles(count: Int(tiles), limit: limits.maxTiles) }
        guard items <= limits.maxTiles * 2 else { throw .tooManyItems(count: Int(items), limit: limits.maxTiles * 2) }
        var w: UInt32 = 0
        var h: UInt32 = 0
        guard cimg_heif_read_header(decoder, Int32(clamping: limits.maxDimension), &w, &h) == 0 else {
            throw failure()
        }
        // A grid counts as the whole picture, before any tile is decoded.
        try limits.checkWhole(format: "HEIF", width: Int(w), height: Int(h))
        guard cimg_heif_decode(decoder, &w, &h) == 0 else { throw failure() }
        width = Int(w)
        height = Int(h)
        try limits.checkWhole(format: "HEIF", width: width, height: height)
    }

    deinit { cimg_heif_close(decoder) }

    /// Decoded whole already: the resampler does the scaling.
    func start(minWidth: Int, minHeight: Int) throws(DecodeError) {}

    func heldRow(_ y: Int) -> UnsafePointer<UInt8>? { cimg_heif_row(decoder, UInt32(y)) }

    func finish() throws(DecodeError) {}

    var iccProfile: [UInt8]? { ColorTransform.profile { cimg_heif_icc(decoder, $0, $1) } }

    private func failure() -> DecodeError {
        .corrupt(format: "HEIF", message: String(cString: cimg_heif_message(decoder)))
    }
}

internal import CImageShim

/// An embedded ICC profile's transform to sRGB, through lcms2 (opened on
/// first use): a photo written in Adobe RGB, ProPhoto RGB or Display P3
/// is shown with the colours its profile says, not its numbers read as
/// sRGB's; a grey picture's grey profile is applied too. Where lcms2 is
/// missing, or the profile is damaged or neither RGB nor grey, the picture
/// is shown as before, as sRGB. A CMYK profile is the decoder's to apply,
/// to the inks before they are RGB (JPEG and TIFF shims).
final class ColorTransform {
    private let handle: OpaquePointer

    /// The largest profile read: real ones are a few KB.
    static let maxBytes = 16 << 20

    /// What a profile comes to: a transform, nothing to do (sRGB by name,
    /// CMYK, applied by the decoder, or no lcms2), or damage (the picture is then shown as
    /// sRGB, with a warning).
    enum Use {
        case apply(ColorTransform)
        case none
        case damaged
    }

    /// The use of `profile` for rows of `channels` (3 or 4) bytes a pixel.
    static func use(_ profile: [UInt8], channels: Int) -> Use {
        guard profile.count <= maxBytes else { return .damaged }
        var damaged: Int32 = 0
        let made = profile.withUnsafeBufferPointer { bytes -> OpaquePointer? in
            guard let base = bytes.baseAddress, cimg_icc_is_srgb(base, bytes.count) == 0 else { return nil }
            return cimg_icc_open(base, bytes.count, Int32(channels), &damaged)
        }
        if let made { return .apply(ColorTransform(made)) }
        return damaged != 0 ? .damaged : .none
    }

    private init(_ handle: OpaquePointer) { self.handle = handle }

    deinit { cimg_icc_close(handle) }

    /// The profile a C decoder holds, copied out: `get` gives its pointer
    /// and length and returns 0, or returns -1 when there is none.
    static func profile(
        _ get: (UnsafeMutablePointer<UnsafePointer<UInt8>?>, UnsafeMutablePointer<Int>) -> Int32
    ) -> [UInt8]? {
        var pointer: UnsafePointer<UInt8>?
        var length = 0
        guard get(&pointer, &length) == 0, let pointer, length > 0 else { return nil }
        return Array(UnsafeBufferPointer(start: pointer, count: length))
    }

    func apply(_ pixels: UnsafeMutablePointer<UInt8>, count: Int) {
        cimg_icc_apply(handle, pixels, UInt32(clamping: count))
    }
}

/// A row source whose rows come carried from the file's profile to sRGB
/// (PNG, JPEG, TIFF, WebP, AVIF, HEIC and JPEG XL stills),
/// before the resampler (which works in sRGB's linear light) sees them.
final class ColorManagedSource: RowSource {
    private let inner: RowSource
    /// nil: a damaged profile, ignored with `warning`.
    private let transform: ColorTransform?
    private let warning: DecodeWarning?

    /// `source` with its profile applied, or `source` itself when it has
    /// none to apply; a damaged profile is ignored with a warning.
    static func wrap(_ source: RowSource, profile given: [UInt8]? = nil) -> RowSource {
        guard source.palette == nil, let profile = given ?? source.iccProfile else { return source }
        switch ColorTransform.use(profile, channels: source.channels) {
        case let .apply(transform): return ColorManagedSource(source, transform, nil)
        case .none: return source
        case .damaged: return ColorManagedSource(source, nil, .profileIgnored(format: source.format.description))
        }
    }

    private init(_ inner: RowSource, _ transform: ColorTransform?, _ warning: DecodeWarning?) {
        self.inner = inner
        self.transform = transform
        self.warning = warning
    }

    var format: ImageFormat { inner.format }
    var storedSize: PixelSize { inner.storedSize }
    var orientation: Int { inner.orientation }
    var width: Int { inner.width }
    var height: Int { inner.height }
    var channels: Int { inner.channels }
    var palette: [UInt32]? { inner.palette }
    var rowCount: Int { inner.rowCount }
    var warnings: [DecodeWarning] { inner.warnings + (warning.map { [$0] } ?? []) }
    var iccProfile: [UInt8]? { inner.iccProfile }

    func crop(x: Int, y: Int, width: Int, height: Int) -> (x: Int, y: Int, width: Int, height: Int)? {
        inner.crop(x: x, y: y, width: width, height: height)
    }

    func start(minWidth: Int, minHeight: Int) throws(DecodeError) {
        try inner.start(minWidth: minWidth, minHeight: minHeight)
    }

    func nextRow(_ row: UnsafeMutablePointer<UInt8>) throws(DecodeError) -> RowPlacement {
        let place = try inner.nextRow(row)
        transform?.apply(row, count: place.count)
        return place
    }

    func window(columns: Range<Int>, rows: Range<Int>) throws(DecodeError) -> Int {
        try inner.window(columns: columns, rows: rows)
    }

    func finish() throws(DecodeError) { try inner.finish() }
}

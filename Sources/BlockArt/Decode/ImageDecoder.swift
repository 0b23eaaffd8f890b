import URLCacheSupport

#if canImport(Glibc)
import Glibc
#endif

/// Turns image files (PNG, APNG, JPEG, GIF, WebP, AVIF, HEIC, JPEG XL, TIFF,
/// QOI, SVG) into pixmaps, reading rows as they are decoded
/// and box-filtering them straight to the size asked for, so that peak
/// memory follows the output size (interlaced PNGs too: each pass's rows
/// are added where they belong).
public enum ImageDecoder {
    /// Decodes `path`. `size` picks the pixmap's size from the source's
    /// (display-oriented) size, and each pixmap pixel is the mean of
    /// `samples` raster pixels (see `BoxResampler`); transparency is
    /// composited over `background`.
    /// With `region`, only that part of the picture (display orientation)
    /// is decoded, and `size` is given the region's size: a zoomed view,
    /// whose `info` is the region's (`ImageRegion.info`), so that it is
    /// laid out as an image of that shape.
    public static func decode(
        path: String,
        background: RGB8 = RGB8(0, 0, 0),
        limits: DecodeLimits = DecodeLimits(),
        samples: (x: Int, y: Int) = (1, 1),
        region: ImageRegion? = nil,
        size: (SourceInfo) -> PixelSize
    ) throws(DecodeError) -> DecodedImage {
        try decode(
            path: path,
            background: background,
            limits: limits,
            samples: samples,
            region: region,
            size: size,
            art: { _ in nil }
        ).image
    }

    /// Decodes bytes held in memory (standard input, fuzzing, tests).
    public static func decode(
        bytes: [UInt8],
        background: RGB8 = RGB8(0, 0, 0),
        limits: DecodeLimits = DecodeLimits(),
        samples: (x: Int, y: Int) = (1, 1),
        region: ImageRegion? = nil,
        size: (SourceInfo) -> PixelSize
    ) throws(DecodeError) -> DecodedImage {
        try decode(
            bytes: bytes,
            background: background,
            limits: limits,
            samples: samples,
            region: region,
            size: size,
            art: { _ in nil }
        ).image
    }

    /// `body` given `bytes` as a file to read.
    static func withMemoryFile<T>(
        _ bytes: [UInt8],
        _ body: (UnsafeMutablePointer<FILE>) throws(DecodeError) -> T
    ) throws(DecodeError) -> T {
        var copy = bytes.isEmpty ? [0] : bytes
        let count = bytes.count
        let result = copy.withUnsafeMutableBytes { raw -> Result<T, DecodeError> in
            guard let file = fmemopen(raw.baseAddress, count, "rb") else { return .failure(.outOfMemory) }
            defer { fclose(file) }
            return Result { () throws(DecodeError) in try body(file) }
        }
        return try result.get()
    }

    /// The full-size 8-bit RGBA pixels, uncomposited (alpha 255 for JPEG),
    /// as the file's decoder gives them, before any profile, cHRM or gAMA
    /// is applied: what the PNG conformance digests are computed over.
    public static func decodeRGBA8(
        path: String,
        limits: DecodeLimits = DecodeLimits()
    ) throws(DecodeError) -> (width: Int, height: Int, pixels: [UInt8]) {
        let file = try open(path)
        defer { fclose(file) }
        let source = try openSource(file, limits: limits, colorManaged: false)
        try source.start(minWidth: source.storedSize.width, minHeight: source.storedSize.height)
        var pixels = [UInt8](repeating: 255, count: source.width * source.height * 4)
        var row = [UInt8](repeating: 0, count: source.width * source.channels)
        let palette = source.palette
        for _ in 0..<source.rowCount {
            let place = try row.withUnsafeMutableBufferPointer { (buffer) throws(DecodeError) -> RowPlacement in
                guard let base = buffer.baseAddress else { throw .outOfMemory }
                return try source.nextRow(base)
            }
            for k in 0..<place.count {
                let at = (place.y * source.width + place.xStart + k * place.xStep) * 4
                // A palette word is the pixel's four bytes, as they lie in memory.
                if let palette {
                    pixels.withUnsafeMutableBytes {
                        $0.storeBytes(of: palette[Int(row[k])], toByteOffset: at, as: UInt32.self)
                    }
                } else {
                    for c in 0..<source.channels { pixels[at + c] = row[k * source.channels + c] }
                }
            }
            // A row cut short: nothing decoded past its pixels.
            if place.isWholeRow && place.count < source.width {
                pixels.replaceSubrange(
                    (place.y * source.width + place.count) * 4..<(place.y + 1) * source.width * 4,
                    with: repeatElement(0, count: (source.width - place.count) * 4)
                )
            }
        }
        try source.finish()
        return (source.width, source.height, pixels)
    }

    /// Opens a file for reading; a directory is named as such (fopen opens one).
    static func open(_ path: String) throws(DecodeError) -> UnsafeMutablePointer<FILE> {
        guard let file = fopen(path, "rb") else { throw .unreadable(path: path, errno: .current) }
        var info = stat()
        if fstat(fileno(file), &info) == 0, info.st_mode & S_IFMT == S_IFDIR {
            fclose(file)
            throw .unreadable(path: path, errno: .isDirectory)
        }
        return file
    }

    /// The file's row source; `colorManaged`, its rows carried to sRGB by
    /// what the file says of its colours (an ICC profile, cHRM and gAMA, nclx).
    static func openSource(
        _ file: UnsafeMutablePointer<FILE>,
        limits: DecodeLimits,
        colorManaged: Bool = true
    ) throws(DecodeError) -> RowSource {
        let managed = { (source: RowSource, profile: [UInt8]?) -> RowSource in
            colorManaged ? ColorManagedSource.wrap(source, profile: profile) : source
        }
        switch ImageFormat.sniff(file) {
        case .png: return managed(try PNGRowSource(file: file, limits: limits), nil)
        case .jpeg: return managed(try JPEGRowSource(file: file, limits: limits), nil)
        case .gif: return try GIFRowSource(file: file, limits: limits)
        case .webp:
            let profile = WebPProfile.read(file)
            let frames = try WebPFrames(file: file, limits: limits)
            if frames.frameCount > 0 { return managed(FirstFrameRowSource(frames, format: .webp), profile) }
            rewind(file)
            return managed(try WebPRowSource(file: file, limits: limits), profile)
        case .avif: return managed(FirstFrameRowSource(try AVIFFrames(file: file, limits: limits), format: .avif), nil)
        case .heif: return managed(try HEIFRowSource(file: file, limits: limits), nil)
        case .jxl: return managed(FirstFrameRowSource(try JXLFrames(file: file, limits: limits), format: .jxl), nil)
        case .svg: return try SVGRowSource(file: file, limits: limits)
        case .tiff: return managed(try TIFFRowSource(file: file, limits: limits), nil)
        case .qoi: return try QOIRowSource(file: file, limits: limits)
        case let .unsupported(what): throw .unsupportedFormat(what)
        }
    }
}

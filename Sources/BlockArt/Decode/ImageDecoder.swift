import URLCacheSupport

#if canImport(Glibc)
import Glibc
#endif

/// Turns PNG, JPEG, GIF, WebP and AVIF files into pixmaps, reading rows as they are decoded
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
        let file = try open(path)
        defer { fclose(file) }
        return try decode(
            file: file,
            background: background,
            limits: limits,
            samples: samples,
            region: region,
            size: size
        )
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
            pipelineRows: RowPipeline.minimumRows,
            region: region,
            size: size
        )
    }

    static func decode(
        bytes: [UInt8],
        background: RGB8 = RGB8(0, 0, 0),
        limits: DecodeLimits = DecodeLimits(),
        samples: (x: Int, y: Int) = (1, 1),
        pipelineRows: Int,
        region: ImageRegion? = nil,
        size: (SourceInfo) -> PixelSize
    ) throws(DecodeError) -> DecodedImage {
        var copy = bytes.isEmpty ? [0] : bytes
        let count = bytes.count
        let result = copy.withUnsafeMutableBytes { raw -> Result<DecodedImage, DecodeError> in
            guard let file = fmemopen(raw.baseAddress, count, "rb") else { return .failure(.outOfMemory) }
            defer { fclose(file) }
            return Result { () throws(DecodeError) in
                try decode(
                    file: file,
                    background: background,
                    limits: limits,
                    samples: samples,
                    pipelineRows: pipelineRows,
                    region: region,
                    size: size
                )
            }
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

    /// `pipelineRows`: from how many rows a PNG is decoded on a second
    /// thread (tests set it to compare both ways). With `region`, only that
    /// part of the picture is decoded and `size` is asked for its size.
    static func decode(
        file: UnsafeMutablePointer<FILE>,
        background: RGB8,
        limits: DecodeLimits,
        samples: (x: Int, y: Int),
        pipelineRows: Int = RowPipeline.minimumRows,
        region: ImageRegion? = nil,
        size: (SourceInfo) -> PixelSize
    ) throws(DecodeError) -> DecodedImage {
        let source = try openSource(file, limits: limits)
        // A turned image's rows are the picture's columns.
        let turned = source.orientation >= 5
        let stored = source.storedSize
        let info = SourceInfo(
            format: source.format,
            width: turned ? stored.height : stored.width,
            height: turned ? stored.width : stored.height
        )
        let (part, base) = place(region, of: source, shown: info)
        let shownInfo = region?.info(info.format) ?? info
        var target = size(shownInfo)
        if turned { target = target.transposed }
        let raster = turned ? (x: samples.y, y: samples.x) : samples
        let need = decodedAtLeast(target, raster: raster)
        // The whole raster's size that gives the region that many pixels.
        let across = Double(base.width) / max(1, part.width)
        let down = Double(base.height) / max(1, part.height)
        try source.start(
            minWidth: Int((Double(need.width) * across).rounded(.up)),
            minHeight: Int((Double(need.height) * down).rounded(.up))
        )
        let window = part.pixels(
            scaleX: Double(source.width) / Double(max(1, base.width)),
            scaleY: Double(source.height) / Double(max(1, base.height)),
            width: source.width,
            height: source.height
        )
        var crop = RowCrop(columns: window.columns, rows: window.rows)
        if region != nil { crop.deliveredFrom = try source.window(columns: window.columns, rows: window.rows) }
        var resampler = BoxResampler(
            sourceWidth: window.columns.count,
            sourceHeight: window.rows.count,
            width: target.width,
            height: target.height,
            samples: raster
        )
        try feed(
            source,
            to: &resampler,
            crop: crop,
            background: LinearRGB(srgb: background),
            pipelineRows: pipelineRows
        )
        try source.finish()
        return DecodedImage(
            info: shownInfo,
            pixmap: resampler.finish().oriented(source.orientation),
            warnings: source.warnings
        )
    }

    /// Every row the source delivers, its window's part filtered into
    /// `resampler`.
    private static func feed(
        _ source: RowSource,
        to resampler: inout BoxResampler,
        crop: RowCrop,
        background bg: LinearRGB,
        pipelineRows: Int
    ) throws(DecodeError) {
        let channels = source.channels
        let whole = crop.columns.count == source.width && crop.rows.count == source.height && crop.deliveredFrom == 0
        let palette = source.palette.map { BoxResampler.linearPalette($0, over: bg) }
        func push(_ row: UnsafePointer<UInt8>, _ place: RowPlacement) {
            guard let palette else { return resampler.push(bytes: row, channels: channels, background: bg, at: place) }
            palette.withUnsafeBufferPointer { resampler.push(indices: row, palette: $0, background: bg, at: place) }
        }
        func consume(_ row: UnsafePointer<UInt8>, _ place: RowPlacement) {
            if whole { return push(row, place) }
            guard let (skip, kept) = crop.crop(place) else { return }
            push(row + skip * channels, kept)
        }
        if source.rowCount >= pipelineRows {
            // libpng's inflate and unfilter cost as much as all the rest, and
            // libjpeg's decoding most of it: on a thread of their own they
            // overlap with the filtering here.
            try RowPipeline(source: source).run(consume)
            return
        }
        var bytes = [UInt8](repeating: 0, count: source.width * channels)
        for _ in 0..<source.rowCount {
            try bytes.withUnsafeMutableBufferPointer { (buffer) throws(DecodeError) in
                guard let base = buffer.baseAddress else { return }
                consume(base, try source.nextRow(base))
            }
        }
    }
}

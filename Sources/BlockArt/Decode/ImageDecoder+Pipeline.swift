#if canImport(Glibc)
import Glibc
#endif

/// The decode itself: the source opened and started at the scale the size
/// needs, its rows filtered as they come, and the art rendered beside them
/// when it is asked for.
extension ImageDecoder {
    /// `decode(path:…)`, with the art `art` plans for the picture (given its
    /// size, as `size` is) rendered while it decodes: ready when the last
    /// row is, where rendering after would add its time (`ArtInProgress`).
    /// The art is nil when the plan's pixmap is not the one decoded (a
    /// picture smaller than the art's sub-cells), or for a turned picture
    /// or a `region`: `Renderer.render` then makes it, as before.
    public static func decode(
        path: String,
        background: RGB8 = RGB8(0, 0, 0),
        limits: DecodeLimits = DecodeLimits(),
        samples: (x: Int, y: Int) = (1, 1),
        region: ImageRegion? = nil,
        size: (SourceInfo) -> PixelSize,
        art: (SourceInfo) -> ArtPlan?
    ) throws(DecodeError) -> (image: DecodedImage, art: PlannedArt?) {
        let file = try open(path)
        defer { fclose(file) }
        return try decode(
            file: file,
            background: background,
            limits: limits,
            samples: samples,
            region: region,
            size: size,
            art: art
        )
    }

    /// `decode(bytes:…)` with its art, as `decode(path:…, art:)`.
    public static func decode(
        bytes: [UInt8],
        background: RGB8 = RGB8(0, 0, 0),
        limits: DecodeLimits = DecodeLimits(),
        samples: (x: Int, y: Int) = (1, 1),
        region: ImageRegion? = nil,
        size: (SourceInfo) -> PixelSize,
        art: (SourceInfo) -> ArtPlan?
    ) throws(DecodeError) -> (image: DecodedImage, art: PlannedArt?) {
        try decode(
            bytes: bytes,
            background: background,
            limits: limits,
            samples: samples,
            pipelineRows: RowPipeline.minimumRows,
            region: region,
            size: size,
            art: art
        )
    }

    /// Bytes in memory as a file, decoded as `decode(file:…)`; tests give
    /// `pipelineRows` and `art: { _ in nil }` to compare both ways.
    static func decode(
        bytes: [UInt8],
        background: RGB8 = RGB8(0, 0, 0),
        limits: DecodeLimits = DecodeLimits(),
        samples: (x: Int, y: Int) = (1, 1),
        pipelineRows: Int,
        region: ImageRegion? = nil,
        size: (SourceInfo) -> PixelSize,
        art: (SourceInfo) -> ArtPlan?
    ) throws(DecodeError) -> (image: DecodedImage, art: PlannedArt?) {
        try withMemoryFile(bytes) { (file) throws(DecodeError) in
            try decode(
                file: file,
                background: background,
                limits: limits,
                samples: samples,
                pipelineRows: pipelineRows,
                region: region,
                size: size,
                art: art
            )
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
        size: (SourceInfo) -> PixelSize,
        art: (SourceInfo) -> ArtPlan?
    ) throws(DecodeError) -> (image: DecodedImage, art: PlannedArt?) {
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
        // A region is cut from the drawing at whole pixels, rounded out:
        // drawn at the pixmap's size, that would shift and blur it by up to
        // a pixel, which a drawing at half the raster hides.
        let need = source.format.drawsAtAnySize && region == nil ? target : decodedAtLeast(target, raster: raster)
        let window = try start(source, part: part, base: base, need: need)
        var crop = RowCrop(columns: window.columns, rows: window.rows)
        if region != nil { crop.deliveredFrom = try source.window(columns: window.columns, rows: window.rows) }
        // Rows as the picture shows them: the art is made of them as they come.
        let upright = region == nil && !(2...8).contains(source.orientation)
        var progress = upright ? art(shownInfo).flatMap { ArtInProgress($0, pixmap: target) } : nil
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
        ) { progress?.advance($0) ?? false }
        try source.finish()
        let inOrder = !resampler.rowsOutOfOrder
        let pixmap = resampler.finish().oriented(source.orientation)
        return (
            DecodedImage(info: shownInfo, pixmap: pixmap, warnings: source.warnings),
            progress?.finish(pixmap, rowsInOrder: inOrder)
        )
    }

    /// Every row the source delivers, its window's part filtered into
    /// `resampler`; `idle` is given it while the decoder's thread has no
    /// rows ready.
    private static func feed(
        _ source: RowSource,
        to resampler: inout BoxResampler,
        crop: RowCrop,
        background bg: LinearRGB,
        pipelineRows: Int,
        idle: (BoxResampler) -> Bool
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
            try RowPipeline(source: source).run(consume) { idle(resampler) }
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

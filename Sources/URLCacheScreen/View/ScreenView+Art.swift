import BlockArt

/// The image in block art: rendered once for a size and options, and, while
/// an animation plays, kept a frame each (within `KeptFrameBudget.bytes`), so
/// that a later loop only writes what it drew before.
extension ScreenView {
    /// The rendered art and where it goes: as large as fits, centred.
    func art(_ image: DecodedImage, _ layout: Layout) -> (CellGrid, Int, Int) {
        let art = fittedArt(
            image,
            columns: layout.columns,
            rows: layout.imageRows,
            cache: drawCache.cached,
            kept: drawCache.keptArts
        )
        drawCache.cached = art
        if drawCache.animating {
            drawCache.keptArts.keep(art, for: art.key, size: art.grid.cells.count * MemoryLayout<Cell>.stride)
        }
        return (
            art.grid, layout.imageTop + (layout.imageRows - art.grid.rows) / 2, (layout.columns - art.grid.columns) / 2
        )
    }

    /// Art rendered with `image`'s decode, kept as the art last drawn: the
    /// next draw takes it if it is the art it would render (the same
    /// cells, options and pixels), and renders its own otherwise.
    public func offer(_ art: PlannedArt, for image: DecodedImage) {
        guard art.plan.options == renderOptions else { return }
        let key = ArtKey(
            columns: art.plan.columns,
            rows: art.plan.rows,
            drawn: .pixels(image.pixmap.identity),
            options: art.plan.options
        )
        drawCache.cached = FittedArt(key: key, grid: art.grid)
    }

    /// `image` in block art, as large as fits `columns` × `rows` cells:
    /// `cache` when it was rendered the same, or a frame `kept`, else
    /// rendered now.
    func fittedArt(
        _ image: DecodedImage,
        columns: Int,
        rows: Int,
        cache: FittedArt?,
        kept: KeptFrames<ArtKey, FittedArt>? = nil
    ) -> FittedArt {
        let key = artKey(
            image,
            columns: columns,
            rows: rows,
            frame: drawCache.shownFrame,
            byIndex: drawCache.framesByIndex
        )
        if let cache, cache.key == key { return cache }
        if let frame = kept?[key] { return frame }
        return FittedArt(
            key: key,
            grid: Renderer.render(image.pixmap, columns: key.columns, rows: key.rows, options: renderOptions)
        )
    }

    /// What the art of `image` (as frame `frame`, told apart `byIndex`:
    /// see `Drawn`) in `columns` × `rows` cells is kept under.
    private func artKey(_ image: DecodedImage, columns: Int, rows: Int, frame: Int, byIndex: Bool) -> ArtKey {
        let fit = Geometry.fit(
            width: image.info.width,
            height: image.info.height,
            columns: columns,
            rows: rows,
            cellAspect: cellAspect
        )
        return ArtKey(
            columns: fit.columns,
            rows: fit.rows,
            drawn: drawn(image, frame: frame, byIndex: byIndex),
            options: renderOptions
        )
    }

    /// Whether drawing `state` with frame `index` of its animation up
    /// would find that frame's art kept: the player then leaves the frame
    /// unfiltered (its pixels are not read). Never for pixels, a zoomed
    /// view or the gallery, nor for the first frame (`Drawn`).
    public func holdsFrame(_ index: Int, _ state: ScreenState, on terminal: Terminal) -> Bool {
        guard index > 0, ScreenView.framesByIndex(state), !showsPixels(state), let image = state.shownImage,
            let layout = Layout(columns: terminal.size.columns, rows: terminal.size.rows)
        else { return false }
        return drawCache.keptArts[
            artKey(image, columns: layout.columns, rows: layout.imageRows, frame: index, byIndex: true)
        ]
            != nil
    }

    /// What the caches tell `image` apart by, as frame `frame` (by
    /// default the one drawn), told apart `byIndex` or not (`Drawn`).
    func drawn(_ image: DecodedImage, frame: Int? = nil, byIndex: Bool? = nil) -> Drawn {
        let frame = frame ?? drawCache.shownFrame
        if byIndex ?? drawCache.framesByIndex, frame > 0 {
            return .frame(animation: drawCache.animationGeneration, index: frame)
        }
        return .pixels(image.pixmap.identity)
    }
}

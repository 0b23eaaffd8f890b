import BlockArt
import FoundationEssentials

/// Zoom and pan: keys, the wheel and a drag change the viewport, as pure
/// functions of the state and the geometry.
extension ScreenLogic {
    /// Handles an event if it zooms or pans: the new viewport, and
    /// `.view` for the screen to show it. nil: not a view event (the
    /// caller goes on), which `h` is at zoom 1 (help, as before), and
    /// every event while a box is open or with no image.
    static func handleView(_ event: InputEvent, _ state: inout ScreenState, geometry: ViewGeometry?) -> [Effect]? {
        guard state.overlay == nil, state.image != nil, let geometry else { return nil }
        let view = state.viewport
        let next: Viewport
        switch event {
        case let .key(key):
            guard let changed = viewKey(key, view, geometry) else { return nil }
            next = changed
        case let .wheel(up, row, column):
            let point =
                geometry.contains(row: row, column: column) ? geometry.sourcePoint(view, row: row, column: column) : nil
            next = geometry.zoomed(view, steps: up ? 1 : -1, about: point)
        case let .click(row, column) where geometry.contains(row: row, column: column):
            state.dragStart = (row, column)
            return []
        case let .release(row, column):
            guard let start = state.dragStart else { return nil }
            state.dragStart = nil
            let scale = Double(view.zoom) * geometry.fitScale
            // The picture follows the pointer: the view moves the other way.
            next = geometry.moved(
                view,
                byX: -Double(column - start.column) * geometry.cellWidth / scale,
                y: -Double(row - start.row) * geometry.cellHeight / scale
            )
        default:
            return nil
        }
        guard next != view else { return [] }
        state.viewport = next
        return [.view]
    }

    /// The viewport a key makes, or nil for a key that is not about the view.
    private static func viewKey(_ key: Key, _ view: Viewport, _ geometry: ViewGeometry) -> Viewport? {
        let quarter = ViewGeometry.panStep
        let command =
            view.isZoomed ? KeyTable.command(for: key, in: .zoomed, .view) : KeyTable.command(for: key, in: .view)
        switch command {
        case .zoomIn: return geometry.zoomed(view, steps: 1)
        case .zoomOut: return geometry.zoomed(view, steps: -1)
        case .fit: return Viewport()
        case .panLeft: return geometry.panned(view, across: -quarter, down: 0)
        case .panRight: return geometry.panned(view, across: quarter, down: 0)
        case .panUp: return geometry.panned(view, across: 0, down: -quarter)
        case .panDown: return geometry.panned(view, across: 0, down: quarter)
        default: return nil
        }
    }

    /// The picture for `region` from the pixels at hand, at once. Cut
    /// from the last sharp view's pixels where they cover the region at
    /// the scale `size` asks for, it is sharp (a pan inside their margin);
    /// else cut from the pixels that cover it, the fitted image's at
    /// worst, for the renderer to scale up. nil: no pixels.
    public static func preview(
        _ state: ScreenState,
        region: ImageRegion,
        size: PixelSize? = nil
    ) -> ScreenState.ZoomedPicture? {
        guard let image = state.image else { return nil }
        let info = region.info(image.info.format)
        var sharp = false
        var pixmap: Pixmap
        var bytes: PixelImage?
        if let pixels = state.viewPixels, pixels.source == state.imageSource, pixels.region.covers(region) {
            let cut = cut(pixels.pixels, pixels.region, to: region, size: size)
            sharp = size.map { cutsSharp(state, region: region, size: $0) } ?? false
            pixmap = cut.pixmap()
            if sharp, let size { pixmap = pixmap.resampled(width: size.width, height: size.height) }
            if sharp, cut.width == pixmap.width, cut.height == pixmap.height { bytes = cut }
        } else if let zoomed = state.zoomed, zoomed.region.covers(region) {
            pixmap = cut(zoomed.image.pixmap, zoomed.region, to: region)
        } else {
            let whole = ImageRegion(x: 0, y: 0, width: Double(image.info.width), height: Double(image.info.height))
            pixmap = cut(image.pixmap, whole, to: region)
        }
        return ScreenState.ZoomedPicture(
            image: DecodedImage(info: info, pixmap: pixmap),
            region: region,
            sharp: sharp,
            bytes: bytes
        )
    }

    /// Whether the last sharp view's pixels, of this picture, cover
    /// `region` with at least as many pixels per source pixel as `size`
    /// asks for (a hundredth spared for rounding): a view cut from them is sharp.
    public static func cutsSharp(_ state: ScreenState, region: ImageRegion, size: PixelSize) -> Bool {
        guard let pixels = state.viewPixels, pixels.source == state.imageSource else { return false }
        let have = scale(pixels.pixels.width, pixels.pixels.height, pixels.region)
        let need = scale(size.width, size.height, region)
        return pixels.region.covers(region) && have.x >= need.x * 0.99 && have.y >= need.y * 0.99
    }

    private static func scale(_ width: Int, _ height: Int, _ region: ImageRegion) -> (x: Double, y: Double) {
        (Double(width) / region.width, Double(height) / region.height)
    }

    /// `region` cut from `pixels` (which show `shown`). At the scale `size`
    /// asks for (within half a pixel), exactly `size` pixels, so that
    /// nothing is resampled; else the whole pixels the region touches.
    private static func cut(
        _ pixels: PixelImage,
        _ shown: ImageRegion,
        to region: ImageRegion,
        size: PixelSize?
    ) -> PixelImage {
        let have = scale(pixels.width, pixels.height, shown)
        if let size, size.width <= pixels.width, size.height <= pixels.height {
            let need = scale(size.width, size.height, region)
            // Within half a pixel over the whole view: the same scale.
            if abs(have.x - need.x) * region.width <= 0.5 && abs(have.y - need.y) * region.height <= 0.5 {
                let x = Int(((region.x - shown.x) * have.x).rounded())
                let y = Int(((region.y - shown.y) * have.y).rounded())
                return pixels.cropped(
                    x: min(x, pixels.width - size.width),
                    y: min(y, pixels.height - size.height),
                    width: size.width,
                    height: size.height
                )
            }
        }
        let span = touched(region, in: shown, width: pixels.width, height: pixels.height)
        return pixels.cropped(
            x: span.columns.lowerBound,
            y: span.rows.lowerBound,
            width: span.columns.count,
            height: span.rows.count
        )
    }

    /// The whole pixels of `pixmap` (which shows `shown`) that `region` touches.
    private static func cut(_ pixmap: Pixmap, _ shown: ImageRegion, to region: ImageRegion) -> Pixmap {
        let span = touched(region, in: shown, width: pixmap.width, height: pixmap.height)
        return pixmap.cropped(
            x: span.columns.lowerBound,
            y: span.rows.lowerBound,
            width: span.columns.count,
            height: span.rows.count
        )
    }

    /// The whole pixels `region` touches in a raster of `width` × `height` showing `shown`.
    private static func touched(
        _ region: ImageRegion,
        in shown: ImageRegion,
        width: Int,
        height: Int
    ) -> (columns: Range<Int>, rows: Range<Int>) {
        let relative = ImageRegion(
            x: region.x - shown.x,
            y: region.y - shown.y,
            width: region.width,
            height: region.height
        )
        let have = scale(width, height, shown)
        return relative.pixels(scaleX: have.x, scaleY: have.y, width: width, height: height)
    }

    /// The view of `region` goes on screen from the pixels at hand, at the
    /// scale `size` asks for. True: it is cut sharp from the last decode's
    /// pixels, and nothing need be decoded. Else they are scaled up, and
    /// then dropped before the next decode's come, so that two sets are
    /// never held at once.
    /// A zoomed view's decode is asked for: its number, which the result
    /// must carry to be shown (a newer key makes it stale).
    static func viewRequested(_ state: inout ScreenState) -> Int {
        state.viewRequests += 1
        return state.viewRequests
    }

    /// Whether a decoded view is still the one wanted: the newest asked
    /// for, of the region and picture on screen.
    static func wantsView(
        number: Int,
        region: ImageRegion,
        source: ScreenState.PictureSource,
        _ state: ScreenState
    ) -> Bool {
        number == state.viewRequests && state.zoomed?.region == region && state.imageSource == source
    }

    static func showPreview(region: ImageRegion, size: PixelSize, _ state: inout ScreenState) -> Bool {
        if cutsSharp(state, region: region, size: size) {
            // The view cut from them needs nothing of the last: it goes
            // first, so that two views' pixels are not held at once.
            state.zoomed = nil
            state.zoomed = preview(state, region: region, size: size)
            return true
        }
        state.zoomed = preview(state, region: region, size: size)
        state.viewPixels = nil
        return false
    }

    /// A view's sharp pixels came, decoded over `decoded` (its region and
    /// margin): kept for pans, and the view of `region` cut from them.
    static func viewDecoded(
        _ pixels: PixelImage,
        source: ScreenState.PictureSource,
        decoded: ImageRegion,
        region: ImageRegion,
        size: PixelSize,
        _ state: inout ScreenState
    ) {
        state.viewPixels = ScreenState.ViewPixels(source: source, region: decoded, pixels: pixels)
        state.zoomed = nil
        state.zoomed = preview(state, region: region, size: size)
    }
}

import BlockArt
import Foundation

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
            let point = geometry.contains(row: row, column: column) ? geometry.sourcePoint(view, row: row, column: column) : nil
            next = geometry.zoomed(view, steps: up ? 1 : -1, about: point)
        case let .click(row, column) where geometry.contains(row: row, column: column):
            state.dragStart = (row, column)
            return []
        case let .release(row, column):
            guard let start = state.dragStart else { return nil }
            state.dragStart = nil
            let scale = Double(view.zoom) * geometry.fitScale
            // The picture follows the pointer: the view moves the other way.
            next = geometry.moved(view, byX: -Double(column - start.column) * geometry.cellWidth / scale,
                                  y: -Double(row - start.row) * geometry.cellHeight / scale)
        default:
            return nil
        }
        guard next != view else { return [] }
        state.viewport = next
        return [.view]
    }

    /// The viewport a key makes, or nil for a key that is not about the view.
    private static func viewKey(_ key: Key, _ view: Viewport, _ geometry: ViewGeometry) -> Viewport? {
        let quarter = 0.25
        switch key {
        case .character("+"), .character("="): return geometry.zoomed(view, steps: 1)
        case .character("-"): return geometry.zoomed(view, steps: -1)
        case .character("0"): return Viewport()
        case .shiftLeft: return geometry.panned(view, across: -quarter, down: 0)
        case .shiftRight: return geometry.panned(view, across: quarter, down: 0)
        case .shiftUp: return geometry.panned(view, across: 0, down: -quarter)
        case .shiftDown: return geometry.panned(view, across: 0, down: quarter)
        // h j k l pan a zoomed view; at zoom 1, h stays help and j k do nothing.
        case .character("h") where view.isZoomed: return geometry.panned(view, across: -quarter, down: 0)
        case .character("l"): return geometry.panned(view, across: quarter, down: 0)
        case .character("k"): return geometry.panned(view, across: 0, down: -quarter)
        case .character("j"): return geometry.panned(view, across: 0, down: quarter)
        default: return nil
        }
    }

    /// The picture for `region` from the pixels at hand, at once: the
    /// sharp view's pixels if they cover the region, else the fitted
    /// image's, cropped (the renderer then scales them up). nil: no pixels.
    public static func preview(_ state: ScreenState, region: ImageRegion) -> ScreenState.ZoomedPicture? {
        guard let image = state.image else { return nil }
        let whole = ImageRegion(x: 0, y: 0, width: Double(image.info.width), height: Double(image.info.height))
        var from = (pixmap: image.pixmap, region: whole)
        if let zoomed = state.zoomed, zoomed.region.covers(region) { from = (zoomed.image.pixmap, zoomed.region) }
        let sx = Double(from.pixmap.width) / from.region.width, sy = Double(from.pixmap.height) / from.region.height
        let x0 = Int(((region.x - from.region.x) * sx).rounded(.down)), y0 = Int(((region.y - from.region.y) * sy).rounded(.down))
        let x1 = Int(((region.x + region.width - from.region.x) * sx).rounded(.up))
        let y1 = Int(((region.y + region.height - from.region.y) * sy).rounded(.up))
        let pixmap = from.pixmap.cropped(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
        return ScreenState.ZoomedPicture(image: DecodedImage(info: region.info(image.info.format), pixmap: pixmap), region: region, sharp: false)
    }
}

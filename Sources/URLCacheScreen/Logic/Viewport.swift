import BlockArt
import FoundationEssentials

/// What part of the image the screen shows: all of it fitted (zoom 1), or
/// a region `zoom` times as large as fitted, about a centre. Pure values:
/// the keys, the wheel, a drag and a resize each make a new one.
public struct Viewport: Equatable, Sendable {
    /// 1 shows the whole image fitted; N shows it N times as large.
    public var zoom = 1
    /// The view's centre in source pixels (x, y); nil: the image's centre.
    public var centre: SIMD2<Double>?

    public init() {}

    public var isZoomed: Bool { zoom > 1 }
}

/// The sizes a viewport is worked out against: the image, and the image
/// area in square units (screen pixels for pixels; for block art, cell
/// widths across and cell widths × height/width down), with the size of
/// the finest thing shown in those units (one pixel: 1; one sub-cell
/// sample of block art: 1/samples across).
public struct ViewGeometry: Equatable, Sendable {
    public var imageWidth: Int, imageHeight: Int
    public var areaWidth: Double, areaHeight: Double
    public var sampleSize: Double
    /// Where the area is on screen, and the units in one cell, for the
    /// mouse: the pointer's cell becomes a point of the area.
    public var top = 0
    public var cellWidth = 1.0, cellHeight = 2.0

    public init(imageWidth: Int, imageHeight: Int, areaWidth: Double, areaHeight: Double, sampleSize: Double) {
        self.imageWidth = max(1, imageWidth)
        self.imageHeight = max(1, imageHeight)
        self.areaWidth = max(1, areaWidth)
        self.areaHeight = max(1, areaHeight)
        self.sampleSize = sampleSize
    }

    /// The geometry of a `columns` × `rows` image area whose top row is
    /// `top`: in pixels of `cell` size, or in block art of `samples` per
    /// cell and `cellAspect` (a cell's width over its height).
    public static func area(
        image: SourceInfo,
        columns: Int,
        rows: Int,
        top: Int,
        pixels cell: PixelSize?,
        samples: (x: Int, y: Int),
        cellAspect: Double
    ) -> ViewGeometry {
        let (across, down) =
            cell.map { (Double(max(1, $0.width)), Double(max(1, $0.height))) } ?? (1, 1 / max(0.05, cellAspect))
        var geometry = ViewGeometry(
            imageWidth: image.width,
            imageHeight: image.height,
            areaWidth: Double(columns) * across,
            areaHeight: Double(rows) * down,
            sampleSize: cell == nil ? 1 / Double(max(1, samples.x)) : 1
        )
        geometry.top = top
        geometry.cellWidth = across
        geometry.cellHeight = down
        return geometry
    }

    /// Whether a cell is in the image area.
    public func contains(row: Int, column: Int) -> Bool {
        row >= top && Double(row - top) * cellHeight < areaHeight && column >= 0
            && Double(column) * cellWidth < areaWidth
    }

    /// The source point under the middle of a cell.
    public func sourcePoint(_ view: Viewport, row: Int, column: Int) -> (x: Double, y: Double) {
        sourcePoint(view, atAreaX: (Double(column) + 0.5) * cellWidth, y: (Double(row - top) + 0.5) * cellHeight)
    }

    /// Units per source pixel with the whole image fitted.
    public var fitScale: Double { min(areaWidth / Double(imageWidth), areaHeight / Double(imageHeight)) }

    /// The deepest zoom: the first power of two that shows one source
    /// pixel per pixel (or per sample of art), and one step beyond.
    public var maximumZoom: Int {
        var zoom = 1
        while Double(zoom) * fitScale < sampleSize && zoom < 1 << 16 { zoom *= 2 }
        return zoom * 2
    }

    /// The source region `view` shows: the area's shape at its zoom, no
    /// larger than the image, kept inside it.
    public func region(_ view: Viewport) -> ImageRegion {
        let scale = Double(view.zoom) * fitScale
        let width = min(Double(imageWidth), areaWidth / scale)
        let height = min(Double(imageHeight), areaHeight / scale)
        let centre = clampedCentre(view.centre, width: width, height: height)
        return ImageRegion(x: centre.x - width / 2, y: centre.y - height / 2, width: width, height: height)
    }

    /// How far a key pans: a quarter of the view.
    public static let panStep = 0.25

    /// `region` and a pan's step of its size on every side, inside the
    /// image: what a sharp view decodes, so that a pan in any direction is
    /// cut from the pixels at hand.
    public func withMargin(_ region: ImageRegion) -> ImageRegion {
        let (dx, dy) = (region.width * ViewGeometry.panStep, region.height * ViewGeometry.panStep)
        let x0 = max(0, region.x - dx)
        let y0 = max(0, region.y - dy)
        let x1 = min(Double(imageWidth), region.x + region.width + dx)
        let y1 = min(Double(imageHeight), region.y + region.height + dy)
        return ImageRegion(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// The source point under a point of the area (in its units, from
    /// its top left), where the region is drawn as large as fits, centred.
    public func sourcePoint(_ view: Viewport, atAreaX ux: Double, y uy: Double) -> (x: Double, y: Double) {
        let region = region(view)
        let scale = Double(view.zoom) * fitScale
        let left = (areaWidth - region.width * scale) / 2
        let top = (areaHeight - region.height * scale) / 2
        let x = region.x + (ux - left) / scale
        let y = region.y + (uy - top) / scale
        return (min(max(x, region.x), region.x + region.width), min(max(y, region.y), region.y + region.height))
    }

    /// `view` zoomed in (`steps` > 0) or out by factors of two, keeping
    /// the source point `about` (default: the view's centre) where it is on
    /// screen; zoom 1 forgets the centre.
    public func zoomed(_ view: Viewport, steps: Int, about point: (x: Double, y: Double)? = nil) -> Viewport {
        var zoom = view.zoom
        for _ in 0..<abs(steps) { zoom = steps > 0 ? min(maximumZoom, zoom * 2) : max(1, zoom / 2) }
        var next = Viewport()
        next.zoom = zoom
        guard zoom > 1 else { return next }
        let old = region(view)
        let centre = (x: old.x + old.width / 2, y: old.y + old.height / 2)
        let anchor = point ?? centre
        let ratio = Double(view.zoom) / Double(zoom)
        next.centre = SIMD2(anchor.x + (centre.x - anchor.x) * ratio, anchor.y + (centre.y - anchor.y) * ratio)
        return settled(next)
    }

    /// `view` moved by fractions of its own size (a quarter: 0.25), kept
    /// inside the image.
    public func panned(_ view: Viewport, across dx: Double, down dy: Double) -> Viewport {
        let old = region(view)
        return moved(view, byX: dx * old.width, y: dy * old.height)
    }

    /// `view` moved by source pixels (a drag), kept inside the image.
    public func moved(_ view: Viewport, byX dx: Double, y dy: Double) -> Viewport {
        guard view.isZoomed else { return view }
        let old = region(view)
        var next = view
        next.centre = SIMD2(old.x + old.width / 2 + dx, old.y + old.height / 2 + dy)
        return settled(next)
    }

    /// Where the view is, as people say it: "×4 · view at 38%, 61%" (the
    /// centre's place across and down the image); nil at zoom 1.
    public func describe(_ view: Viewport) -> String? {
        guard view.isZoomed else { return nil }
        let region = region(view)
        let across = Int(((region.x + region.width / 2) / Double(imageWidth) * 100).rounded())
        let down = Int(((region.y + region.height / 2) / Double(imageHeight) * 100).rounded())
        return "×\(view.zoom) · view at \(across)%, \(down)%"
    }

    /// The centre stored where the region can reach: a pan against an
    /// edge leaves nothing to undo.
    private func settled(_ view: Viewport) -> Viewport {
        let region = region(view)
        var next = view
        next.centre = SIMD2(region.x + region.width / 2, region.y + region.height / 2)
        return next
    }

    private func clampedCentre(_ centre: SIMD2<Double>?, width: Double, height: Double) -> (x: Double, y: Double) {
        let wanted = centre ?? SIMD2(Double(imageWidth) / 2, Double(imageHeight) / 2)
        return (
            min(max(wanted.x, width / 2), Double(imageWidth) - width / 2),
            min(max(wanted.y, height / 2), Double(imageHeight) - height / 2)
        )
    }
}

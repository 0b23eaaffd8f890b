import BlockArt
import FoundationEssentials
import URLCacheKit
import URLCacheSupport

#if canImport(Glibc)
import Glibc
#endif

/// Draws a `ScreenState` on a `Terminal`. It keeps the last rendered art so
/// that a spinner tick does not re-render the image; a new size or image does.
public final class ScreenView {
    public var renderOptions: RenderOptions
    public var cellAspect: Double
    /// How pictures are shown, as detection found the terminal.
    public var pictures = PictureSettings()
    /// What the view has drawn and keeps: the last art and picture, an
    /// animation's frames, the gallery's thumbnails, kitty's image ids.
    var drawCache = DrawCache()

    /// How pictures are shown, as detection found the terminal: set once.
    public struct PictureSettings: Sendable {
        /// How pictures are shown when the state asks for pixels
        /// (`.symbols`: never), with the sixel registers to use.
        public var format: PictureFormat = .symbols
        public var registers = SixelEncoder.defaultRegisters
        /// How pictures reach the terminal inside tmux (passthrough,
        /// kitty's placeholders) or not.
        public var route = PictureRoute.direct
        /// How kitty is given the pixels when they go straight to it.
        public var kittyMedium = KittyMedium.direct
        /// The terminal keeps an animation's frames and switches between
        /// them (kitty itself: Ghostty, WezTerm and Konsole draw its
        /// pictures but not all of its animations).
        public var kittyAnimates = false

        public init() {}
    }

    /// What the view has drawn and keeps between draws, in one place.
    struct DrawCache {
        /// The last art rendered, so that a spinner tick does not render again.
        var cached: FittedArt?
        var cachedPicture: FittedPicture?
        /// The frames of the animation playing, as drawn.
        var keptArts = KeptFrames<ArtKey, FittedArt>()
        var keptPictures = KeptFrames<PictureKey, FittedPicture>()
        /// An animation is on screen (not the gallery): its frames are kept.
        var animating = false
        /// The animation frame drawn (0 for a still).
        var shownFrame = 0
        /// The frames in a loop of the animation drawn, where known.
        var animationFrames: Int?
        /// The animation drawn is neither zoomed nor under the gallery: its
        /// frames are told apart by index (`Drawn`).
        var framesByIndex = false
        /// Counts the animations opened, so that no frame of one is taken
        /// for the same frame of the next.
        var animationGeneration = 0
        /// The kitty image that keeps the animation's frames, and the
        /// placement they are made for (`FrameCompositor.KittyFrames`).
        var framesImage: (placement: PixelPlacement, id: UInt32)?
        /// Each new picture gets a new kitty image id.
        var nextPictureID: UInt32 = 1
        /// Spreads placeholder ids between processes (one kitty window holds
        /// the images of every pane in tmux).
        let idSeed = UInt32(truncatingIfNeeded: getpid()) &* 7919

        /// The gallery's thumbnails as drawn, by tile: only the tiles on screen.
        var thumbnails = Thumbnails()
    }

    /// Drawn thumbnails, by tile.
    struct Thumbnails {
        var arts: [Int: FittedArt] = [:]
        var pictures: [Int: FittedPicture] = [:]
    }

    /// Art rendered for a box, and what it was rendered from.
    struct FittedArt {
        var key: ArtKey
        var grid: CellGrid
    }

    struct ArtKey: Hashable {
        var columns: Int, rows: Int
        var drawn: Drawn
        var options: RenderOptions
    }

    /// What the art and the pictures are made from. A frame after the
    /// first of the animation playing (neither zoomed nor under the
    /// gallery) is its number in that animation: its art can be found
    /// before its pixels are made (`holdsFrame`). Anything else, a still,
    /// the first frame, a zoomed view or a thumbnail, is its pixels.
    enum Drawn: Hashable {
        case pixels(Pixmap.Identity)
        case frame(animation: Int, index: Int)
    }

    public init(renderOptions: RenderOptions, cellAspect: Double) {
        self.renderOptions = renderOptions
        self.cellAspect = cellAspect
    }

    static let spinner: [Character] = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]
    /// Seconds a spinner frame stays: eight frames a second.
    public static let spinnerPeriod: TimeInterval = 0.125

    /// Draws everything; `now` drives the spinner and the rate.
    public func draw(_ state: ScreenState, on terminal: Terminal, now: Date) {
        noteFrame(state)
        if state.playback == nil {
            drawCache.keptArts.removeAll()
            drawCache.keptPictures.removeAll()
        }
        let size = terminal.size
        terminal.erase()
        guard let layout = Layout(columns: size.columns, rows: size.rows) else {
            let message = "Terminal too small (need \(Layout.minimum.columns)×\(Layout.minimum.rows))"
            terminal.put(
                message.prefix(columns: size.columns),
                row: size.rows / 2,
                column: max(0, (size.columns - message.columns) / 2),
                style: .bold
            )
            terminal.refresh()
            return
        }
        drawTitle(state, layout, terminal)
        if let gallery = state.gallery {
            drawGallery(gallery, state, layout, terminal)
        } else if let image = state.shownImage {
            switch shown(image, state, layout, terminal) {
            case let .picture(picture, placement):
                terminal.put(picture, row: layout.imageTop + placement.rowOffset, column: placement.columnOffset)
            case let .art(grid, top, left):
                terminal.put(grid, row: top, column: left)
            }
        }
        drawStatus(state, layout, terminal, now: now)
        // While the bundled picture is shown this line says so, whatever the
        // status line says (a spinner, an error).
        let updated =
            state.gallery.map(ScreenView.updatedLine) ?? "Updated: "
            + (state.isBundled
                ? ScreenView.neverBundled
                : state.updated.map(UpdatedFormat.string)
                    ?? (state.fieldsCleared || state.loading != nil ? "" : "never"))
        terminal.put(clip(updated, layout.columns - 2), row: layout.updatedRow, column: 1, style: .plain)
        // Under the server's rules the wait is what its headers said, capped by the interval.
        let interval = ScreenView.describe(state.refreshInterval)
        let wait = state.rule.followsServer ? "the server's freshness time (at most \(interval))" : interval
        for (i, line) in Layout.infoText(interval: wait, width: layout.columns - 2).prefix(layout.infoLines)
            .enumerated()
        {
            terminal.put(line, row: layout.infoRow + i, column: 1, style: .dim)
        }
        let toolbar = Toolbar(width: layout.columns)
        for item in toolbar.items {
            terminal.put(
                item.text,
                row: layout.toolbarRow,
                column: item.column,
                style: state.loading != nil && item.button != .quit ? .dim : .reverse
            )
        }
        if let box = state.box(in: layout) { drawOverlay(box, terminal) }
        terminal.refresh()
    }

    /// Draws nothing: makes ready the art or picture that drawing `state`
    /// would show, so that the draw, when it is due, only writes it (an
    /// animation's next frame, rendered while the one before is up).
    public func prepare(_ state: ScreenState, on terminal: Terminal) {
        noteFrame(state)
        guard state.gallery == nil, let image = state.shownImage,
            let layout = Layout(columns: terminal.size.columns, rows: terminal.size.rows)
        else { return }
        _ = shown(image, state, layout, terminal)
    }

    /// The image as it goes on screen: in pixels where they are shown and
    /// it encodes, else in art.
    private enum Shown {
        case picture(PixelPicture, PixelPlacement)
        case art(CellGrid, top: Int, left: Int)
    }

    private func shown(_ image: DecodedImage, _ state: ScreenState, _ layout: Layout, _ terminal: Terminal) -> Shown {
        if showsPixels(state),
            let (picture, placement) = picture(
                image,
                bytes: state.shownBytes,
                layout,
                cell: terminal.cellPixels,
                held: terminal.kittyFrames
            )
        {
            return .picture(picture, placement)
        }
        let (grid, top, left) = art(image, layout)
        return .art(grid, top: top, left: left)
    }

    /// Which frame `state` shows, and whether frames are kept: the caches
    /// tell frames apart by it. The gallery's thumbnails are no frames (a
    /// still is drawn as frame 0).
    private func noteFrame(_ state: ScreenState) {
        drawCache.shownFrame = state.gallery == nil ? state.playback?.frame ?? 0 : 0
        drawCache.animating = state.gallery == nil && state.playback != nil
        // A zoomed view is a still of the first frame (its pixels are
        // the view's, not the frame's): no frames for kitty to keep.
        drawCache.animationFrames = drawCache.animating && !state.viewport.isZoomed ? state.playback?.frames : nil
        drawCache.framesByIndex = ScreenView.framesByIndex(state)
    }

    /// Whether `state`'s animation frames are told apart by index: one
    /// plays, neither zoomed nor under the gallery (`Drawn`).
    static func framesByIndex(_ state: ScreenState) -> Bool {
        state.gallery == nil && state.playback != nil && !state.viewport.isZoomed
    }

    /// Whether `state` is drawn in pixels where they encode (else art).
    func showsPixels(_ state: ScreenState) -> Bool {
        state.showPixels && pictures.format.isPixels
    }

    /// The zoom's geometry for the image on screen, as it is drawn now
    /// (pixels or block art); nil with no image.
    public func geometry(_ state: ScreenState, _ layout: Layout, cell: PixelSize) -> ViewGeometry? {
        guard let image = state.image else { return nil }
        let pixels = showsPixels(state) ? cell : nil
        return ViewGeometry.area(
            image: image.info,
            columns: layout.columns,
            rows: layout.imageRows,
            top: layout.imageTop,
            pixels: pixels,
            samples: Renderer.samples(renderOptions.symbols),
            cellAspect: cellAspect
        )
    }
}

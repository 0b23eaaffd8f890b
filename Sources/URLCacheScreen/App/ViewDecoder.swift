import BlockArt
import FoundationEssentials
import Synchronization
import URLCacheKit
import URLCacheSupport

/// Decodes zoomed views on a thread of its own, so keys never wait for a
/// decode. Only the newest request matters: one asked for while another
/// decodes replaces any still waiting, and the screen drops a result a
/// newer key made stale (its generation is not the latest).
final class ViewDecoder: Sendable {
    /// A view to decode.
    struct Request: Sendable {
        /// Counts the screen's requests: the newest is the one wanted.
        var generation: Int
        var source: ScreenState.PictureSource
        /// The view's region and its size on screen, and what is decoded:
        /// the region with its margin, `size` pixels, at the view's scale.
        var region: ImageRegion
        var shown: PixelSize
        var decoded: ImageRegion
        var size: PixelSize
    }

    /// A decoded view, and how long its decode took (for the log and
    /// `Benchmarks/zoom.sh`).
    struct Result: Sendable {
        var request: Request
        /// In sRGB bytes, converted on the decoder's thread, so that the
        /// floats are gone before the screen takes the pixels.
        var image: Swift.Result<PixelImage, DecodeError>
        var seconds: Double
    }

    private struct State {
        var pending: Request?
        var result: Result?
        var running = false
    }

    private let state = Mutex(State())
    private let context: DecodeContext

    init(_ context: DecodeContext) { self.context = context }

    /// Asks for a view; a request still waiting is replaced.
    func request(_ request: Request) {
        let start = state.withLock { state -> Bool in
            state.pending = request
            guard !state.running else { return false }
            state.running = true
            return true
        }
        guard start else { return }
        DetachedThread.start(stackSize: 4 << 20) { [self] in work() }
    }

    /// The newest decoded view, once.
    func take() -> Result? {
        state.withLock { state in
            defer { state.result = nil }
            return state.result
        }
    }

    /// Decodes requests until none waits.
    private func work() {
        while let request = state.withLock({ state -> Request? in
            defer { state.pending = nil }
            if state.pending == nil { state.running = false }
            return state.pending
        }) {
            let started = Date()
            let image = Swift.Result { () throws(DecodeError) -> PixelImage in
                let size = request.size
                return try request.source.decode(context, region: request.decoded, size: { _ in size }).image.pixmap
                    .pixelImage()
            }
            let result = Result(request: request, image: image, seconds: Date().timeIntervalSince(started))
            state.withLock { $0.result = result }
            context.wakeups.wake()
        }
    }
}

/// The screen's side of zoomed views: the request sent, the pixels at
/// hand shown while it decodes (the state counts the requests), and the
/// log's word on each.
struct ZoomedViews {
    private let decoder: ViewDecoder
    /// When the newest view was asked for (its key), and, once its sharp
    /// pixels are in, its decode's time: the log then says how long the
    /// key took to its sharp view, drawn (`Benchmarks/zoom.sh` reads it).
    private var asked = Date()
    private var decodeToLog: Double?

    init(decoder: ViewDecoder) { self.decoder = decoder }

    /// The viewport's region, if it is not what is on screen: cut sharp
    /// from the pixels at hand where they have it (a pan inside the last
    /// decode's margin); else those pixels scaled up at once, and the
    /// region with its margin asked for, at the scale `size` picks for it.
    mutating func show(
        _ state: inout ScreenState,
        geometry: ViewGeometry,
        log: Log,
        size: @escaping @Sendable (SourceInfo) -> PixelSize
    ) {
        let region = geometry.region(state.viewport)
        guard state.zoomed?.region != region, let format = state.image?.info.format else { return }
        let wanted = size(region.info(format))
        asked = Date()
        if ScreenLogic.showPreview(region: region, size: wanted, &state) {
            log.write(
                CFormat.string(
                    "view %.1f,%.1f %.1fx%.1f cut from the pixels at hand",
                    region.x,
                    region.y,
                    region.width,
                    region.height
                )
            )
            decodeToLog = 0
            return
        }
        guard let source = state.imageSource else { return }
        let generation = ScreenLogic.viewRequested(&state)
        let scale = (x: Double(wanted.width) / region.width, y: Double(wanted.height) / region.height)
        func pixels(_ r: ImageRegion) -> PixelSize {
            PixelSize(
                width: max(1, Int((r.width * scale.x).rounded())),
                height: max(1, Int((r.height * scale.y).rounded()))
            )
        }
        // A large window's margin would cost more than its pans save: past
        // `marginPixels`, the view alone is decoded, as it was before margins.
        var decoded = geometry.withMargin(region)
        if pixels(decoded).width * pixels(decoded).height > ZoomedViews.marginPixels { decoded = region }
        // Logged when asked, not only when decoded: a key that comes before
        // the decode drops it, and the view was still the one on screen.
        log.write(
            CFormat.string(
                "view %.1f,%.1f %.1fx%.1f asked, shown scaled up until decoded",
                region.x,
                region.y,
                region.width,
                region.height
            )
        )
        decoder.request(
            ViewDecoder.Request(
                generation: generation,
                source: source,
                region: region,
                shown: wanted,
                decoded: decoded,
                size: pixels(decoded)
            )
        )
    }

    /// The most pixels a view and its margin are decoded at: 160×48 cells
    /// of 8×17 (2.15 million with the margin) have one; a 4K window's
    /// 3840×2160 (8.3 million, 100 MB of floats while decoded) has none.
    static let marginPixels = 4_000_000

    /// The sharp view, if it came and is still the one wanted: whether
    /// the screen changed.
    mutating func take(_ state: inout ScreenState, log: Log) -> Bool {
        guard let result = decoder.take() else { return false }
        let request = result.request
        let wanted = ScreenLogic.wantsView(
            number: request.generation,
            region: request.region,
            source: request.source,
            state
        )
        let (r, d) = (request.region, request.decoded)
        log.write(
            CFormat.string(
                "view %.1f,%.1f %.1fx%.1f decoded in %.1f ms with its margin (%.1f,%.1f %.1fx%.1f)",
                r.x,
                r.y,
                r.width,
                r.height,
                result.seconds * 1000,
                d.x,
                d.y,
                d.width,
                d.height
            ) + (wanted ? "" : " (stale: dropped)")
        )
        guard wanted else { return false }
        switch result.image {
        case let .success(decoded):
            ScreenLogic.viewDecoded(decoded, source: request.source, decoded: d, region: r, size: request.shown, &state)
            decodeToLog = result.seconds
        case let .failure(error):
            log.write("view decode failed: \(error)")
        }
        return true
    }

    /// After a draw: the key-to-sharp-view time, once its sharp view is drawn.
    mutating func drawn(log: Log) {
        guard let decode = decodeToLog else { return }
        log.write(
            CFormat.string(
                "view shown %.1f ms after the key (decode %.1f ms)",
                Date().timeIntervalSince(asked) * 1000,
                decode * 1000
            )
        )
        decodeToLog = nil
    }
}

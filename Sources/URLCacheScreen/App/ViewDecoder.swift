import BlockArt
import Foundation
import Synchronization
import URLCacheKit

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
        var region: ImageRegion
        var size: @Sendable (SourceInfo) -> (width: Int, height: Int)
    }

    /// A decoded view, and how long its decode took (for the log and
    /// `Benchmarks/zoom.sh`).
    struct Result: Sendable {
        var generation: Int
        var source: ScreenState.PictureSource
        var region: ImageRegion
        var image: Swift.Result<DecodedImage, DecodeError>
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
        let thread = Thread { [self] in work() }
        thread.stackSize = 4 << 20
        thread.start()
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
            let image = Swift.Result { () throws(DecodeError) -> DecodedImage in
                try request.source.decode(context, region: request.region, size: request.size)
            }
            let result = Result(generation: request.generation, source: request.source, region: request.region, image: image,
                                seconds: Date().timeIntervalSince(started))
            state.withLock { $0.result = result }
            context.wakeups.wake()
        }
    }
}

/// What the screen's decoding threads share: the background under
/// transparency, the renderer's samples per cell, and the pipe that wakes
/// the key loop when a decode is done.
struct DecodeContext: Sendable {
    var background: RGB8
    var samples: (x: Int, y: Int)
    var wakeups: WakePipe
}

extension ScreenState.PictureSource {
    /// The picture decoded again from where it came from (a region of it,
    /// or all), at the size `size` picks: the zoom's and the gallery's decodes.
    func decode(_ context: DecodeContext, region: ImageRegion? = nil,
                size: @escaping @Sendable (SourceInfo) -> (width: Int, height: Int)) throws(DecodeError) -> DecodedImage {
        let (background, samples) = (context.background, context.samples)
        switch self {
        case let .file(path):
            return try ImageDecoder.decode(path: path, background: background, samples: samples, region: region, size: size)
        case let .bundled(url):
            guard let bytes = BundledImage.bytes(for: url) else { throw .unsupportedFormat("no bundled picture") }
            return try ImageDecoder.decode(bytes: bytes, background: background, samples: samples, region: region, size: size)
        }
    }
}

/// The screen's side of zoomed views: which request is the newest, the
/// pixels at hand shown while it decodes, and the log's word on each.
struct ZoomedViews {
    private let decoder: ViewDecoder
    /// Counts requests: a result for an older one is dropped.
    private var generation = 0
    /// When the newest view was asked for (its key), and, once its sharp
    /// pixels are in, its decode's time: the log then says how long the
    /// key took to its sharp view, drawn (`Benchmarks/zoom.sh` reads it).
    private var asked = Date()
    private var decodeToLog: Double?

    init(decoder: ViewDecoder) { self.decoder = decoder }

    /// The viewport's region, if it is not what is on screen: the pixels
    /// at hand scaled up at once, and the sharp region asked for.
    mutating func show(_ state: inout ScreenState, geometry: ViewGeometry,
                       size: @escaping @Sendable (SourceInfo) -> (width: Int, height: Int)) {
        let region = geometry.region(state.viewport)
        guard state.zoomed?.region != region else { return }
        state.zoomed = ScreenLogic.preview(state, region: region)
        guard let source = state.imageSource else { return }
        generation += 1
        asked = Date()
        decoder.request(ViewDecoder.Request(generation: generation, source: source, region: region, size: size))
    }

    /// The sharp view, if it came and is still the one wanted: whether
    /// the screen changed.
    mutating func take(_ state: inout ScreenState, log: Log) -> Bool {
        guard let result = decoder.take() else { return false }
        let wanted = result.generation == generation && state.zoomed?.region == result.region && state.imageSource == result.source
        let r = result.region
        log.write(String(format: "view %.1f,%.1f %.1fx%.1f decoded in %.1f ms%@", r.x, r.y, r.width, r.height, result.seconds * 1000,
                         wanted ? "" : " (stale: dropped)"))
        guard wanted else { return false }
        switch result.image {
        case let .success(decoded):
            state.zoomed = ScreenState.ZoomedPicture(image: decoded, region: r, sharp: true)
            decodeToLog = result.seconds
        case let .failure(error):
            log.write("view decode failed: \(error)")
        }
        return true
    }

    /// After a draw: the key-to-sharp-view time, once its sharp view is drawn.
    mutating func drawn(log: Log) {
        guard let decode = decodeToLog else { return }
        log.write(String(format: "view shown %.1f ms after the key (decode %.1f ms)", Date().timeIntervalSince(asked) * 1000, decode * 1000))
        decodeToLog = nil
    }
}

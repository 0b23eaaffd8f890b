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
        var background: RGB8
        var samples: (x: Int, y: Int)
        var size: @Sendable (SourceInfo) -> (width: Int, height: Int)
    }

    /// A decoded view, and how long its decode took (for the log and
    /// `Benchmarks/zoom.sh`).
    struct Result: Sendable {
        var generation: Int
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
    private let wakeups: WakePipe

    init(wakeups: WakePipe) { self.wakeups = wakeups }

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
                switch request.source {
                case let .file(path):
                    return try ImageDecoder.decode(path: path, background: request.background, samples: request.samples,
                                                   region: request.region, size: request.size)
                case let .bundled(url):
                    guard let bytes = BundledImage.bytes(for: url) else { throw .unsupportedFormat("no bundled picture") }
                    return try ImageDecoder.decode(bytes: bytes, background: request.background, samples: request.samples,
                                                   region: request.region, size: request.size)
                }
            }
            let result = Result(generation: request.generation, region: request.region, image: image,
                                seconds: Date().timeIntervalSince(started))
            state.withLock { $0.result = result }
            wakeups.wake()
        }
    }
}

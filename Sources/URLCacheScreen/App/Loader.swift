import BlockArt
import Foundation
import Synchronization
import URLCacheKit

/// Runs Display Image and the decoding on another thread, so the screen
/// keeps reading keys. The two threads share one `Mutex`-guarded state.
final class Loader: Sendable {
    /// What a finished load hands back.
    struct Result: Sendable {
        /// What Display Image did; nil for a decode again at a new size,
        /// where nothing was checked.
        var report: DisplayReport?
        var image: Swift.Result<DecodedImage, DecodeError>?
        var automatic: Bool
        var index: Int
    }

    private struct State {
        var progress: TransferProgress?
        var waiting: ScreenState.Waiting?
        var cancelled = false
        var result: Result?
        /// The bundled picture, decoded while the check goes on.
        var bundled: (image: DecodedImage, index: Int)?
        var running = false
        /// When progress last woke the screen.
        var lastWake = Date.distantPast
    }

    private let state = Mutex(State())
    /// Woken on progress (at most ten times a second) and on the result.
    private let wakeups: WakePipe

    init(wakeups: WakePipe) { self.wakeups = wakeups }

    /// Whether a load is under way.
    var running: Bool { state.withLock { $0.running } }

    /// Starts a load; `decodeSize` picks the pixmap size from the source's,
    /// and `samples` is passed on to the decoder. With `offerBundled` and
    /// nothing cached, the picture the binary carries for the entry, if
    /// any, is decoded and handed over first (`takeBundled`), while the
    /// check goes on.
    /// With `check` false, nothing is asked of the network: the cached copy
    /// (or the file at `path`: a kept earlier image) is decoded again.
    func start(controller: URLCacheController, entry: URLEntry, check: Bool, force: Bool, automatic: Bool, index: Int,
               background: RGB8, samples: (x: Int, y: Int), offerBundled: Bool,
               decodeSize: @escaping @Sendable (SourceInfo) -> (width: Int, height: Int), path: String? = nil) {
        state.withLock { $0 = State(running: true) }
        let url = entry.url
        let thread = Thread { [self] in
            // Looked for here, not on the screen's thread: the cached start
            // never reads the built-in list a second time.
            if offerBundled, (try? controller.cache.lookup(url)) ?? nil == nil, let bundled = BundledImage.bytes(for: url),
               let image = try? ImageDecoder.decode(bytes: bundled, background: background, samples: samples, size: decodeSize) {
                state.withLock { $0.bundled = (image, index) }
                wakeups.wake()
            }
            let observer = FetchObserver(
                progress: { [self] p in
                    let wake = state.withLock { state in
                        state.progress = p
                        state.waiting = nil
                        guard Date().timeIntervalSince(state.lastWake) >= 0.1 else { return false }
                        state.lastWake = Date()
                        return true
                    }
                    if wake { wakeups.wake() }
                },
                isCancelled: { [self] in state.withLock { $0.cancelled } },
                waiting: { [self] pid in
                    state.withLock { $0.waiting = ScreenState.Waiting(pid: pid) }
                    wakeups.wake()
                })
            let report = check ? controller.display(entry, force: force, observer: observer) : nil
            let copy = check ? report?.copy : (try? controller.cache.lookup(url)) ?? nil
            var image: Swift.Result<DecodedImage, DecodeError>?
            if let file = path ?? copy?.imagePath {
                image = Swift.Result { () throws(DecodeError) in
                    try ImageDecoder.decode(path: file, background: background, samples: samples, size: decodeSize)
                }
            }
            state.withLock {
                $0.result = Result(report: report, image: image, automatic: automatic, index: index)
                $0.running = false
            }
            wakeups.wake()
        }
        thread.stackSize = 4 << 20
        thread.start()
    }

    func cancel() { state.withLock { $0.cancelled = true } }

    /// How far the load has come, and whom it waits for while another
    /// process holds the entry: one look under the lock.
    var current: (progress: TransferProgress?, waiting: ScreenState.Waiting?) {
        state.withLock { ($0.progress, $0.waiting) }
    }

    /// The bundled picture and the entry it is for, once.
    func takeBundled() -> (image: DecodedImage, index: Int)? {
        state.withLock { state in
            defer { state.bundled = nil }
            return state.bundled
        }
    }

    /// The finished load, once (nil while running).
    func takeResult() -> Result? {
        state.withLock { state in
            defer { state.result = nil }
            return state.result
        }
    }
}

import BlockArt
import FoundationEssentials
import Synchronization
import URLCacheKit
import URLCacheSupport

/// Decodes the gallery's thumbnails off the key loop, each at its picture
/// box's size, on at most two threads (this is a two-core machine's worth:
/// more would only take the key loop's share). The grid fills in as they come.
final class ThumbnailDecoder: Sendable {
    /// A thumbnail to decode: the file and the box, and the pixmap size
    /// the box needs for a source of a given size.
    struct Job: Sendable {
        var key: Gallery.ThumbnailKey
        /// Where its pixels are: a cached file, or the bundled picture.
        var source: ScreenState.PictureSource
        var size: @Sendable (SourceInfo) -> PixelSize
    }

    private struct State {
        var queue: [Job] = []
        /// Asked for and not yet taken: never asked for twice.
        var pending: Set<Gallery.ThumbnailKey> = []
        var done: [Gallery.Thumbnail] = []
        var workers = 0
    }

    static let maximumWorkers = 2
    private let state = Mutex(State())
    private let context: DecodeContext

    init(_ context: DecodeContext) { self.context = context }

    /// Asks for thumbnails, in the order given (the tiles on screen first);
    /// those already asked for are left as they are.
    func request(_ jobs: [Job]) {
        let start = state.withLock { state -> Int in
            for job in jobs where !state.pending.contains(job.key) {
                state.pending.insert(job.key)
                state.queue.append(job)
            }
            let more = min(ThumbnailDecoder.maximumWorkers - state.workers, state.queue.count)
            state.workers += max(0, more)
            return max(0, more)
        }
        for _ in 0..<start {
            DetachedThread.start(stackSize: 4 << 20) { [self] in work() }
        }
    }

    /// The gallery closed: what waits is not decoded (a decode under way
    /// finishes, and is dropped when taken).
    func cancel() {
        state.withLock { state in
            for job in state.queue { state.pending.remove(job.key) }
            state.queue.removeAll()
        }
    }

    /// The thumbnails decoded since the last call.
    func take() -> [Gallery.Thumbnail] {
        state.withLock { state in
            defer { state.done.removeAll() }
            for thumbnail in state.done { state.pending.remove(thumbnail.key) }
            return state.done
        }
    }

    /// A worker: jobs until the queue is empty.
    private func work() {
        while let job = state.withLock({ state -> Job? in
            guard !state.queue.isEmpty else {
                state.workers -= 1
                return nil
            }
            return state.queue.removeFirst()
        }) {
            let image = try? job.source.decode(context, size: job.size).image
            state.withLock { $0.done.append(Gallery.Thumbnail(key: job.key, image: image)) }
            context.wakeups.wake()
        }
    }
}

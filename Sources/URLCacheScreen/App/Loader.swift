import BlockArt
import FoundationEssentials
import Synchronization
import URLCacheKit
import URLCacheSupport

/// Runs Display Image and the decoding on another thread, so the screen
/// keeps reading keys. The two threads share one `Mutex`-guarded state.
final class Loader: Sendable {
    /// What a finished load hands back.
    struct Result: Sendable {
        /// What Display Image did; nil for a decode again at a new size,
        /// where nothing was checked.
        var report: DisplayReport?
        var image: Swift.Result<DecodedImage, DecodeError>?
        /// `image`'s art, when it was made as the rows came (`DecodeTarget`).
        var art: PlannedArt?
        var automatic: Bool
        var index: Int
        /// The file `image` was decoded from.
        var path: String?
    }

    /// A picture to show while the check goes on.
    enum Early: Sendable {
        /// The picture the binary carries, when nothing is cached.
        case bundled(DecodedImage)
        /// The cached copy, inside its `stale-while-revalidate` window.
        case revalidating(DecodedImage, CachedCopy)
    }

    private struct State {
        var progress: TransferProgress?
        var waiting: ScreenState.Waiting?
        var cancelled = false
        var result: Result?
        /// A picture decoded while the check goes on.
        var early: (picture: Early, index: Int)?
        var running = false
        /// When progress last woke the screen.
        var lastWake = Date.distantPast
    }

    private let state = Mutex(State())
    /// How pictures are decoded, and the pipe woken on progress (at most
    /// ten times a second) and on the result.
    private let context: DecodeContext
    /// The screen's controller: its `offline` is the one thing a load sets.
    private let controller: URLCacheController
    private var wakeups: WakePipe { context.wakeups }

    init(_ context: DecodeContext, controller: URLCacheController) {
        self.context = context
        self.controller = controller
    }

    /// Whether a load is under way.
    var running: Bool { state.withLock { $0.running } }

    /// Starts `request` for `entry` (number `index` of the list) on a thread
    /// of its own; `target` picks the pixmap size from the source's, and
    /// the art to make with it; `size` is which size a check takes of a
    /// picture offered in several.
    func start(
        _ request: LoadRequest,
        entry: URLEntry,
        index: Int,
        target: DecodeTarget,
        size ask: SizeAsk = .largest
    ) {
        state.withLock { $0 = State(running: true) }
        DetachedThread.start(stackSize: 4 << 20) { [self] in
            let result = load(request, entry: entry, index: index, target: target, ask: ask)
            state.withLock {
                $0.result = result
                $0.running = false
            }
            wakeups.wake()
        }
    }

    /// What the loader's thread does for `request`.
    private func load(
        _ request: LoadRequest,
        entry: URLEntry,
        index: Int,
        target: DecodeTarget,
        ask: SizeAsk
    ) -> Result {
        guard case let .display(force, automatic, offline, offerEarly) = request else {
            // No check: the kept file `[` chose, or the cached copy again.
            var path: String?
            if case let .keptImage(kept) = request {
                path = kept
            } else {
                path = ((try? controller.cache.lookup(entry.url)) ?? nil)?.imagePath
            }
            let (image, art) = decode(path, target)
            return Result(report: nil, image: image, art: art, automatic: true, index: index, path: path)
        }
        var controller = self.controller
        controller.offline = offline
        // Looked for here, not on the screen's thread: the cached start
        // never reads the built-in list a second time.
        let early =
            offerEarly ? Loader.early(controller, entry, force: force, context: context, size: target.size) : nil
        if let early {
            state.withLock { $0.early = (early, index) }
            wakeups.wake()
        }
        // The copy drawn early, while its file is the one still there (a
        // 304 or a failed check leaves it), is not decoded again.
        var drawn: (image: DecodedImage, path: String, file: Int)?
        if case let .revalidating(image, copy)? = early, let file = Loader.fileNumber(copy.imagePath) {
            drawn = (image, copy.imagePath, file)
        }
        let report = controller.display(entry, force: force, automatic: automatic, size: ask, observer: observer())
        if let drawn, report.copy?.imagePath == drawn.path, Loader.fileNumber(drawn.path) == drawn.file {
            return Result(
                report: report,
                image: .success(drawn.image),
                automatic: automatic,
                index: index,
                path: drawn.path
            )
        }
        let path = report.copy?.imagePath
        let (image, art) = decode(path, target)
        return Result(report: report, image: image, art: art, automatic: automatic, index: index, path: path)
    }

    /// The file at `path` decoded, if there is one, and its art if made.
    private func decode(
        _ path: String?,
        _ target: DecodeTarget
    ) -> (Swift.Result<DecodedImage, DecodeError>?, PlannedArt?) {
        guard let path else { return (nil, nil) }
        do {
            let (image, art) = try ScreenState.PictureSource.file(path).decode(
                context,
                size: target.size,
                art: target.art
            )
            return (.success(image), art)
        } catch {
            return (.failure(error), nil)
        }
    }

    /// Progress, cancellation and the wait for another process, through
    /// the shared state.
    private func observer() -> FetchObserver {
        FetchObserver(
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
            }
        )
    }

    func cancel() { state.withLock { $0.cancelled = true } }

    /// How far the load has come, and whom it waits for while another
    /// process holds the entry: one look under the lock.
    var current: (progress: TransferProgress?, waiting: ScreenState.Waiting?) {
        state.withLock { ($0.progress, $0.waiting) }
    }

    /// The picture shown while the check goes on, and the entry it is
    /// for, once.
    func takeEarly() -> (picture: Early, index: Int)? {
        state.withLock { state in
            defer { state.early = nil }
            return state.early
        }
    }

    /// The file's inode: a new image is renamed into place, so it changes;
    /// a check that finds the image current only touches its time.
    private static func fileNumber(_ path: String) -> Int? {
        (try? FileManager.default.attributesOfItem(atPath: path))?[.systemFileNumber] as? Int
    }

    /// What to show before the check ends: the bundled picture with
    /// nothing cached; the copy while the policy says it may be shown
    /// unchecked (RFC 5861); else nothing (the check's result comes first).
    private static func early(
        _ controller: URLCacheController,
        _ entry: URLEntry,
        force: Bool,
        context: DecodeContext,
        size: @escaping @Sendable (SourceInfo) -> PixelSize
    ) -> Early? {
        guard let copy = (try? controller.cache.lookup(entry.url)) ?? nil else {
            return (try? ScreenState.PictureSource.bundled(entry.url).decode(context, size: size).image).map(
                Early.bundled
            )
        }
        guard !force, case .revalidating = controller.rule(for: entry).standing(copy, now: Date()) else { return nil }
        return (try? ScreenState.PictureSource.file(copy.imagePath).decode(context, size: size).image).map {
            .revalidating($0, copy)
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

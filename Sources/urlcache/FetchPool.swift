import Dispatch
import FoundationEssentials
import Synchronization
import URLCacheKit
import URLCacheSupport

/// Display Image for many entries, `inFlight` at a time (each check on a
/// thread of its own; two of one entry wait for each other on its lock):
/// `fetch --all`'s checks, and a single check of `fetch` or `render`.
/// Another urlcache holding an entry is named on stderr.
struct FetchPool: Sendable {
    var controller: URLCacheController
    /// Checks under way at once (`fetch --all`: six, as a browser opens to one host).
    var inFlight: Int

    /// The reports in the entries' order. `isCancelled` stops every check
    /// under way and those not begun.
    func display(
        _ entries: [URLEntry],
        force: Bool,
        automatic: Bool = false,
        size: SizeAsk = .largest,
        isCancelled: @escaping @Sendable () -> Bool
    ) -> [DisplayReport] {
        let work = Work(count: entries.count)
        let group = DispatchGroup()
        for _ in 0..<max(1, min(inFlight, entries.count)) {
            group.enter()
            // The main thread's size: the check decodes what it downloads.
            DetachedThread.start(stackSize: 8 << 20) {
                while let index = work.take() {
                    let image = entries.count == 1 ? "this image" : entries[index].url.absoluteString
                    let observer = FetchObserver(
                        isCancelled: isCancelled,
                        waiting: { pid in
                            printError(
                                "urlcache: waiting for another urlcache\(pid.map { " (pid \($0))" } ?? "") to finish with \(image)"
                            )
                        }
                    )
                    work.put(
                        controller.display(
                            entries[index],
                            force: force,
                            automatic: automatic,
                            size: size,
                            observer: observer
                        ),
                        at: index
                    )
                }
                group.leave()
            }
        }
        group.wait()
        return work.reports
    }

    /// The entries' queue and their reports, shared by the checking threads.
    private final class Work: Sendable {
        private let next = Mutex(0)
        private let done: Mutex<[DisplayReport?]>
        private let count: Int

        init(count: Int) {
            self.count = count
            done = Mutex(Array(repeating: nil, count: count))
        }

        /// The next entry to check; nil when all are taken.
        func take() -> Int? {
            next.withLock { next in
                guard next < count else { return nil }
                defer { next += 1 }
                return next
            }
        }

        func put(_ report: DisplayReport, at index: Int) { done.withLock { $0[index] = report } }

        var reports: [DisplayReport] { done.withLock { $0.compactMap { $0 } } }
    }
}

import Foundation
import Synchronization
import URLCacheKit

#if canImport(Glibc)
import Glibc
#endif

/// Ctrl-C and kill during `fetch`: the transfer (or the wait for another
/// process's lock) is cancelled, its temporary file removes itself as it
/// unwinds, and the process then exits as the signal would have ended it,
/// 130 for SIGINT, 143 for SIGTERM, 129 for SIGHUP.
enum Interruption {
    /// The signal that arrived, 0 for none (written by the handler: an
    /// atomic store is async-signal-safe).
    private static let received = Atomic<Int32>(0)

    /// Catches SIGINT, SIGTERM and SIGHUP until `finish`.
    static func install() {
        // The first use of a static runs its one-time set-up: here, never
        // inside a handler, where it would not be async-signal-safe.
        received.store(0, ordering: .relaxed)
        for signal in [SIGINT, SIGTERM, SIGHUP] {
            Glibc.signal(signal) { number in Interruption.received.store(number, ordering: .relaxed) }
        }
    }

    /// Display Image for a command: Ctrl-C or kill cancels it (the cache
    /// as it was, no temporary file left), and then ends the process by
    /// that signal; another urlcache holding the entry is named on stderr.
    static func display(_ entry: URLEntry, force: Bool, with controller: URLCacheController) -> DisplayReport {
        // One entry, one report: the pool returns one for each.
        display([entry], force: force, with: controller, inFlight: 1)[0]
    }

    /// Display Image for each of `entries`, `inFlight` at a time (each
    /// check on a thread of its own; two of one entry wait for each other
    /// on its lock): the reports in the entries' order. Ctrl-C or kill
    /// cancels every check under way and those not begun, then ends the
    /// process by that signal.
    static func display(
        _ entries: [URLEntry],
        force: Bool,
        automatic: Bool = false,
        with controller: URLCacheController,
        inFlight: Int
    ) -> [DisplayReport] {
        install()
        let work = Work(count: entries.count)
        let group = DispatchGroup()
        for _ in 0..<max(1, min(inFlight, entries.count)) {
            group.enter()
            let thread = Thread {
                while let index = work.take() {
                    let image = entries.count == 1 ? "this image" : entries[index].url.absoluteString
                    let observer = FetchObserver(
                        isCancelled: { happened },
                        waiting: { pid in
                            printError(
                                "urlcache: waiting for another urlcache\(pid.map { " (pid \($0))" } ?? "") to finish with \(image)"
                            )
                        }
                    )
                    work.put(
                        controller.display(entries[index], force: force, automatic: automatic, observer: observer),
                        at: index
                    )
                }
                group.leave()
            }
            // The main thread's size: the check decodes what it downloads.
            thread.stackSize = 8 << 20
            thread.start()
        }
        group.wait()
        finish()
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

    /// Whether one of them arrived.
    static var happened: Bool { received.load(ordering: .relaxed) != 0 }

    /// If a signal arrived, ends the process as that signal would have:
    /// the default action restored and the signal raised again.
    static func finish() {
        // What comes after the check (a render) is ended by a signal at once.
        for signal in [SIGINT, SIGTERM, SIGHUP] { Glibc.signal(signal, SIG_DFL) }
        let number = received.load(ordering: .relaxed)
        if number != 0 { end(by: number) }
    }

    /// Ends the process by signal `number`, its default action restored
    /// (the terminal must already be as it was).
    static func end(by number: Int32) {
        Glibc.signal(number, SIG_DFL)
        raise(number)
    }
}

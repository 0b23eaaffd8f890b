import Synchronization

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

    /// Runs `work` with SIGINT, SIGTERM and SIGHUP caught: `work` is told
    /// whether one arrived (to cancel what it does: the cache as it was, no
    /// temporary file left), and afterwards the process ends by that
    /// signal, as it would have.
    static func catching<T>(_ work: (_ isCancelled: @escaping @Sendable () -> Bool) -> T) -> T {
        install()
        let result = work { happened }
        finish()
        return result
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

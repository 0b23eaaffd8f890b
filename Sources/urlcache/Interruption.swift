import Foundation
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
        for signal in [SIGINT, SIGTERM, SIGHUP] {
            Glibc.signal(signal) { number in Interruption.received.store(number, ordering: .relaxed) }
        }
    }

    /// Whether one of them arrived.
    static var happened: Bool { received.load(ordering: .relaxed) != 0 }

    /// If a signal arrived, ends the process as that signal would have:
    /// the default action restored and the signal raised again.
    static func finish() {
        let number = received.load(ordering: .relaxed)
        guard number != 0 else { return }
        Glibc.signal(number, SIG_DFL)
        raise(number)
    }
}

#if canImport(Glibc)
import Glibc
#endif

/// SIGTERM, SIGHUP and SIGINT only set a flag: the event loop sees it on its
/// next tick and leaves through the same door as q, restoring the terminal.
enum Signals {
    nonisolated(unsafe) static var received: sig_atomic_t = 0

    static func install() {
        for signal in [SIGTERM, SIGHUP, SIGINT] {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { number in Signals.received = sig_atomic_t(number) }
            sigemptyset(&action.sa_mask)
            action.sa_flags = 0
            sigaction(signal, &action, nil)
        }
    }
}

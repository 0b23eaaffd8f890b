import FoundationEssentials
import Synchronization
import URLCacheKit
import URLCacheSupport

#if canImport(Glibc)
import Glibc
#endif

/// Diagnostics for --log-file: never the terminal, which ncurses owns.
/// Written from the screen's thread and the loader's.
public final class Log: Sendable {
    /// The log's descriptor, or nil with no log; the lock keeps lines whole.
    private let file: Mutex<Int32?>

    public init(path: String?) {
        guard let path else {
            file = Mutex(nil)
            return
        }
        // 0600, as the cache's files: the log names the URLs and paths of
        // what was shown.
        let fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        file = Mutex(fd >= 0 ? fd : nil)
    }

    deinit {
        file.withLock { fd in if let fd { close(fd) } }
    }

    public func write(_ message: String) {
        file.withLock { fd in
            guard let fd else { return }
            // A full disk loses a line of diagnostics, nothing more.
            try? writeAll(fd, Array("\(UpdatedFormat.iso8601(Date())) \(message.terminalSafe)\n".utf8))
        }
    }
}

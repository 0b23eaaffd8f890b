import Foundation
import Synchronization
import URLCacheSupport

#if canImport(Glibc)
import Glibc
#endif

/// Diagnostics for --log-file: never the terminal, which ncurses owns.
/// Written from the screen's thread and the loader's.
public final class Log: Sendable {
    private let handle: Mutex<FileHandle?>

    public init(path: String?) {
        guard let path else {
            handle = Mutex(nil)
            return
        }
        // 0600, as the cache's files: the log names the URLs and paths of
        // what was shown.
        let fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        handle = Mutex(fd >= 0 ? FileHandle(fileDescriptor: fd, closeOnDealloc: true) : nil)
    }

    public func write(_ message: String) {
        handle.withLock { file in
            guard let file else { return }
            file.write(Data("\(ISO8601DateFormatter().string(from: Date())) \(message.terminalSafe)\n".utf8))
        }
    }
}

import Foundation
import Synchronization
import URLCacheSupport

/// Diagnostics for --log-file: never the terminal, which ncurses owns.
/// Written from the screen's thread and the loader's.
public final class Log: Sendable {
    private let handle: Mutex<FileHandle?>

    public init(path: String?) {
        guard let path else {
            handle = Mutex(nil)
            return
        }
        if !FileManager.default.fileExists(atPath: path) { _ = FileManager.default.createFile(atPath: path, contents: nil) }
        let file = FileHandle(forWritingAtPath: path)
        _ = try? file?.seekToEnd()
        handle = Mutex(file)
    }

    public func write(_ message: String) {
        handle.withLock { file in
            guard let file else { return }
            file.write(Data("\(ISO8601DateFormatter().string(from: Date())) \(message.terminalSafe)\n".utf8))
        }
    }
}

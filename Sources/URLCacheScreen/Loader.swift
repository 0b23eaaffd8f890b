import BlockArt
import Foundation
import URLCacheKit

/// Runs Display Image and the decoding on another thread, so the screen
/// keeps reading keys; the event loop polls it on every tick.
final class Loader: @unchecked Sendable {
    /// What a finished load hands back.
    struct Result: Sendable {
        var report: DisplayReport
        var image: Swift.Result<DecodedImage, DecodeError>?
        var automatic: Bool
        var index: Int
    }

    private let lock = NSLock()
    private var progress: TransferProgress?
    private var cancelled = false
    private var result: Result?
    private(set) var running = false

    /// Starts a load; `decodeSize` picks the pixmap size from the source's,
    /// and `samples` is passed on to the decoder.
    func start(controller: URLCacheController, url: URL, force: Bool, automatic: Bool, index: Int,
               background: RGB8, samples: (x: Int, y: Int),
               decodeSize: @escaping @Sendable (SourceInfo) -> (width: Int, height: Int)) {
        lock.withLock {
            progress = nil
            cancelled = false
            result = nil
            running = true
        }
        let thread = Thread { [self] in
            let observer = FetchObserver(
                progress: { [self] p in lock.withLock { progress = p } },
                isCancelled: { [self] in lock.withLock { cancelled } })
            let report = controller.display(url, force: force, observer: observer)
            var image: Swift.Result<DecodedImage, DecodeError>?
            if let copy = report.copy {
                image = Swift.Result { () throws(DecodeError) in
                    try ImageDecoder.decode(path: copy.imagePath, background: background, samples: samples, size: decodeSize)
                }
            }
            lock.withLock {
                result = Result(report: report, image: image, automatic: automatic, index: index)
                running = false
            }
        }
        thread.stackSize = 4 << 20
        thread.start()
    }

    func cancel() { lock.withLock { cancelled = true } }

    var currentProgress: TransferProgress? { lock.withLock { progress } }

    /// The finished load, once (nil while running).
    func takeResult() -> Result? {
        lock.withLock {
            defer { result = nil }
            return result
        }
    }
}

/// Diagnostics for --log-file: never the terminal, which ncurses owns.
public final class Log: @unchecked Sendable {
    private let handle: FileHandle?
    private let lock = NSLock()

    public init(path: String?) {
        guard let path else {
            handle = nil
            return
        }
        if !FileManager.default.fileExists(atPath: path) { _ = FileManager.default.createFile(atPath: path, contents: nil) }
        handle = FileHandle(forWritingAtPath: path)
        _ = try? handle?.seekToEnd()
    }

    public func write(_ message: String) {
        guard let handle else { return }
        let line = "\(ISO8601DateFormatter().string(from: Date())) \(message.terminalSafe)\n"
        lock.withLock { handle.write(Data(line.utf8)) }
    }
}

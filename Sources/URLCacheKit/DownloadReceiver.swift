import Foundation
import BlockArt

/// Receives one transfer for the controller: decides from the headers
/// whether to read the body, and writes the body to a staged file.
final class DownloadReceiver: TransferReceiver {
    let cache: DiskCache
    let url: URL
    let stored: Validators?
    let hasCopy: Bool
    let now: Date
    let observer: FetchObserver
    let parseDate: (String) -> Date?

    /// The headers matched the stored validators (a server that ignores
    /// conditions): the body was not read.
    private(set) var headersShowedUnchanged = false
    private(set) var staged: StagedFile?
    private(set) var stageError: CacheError?
    private var sniffed: [UInt8] = []
    /// The body was refused as soon as its first bytes showed it is no image.
    private(set) var rejected: ImageFormat?
    /// The final response's head.
    private(set) var finalHead = ResponseHead()

    init(cache: DiskCache, url: URL, stored: Validators?, hasCopy: Bool, now: Date, observer: FetchObserver,
         parseDate: @escaping (String) -> Date?) {
        self.cache = cache
        self.url = url
        self.stored = stored
        self.hasCopy = hasCopy
        self.now = now
        self.observer = observer
        self.parseDate = parseDate
    }

    /// The body's format, from its first bytes.
    var format: ImageFormat { ImageFormat.sniff(sniffed) }

    func head(_ head: ResponseHead) -> HeadDecision {
        finalHead = head
        if head.status == 304 { return .stop }
        guard (200..<300).contains(head.status) else { return .stop }
        if hasCopy, let stored,
           RefreshPolicy.headersShowUnchanged(stored: stored, received: head.validators, now: now, parseDate: parseDate) == true {
            headersShowedUnchanged = true
            return .stop
        }
        return .readBody
    }

    func body(_ bytes: UnsafeRawBufferPointer) throws(CacheError) {
        if sniffed.count < ImageFormat.sniffLength {
            sniffed.append(contentsOf: bytes.prefix(ImageFormat.sniffLength - sniffed.count))
            // An HTML page or other non-image is refused before it is stored.
            if sniffed.count >= 16, !format.isSupported {
                rejected = format
                throw .writeFailed(path: url.absoluteString, reason: "not an image")
            }
        }
        if staged == nil {
            do { staged = try cache.stage(url) } catch {
                stageError = error
                throw error
            }
        }
        do { try staged?.append(bytes) } catch {
            stageError = error
            throw error
        }
    }

    func progress(_ progress: TransferProgress) -> Bool {
        observer.progress(progress)
        return !observer.isCancelled()
    }

    /// The staged file became the cached image: nothing to discard.
    func committed() { staged = nil }

    /// Removes a staged file that was not committed.
    func discard() {
        staged?.discard()
        staged = nil
    }
}

/// Byte-for-byte comparison of two files, for servers that send no usable
/// validators.
enum FileComparison {
    static func sameContents(_ a: String, _ b: String) -> Bool {
        guard let ha = FileHandle(forReadingAtPath: a), let hb = FileHandle(forReadingAtPath: b) else { return false }
        defer {
            try? ha.close()
            try? hb.close()
        }
        while true {
            let da = (try? ha.read(upToCount: 1 << 16)) ?? Data()
            let db = (try? hb.read(upToCount: 1 << 16)) ?? Data()
            if da != db { return false }
            if da.isEmpty { return true }
        }
    }
}

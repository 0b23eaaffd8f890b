import Foundation
import BlockArt
import URLCacheSupport

/// What one download came to, for the controller to act on.
enum DownloadResult {
    /// 304 Not Modified, to a conditional request.
    case notModified
    /// 304 to a request that carried no condition: it confirms nothing.
    case unaskedNotModified
    /// The headers matched the stored validators (a server that ignores
    /// conditions): the body was not read.
    case unchangedByHeaders
    /// A status other than 200, 203 or 304 (a 206 included): the head says which.
    case errorStatus
    /// The body is not an image we can show (HTML, a GIF, nothing at all):
    /// refused as soon as its first bytes showed it, never stored.
    case rejected(ImageFormat)
    /// The whole body is in a staged file, not yet in the cache.
    case staged(StagedFile, ImageFormat)
}

/// Why the receiver stopped a transfer.
enum DownloadStop {
    case notModified
    case errorStatus
    case unchangedByHeaders
    case rejected(ImageFormat)
    /// The body could not be written to a staged file (a full disk).
    case cannotStore(CacheError)
}

/// Receives one transfer for the controller: decides from the headers
/// whether to read the body, and writes the body to a staged file, refusing
/// it as soon as its first bytes show it is no image.
final class DownloadReceiver: TransferReceiver {
    private let cache: DiskCache
    private let url: URL
    /// The validators stored with the cached copy, when there is one.
    private let stored: Validators?
    private let now: Date
    private let observer: FetchObserver
    private var sniffed: [UInt8] = []
    private var staged: StagedFile?

    private init(cache: DiskCache, url: URL, stored: Validators?, now: Date, observer: FetchObserver) {
        self.cache = cache
        self.url = url
        self.stored = stored
        self.now = now
        self.observer = observer
    }

    /// Runs one transfer of `request` into the staging area of the cache
    /// entry `key` and returns the final head and what the download came to.
    /// `stored`: the validators of the copy this would replace (without
    /// them the headers cannot show the copy unchanged).
    static func download(_ request: TransferRequest, key: URL, stored: Validators?, over transport: any Transport,
                         into cache: DiskCache, now: Date, observer: FetchObserver) throws(FetchError) -> (ResponseHead, DownloadResult) {
        let receiver = DownloadReceiver(cache: cache, url: key, stored: stored, now: now, observer: observer)
        let outcome: TransferOutcome<DownloadStop>
        do { outcome = try transport.perform(request, receiver: receiver) } catch { throw .transport(error) }
        switch outcome.stopped {
        case .notModified?: return (outcome.head, request.isConditional ? .notModified : .unaskedNotModified)
        case .errorStatus?: return (outcome.head, .errorStatus)
        case .unchangedByHeaders?: return (outcome.head, .unchangedByHeaders)
        case let .rejected(format)?: return (outcome.head, .rejected(format))
        case let .cannotStore(error)?: throw .cache(error)
        case nil:
            let format = ImageFormat.sniff(receiver.sniffed)
            guard let file = receiver.staged, format.isSupported else { return (outcome.head, .rejected(format)) }
            return (outcome.head, .staged(file, format))
        }
    }

    func head(_ head: ResponseHead) -> TransferDecision<DownloadStop> {
        if head.status == 304 { return .stop(.notModified) }
        guard head.isWholeAnswer else { return .stop(.errorStatus) }
        if let stored,
           RefreshPolicy.headersShowUnchanged(stored: stored, received: head.validators, now: now) == true {
            return .stop(.unchangedByHeaders)
        }
        return .proceed
    }

    func body(_ bytes: UnsafeRawBufferPointer) -> TransferDecision<DownloadStop> {
        if sniffed.count < ImageFormat.sniffLength {
            sniffed.append(contentsOf: bytes.prefix(ImageFormat.sniffLength - sniffed.count))
            // An HTML page or other non-image is refused before it is stored.
            let format = ImageFormat.sniff(sniffed)
            if sniffed.count >= 16, !format.isSupported { return .stop(.rejected(format)) }
        }
        let file: StagedFile
        if let staged {
            file = staged
        } else {
            do { file = try cache.stage(url) } catch { return .stop(.cannotStore(error)) }
            staged = file
        }
        do { try file.append(bytes) } catch { return .stop(.cannotStore(.writeFailed(path: file.path, errno: error))) }
        return .proceed
    }

    func progress(_ progress: TransferProgress) -> Bool {
        observer.progress(progress)
        return !observer.isCancelled()
    }
}

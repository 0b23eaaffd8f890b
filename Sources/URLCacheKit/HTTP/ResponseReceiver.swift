import BlockArt
import Foundation
import URLCacheSupport

/// What one transfer came to, for the controller to settle.
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
    /// The body is not an image we can show (HTML, nothing at all):
    /// refused as soon as its first bytes showed it, never stored.
    case rejected(ImageFormat)
    /// An image's whole body, in a staged file, not yet in the cache.
    case staged(StagedFile, ImageFormat)
    /// A feed's whole body, in memory.
    case bytes([UInt8])
}

/// The one receiver of every transfer: it decides from the head whether to
/// read the body, and keeps the body where its sink says (an image in a
/// staged file, refused as soon as its first bytes show it is no image; a
/// feed in memory, up to its limit). It returns what the transfer came to;
/// nothing is read back out of it.
final class ResponseReceiver: TransferReceiver {
    /// Where the body goes.
    enum Sink {
        /// An image: the staging area of the cache entry `key`.
        case staged(DiskCache, key: URL)
        /// A feed: memory, at most `limit` bytes.
        case memory(limit: Int64)
    }

    enum Stop {
        case notModified
        case errorStatus
        case unchangedByHeaders
        case rejected(ImageFormat)
        /// The body could not be written to a staged file (a full disk).
        case cannotStore(CacheError)
        /// A feed larger than its limit.
        case tooLarge
    }

    private let sink: Sink
    /// The validators stored with the cached copy, when there is one.
    private let stored: Validators?
    private let now: Date
    private let observer: FetchObserver
    private var sniffed: [UInt8] = []
    private var staged: StagedFile?
    private var bytes: [UInt8] = []

    private init(sink: Sink, stored: Validators?, now: Date, observer: FetchObserver) {
        self.sink = sink
        self.stored = stored
        self.now = now
        self.observer = observer
    }

    /// Runs one transfer of `request` into `sink` and returns the final head
    /// and what the transfer came to. `stored`: the validators of the copy
    /// this would replace (without them the headers cannot show it unchanged).
    static func receive(
        _ request: TransferRequest,
        into sink: Sink,
        stored: Validators?,
        over transport: any Transport,
        now: Date,
        observer: FetchObserver
    ) throws(FetchError) -> (ResponseHead, DownloadResult) {
        let receiver = ResponseReceiver(sink: sink, stored: stored, now: now, observer: observer)
        let outcome: TransferOutcome<Stop>
        do { outcome = try transport.perform(request, receiver: receiver) } catch {
            if case let .memory(limit) = sink, case .tooLarge = error { throw .feed(.tooLarge(limit: limit)) }
            throw .transport(error)
        }
        return (outcome.head, try receiver.result(outcome.stopped, conditional: request.isConditional))
    }

    private func result(_ stopped: Stop?, conditional: Bool) throws(FetchError) -> DownloadResult {
        switch stopped {
        case .notModified?: return conditional ? .notModified : .unaskedNotModified
        case .errorStatus?: return .errorStatus
        case .unchangedByHeaders?: return .unchangedByHeaders
        case let .rejected(format)?: return .rejected(format)
        case let .cannotStore(error)?: throw .cache(error)
        case .tooLarge?:
            guard case let .memory(limit) = sink else { return .errorStatus }
            throw .feed(.tooLarge(limit: limit))
        case nil:
            guard case .staged = sink else { return .bytes(bytes) }
            let format = ImageFormat.sniff(sniffed)
            guard let staged, format.isSupported else { return .rejected(format) }
            return .staged(staged, format)
        }
    }

    func head(_ head: ResponseHead) -> TransferDecision<Stop> {
        if head.status == 304 { return .stop(.notModified) }
        guard head.isWholeAnswer else { return .stop(.errorStatus) }
        if case let .memory(limit) = sink, let length = head.contentLength, length > limit { return .stop(.tooLarge) }
        if let stored, RefreshPolicy.headersShowUnchanged(stored: stored, received: head.validators, now: now) == true {
            return .stop(.unchangedByHeaders)
        }
        return .proceed
    }

    func body(_ piece: UnsafeRawBufferPointer) -> TransferDecision<Stop> {
        switch sink {
        case let .memory(limit):
            guard Int64(bytes.count + piece.count) <= limit else { return .stop(.tooLarge) }
            bytes.append(contentsOf: piece)
            return .proceed
        case let .staged(cache, key):
            return stage(piece, cache: cache, key: key)
        }
    }

    private func stage(_ piece: UnsafeRawBufferPointer, cache: DiskCache, key: URL) -> TransferDecision<Stop> {
        if sniffed.count < ImageFormat.sniffLength {
            sniffed.append(contentsOf: piece.prefix(ImageFormat.sniffLength - sniffed.count))
            // An HTML page or other non-image is refused before it is stored.
            let format = ImageFormat.sniff(sniffed)
            if sniffed.count >= 16, !format.isSupported { return .stop(.rejected(format)) }
        }
        let file: StagedFile
        if let staged {
            file = staged
        } else {
            do { file = try cache.stage(key) } catch { return .stop(.cannotStore(error)) }
            staged = file
        }
        do { try file.append(piece) } catch { return .stop(.cannotStore(.writeFailed(path: file.path, errno: error))) }
        return .proceed
    }

    /// Progress for an image (the screen's bar); Esc cancels either.
    func progress(_ progress: TransferProgress) -> Bool {
        if case .staged = sink { observer.progress(progress) }
        return !observer.isCancelled()
    }
}

import BlockArt
import FoundationEssentials
import URLCacheSupport

/// What an image's transfer came to. It has no bytes in memory and no
/// size refusal of a feed's: those cannot reach the cache's commit.
enum ImageDownload {
    case unread(Unread)
    /// The body is not an image we can show (HTML, nothing at all):
    /// refused as soon as its first bytes showed it, never stored.
    case rejected(ImageFormat)
    /// The whole body, in a staged file, not yet in the cache.
    case staged(StagedFile, ImageFormat)
}

/// An image's receiver: it decides from the head whether to read the
/// body, and stages the body in the cache entry's staging area, refused
/// as soon as its first bytes show it is no image. It returns what the
/// transfer came to; nothing is read back out of it.
final class ImageReceiver: TransferReceiver {
    enum Stop {
        case unread(Unread)
        case rejected(ImageFormat)
        /// The body could not be written to a staged file (a full disk).
        case cannotStore(CacheError)
    }

    private let verdict: HeadVerdict
    private let cache: DiskCache
    private let key: URL
    private let observer: FetchObserver
    private var sniffed: [UInt8] = []
    private var staged: StagedFile?

    private init(verdict: HeadVerdict, cache: DiskCache, key: URL, observer: FetchObserver) {
        (self.verdict, self.cache, self.key, self.observer) = (verdict, cache, key, observer)
    }

    /// Runs one transfer of `request`, staged for the cache entry `key`.
    /// `stored`: the validators of the copy this would replace (without
    /// them the headers cannot show it unchanged).
    static func receive(
        _ request: TransferRequest,
        stagingIn cache: DiskCache,
        key: URL,
        stored: Validators?,
        over transport: any Transport,
        now: Date,
        observer: FetchObserver
    ) throws(FetchError) -> (ResponseHead, ImageDownload) {
        let verdict = HeadVerdict(stored: stored, now: now, conditional: request.isConditional)
        let receiver = ImageReceiver(verdict: verdict, cache: cache, key: key, observer: observer)
        let outcome: TransferOutcome<Stop>
        do { outcome = try transport.perform(request, receiver: receiver) } catch { throw .transport(error) }
        switch outcome.stopped {
        case let .unread(unread)?: return (outcome.head, .unread(unread))
        case let .rejected(format)?: return (outcome.head, .rejected(format))
        case let .cannotStore(error)?: throw .cache(error)
        case nil:
            let format = ImageFormat.sniff(receiver.sniffed)
            guard let staged = receiver.staged, format.isSupported else { return (outcome.head, .rejected(format)) }
            return (outcome.head, .staged(staged, format))
        }
    }

    func head(_ head: ResponseHead) -> TransferDecision<Stop> {
        (verdict.status(head) ?? verdict.validators(head)).map { .stop(.unread($0)) } ?? .proceed
    }

    func body(_ piece: UnsafeRawBufferPointer) -> TransferDecision<Stop> {
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

    /// Progress for the screen's bar; Esc cancels.
    func progress(_ progress: TransferProgress) -> Bool {
        observer.progress(progress)
        return !observer.isCancelled()
    }
}

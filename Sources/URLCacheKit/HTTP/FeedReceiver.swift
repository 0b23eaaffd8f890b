import FoundationEssentials

/// What a feed's transfer came to.
enum FeedDownload {
    case unread(Unread)
    /// The whole body, within the feed's limit.
    case bytes([UInt8])
}

/// A feed's receiver: it decides from the head whether to read the body,
/// and keeps the body in memory, up to the feed's limit.
final class FeedReceiver: TransferReceiver {
    enum Stop {
        case unread(Unread)
        /// Larger than the feed's limit.
        case tooLarge
    }

    private let verdict: HeadVerdict
    private let limit: Int64
    private let observer: FetchObserver
    private var bytes: [UInt8] = []

    private init(verdict: HeadVerdict, limit: Int64, observer: FetchObserver) {
        (self.verdict, self.limit, self.observer) = (verdict, limit, observer)
    }

    /// Runs one transfer of `request` into memory, at most `limit` bytes.
    static func receive(
        _ request: TransferRequest,
        limit: Int64,
        stored: Validators?,
        over transport: any Transport,
        now: Date,
        observer: FetchObserver
    ) throws(FetchError) -> (ResponseHead, FeedDownload) {
        let verdict = HeadVerdict(stored: stored, now: now, conditional: request.isConditional)
        let receiver = FeedReceiver(verdict: verdict, limit: limit, observer: observer)
        let outcome: TransferOutcome<Stop>
        do { outcome = try transport.perform(request, receiver: receiver) } catch {
            if case .tooLarge = error { throw .feed(.tooLarge(limit: limit)) }
            throw .transport(error)
        }
        switch outcome.stopped {
        case let .unread(unread)?: return (outcome.head, .unread(unread))
        case .tooLarge?: throw .feed(.tooLarge(limit: limit))
        case nil: return (outcome.head, .bytes(receiver.bytes))
        }
    }

    /// The status first, then the announced length, then the validators:
    /// a feed over its limit is refused even when they show it unchanged.
    func head(_ head: ResponseHead) -> TransferDecision<Stop> {
        if let unread = verdict.status(head) { return .stop(.unread(unread)) }
        if let length = head.contentLength, length > limit { return .stop(.tooLarge) }
        return verdict.validators(head).map { .stop(.unread($0)) } ?? .proceed
    }

    func body(_ piece: UnsafeRawBufferPointer) -> TransferDecision<Stop> {
        guard Int64(bytes.count + piece.count) <= limit else { return .stop(.tooLarge) }
        bytes.append(contentsOf: piece)
        return .proceed
    }

    /// No progress bar for a feed; Esc cancels it.
    func progress(_ progress: TransferProgress) -> Bool { !observer.isCancelled() }
}

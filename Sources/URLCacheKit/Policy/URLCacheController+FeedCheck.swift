import Foundation

extension URLCacheController {
    /// A feed entry's check: the feed (conditionally), then, only when it
    /// changed, the image it names: conditionally when the URL is the one
    /// already cached, a plain GET when it is new. Nothing is recorded until
    /// the image is settled, so a failed image is tried again next time.
    /// Under the server's rules a feed sent with `no-store` records nothing:
    /// its image is fetched plainly and shown from outside the cache.
    func checkFeed(_ request: TransferRequest, entry: URLEntry, spec: FeedSpec, cached: CachedCopy?, now: Date,
                   observer: FetchObserver) -> Result<DisplayOutcome, FetchError> {
        // The cache's key is the entry's URL; the request may go straight
        // to where a remembered permanent redirect points.
        let key = entry.url
        var feedRequest = request
        feedRequest.limits.maxBytes = maxFeedBytes
        let receiver = FeedReceiver(stored: cached?.metadata?.feedValidators, now: now, limit: maxFeedBytes, observer: observer)
        let outcome: TransferOutcome<FeedReceiver.Stop>
        do { outcome = try transport.perform(feedRequest, receiver: receiver) } catch {
            if case .tooLarge = error { return .failure(.feed(.tooLarge(limit: maxFeedBytes))) }
            return .failure(.transport(error))
        }
        let head = outcome.head
        let movedTo = redirectMemory(head, asked: request.url, previous: cached?.metadata?.movedTo, now: now, entry: entry)
        switch outcome.stopped {
        case .notModified?, .unchangedByHeaders?:
            guard let cached else { return .failure(.notModifiedWithoutCopy) }
            if outcome.stopped == .notModified, !feedRequest.isConditional { return .failure(.unaskedNotModified) }
            var metadata = cached.metadata ?? CacheMetadata(url: key.absoluteString)
            let feedValidators = metadata.feedValidators.updated(by: head.validators)
            metadata.feedETag = feedValidators.etag
            metadata.feedLastModified = feedValidators.lastModified
            metadata.keepFreshness(of: head, stored: cached.metadata, now: now, cap: refreshInterval)
            metadata.movedTo = movedTo
            return record { () throws(CacheError) in try cache.markChecked(key, at: now, metadata: metadata) }
        case .errorStatus?:
            rememberErrorAnswer(head, key: key, cached: cached, now: now, entry: entry)
            return .failure(.status(of: head))
        case .tooLarge?:
            return .failure(.feed(.tooLarge(limit: maxFeedBytes)))
        case nil:
            break
        }
        let item: FeedItem
        do { item = try FeedReader.read(receiver.body, contentType: head.contentType, feedURL: key, select: spec.select) } catch {
            return .failure(.feed(error))
        }
        var metadata = CacheMetadata(url: key.absoluteString)
        metadata.feedETag = head.validators.etag
        metadata.feedLastModified = head.validators.lastModified
        // The feed is what is checked: its headers say how long it stays fresh.
        metadata.keepFreshness(of: head, stored: nil, now: now, cap: refreshInterval)
        metadata.movedTo = movedTo
        metadata.describe(item)
        let noStore = mode(for: entry) == .server && metadata.lifetime?.noStore == true
        switch item.media {
        case let .other(kind, link):
            guard let cached else { return .failure(.noImageYet(kind: kind, link: link)) }
            if noStore { return .success(.notAnImageToday(kind: kind, link: link)) }
            // The previous picture and its words stay; only the feed's
            // validators move on, so the same video day is not read again.
            var kept = cached.metadata ?? CacheMetadata(url: key.absoluteString)
            kept.feedETag = metadata.feedETag
            kept.feedLastModified = metadata.feedLastModified
            kept.lifetime = metadata.lifetime
            kept.cacheControl = metadata.cacheControl
            kept.expires = metadata.expires
            kept.movedTo = metadata.movedTo
            return record { () throws(CacheError) in try cache.markChecked(key, at: now, metadata: kept) }
                .map { _ in .notAnImageToday(kind: kind, link: link) }
        case let .image(imageURL):
            return fetchAnnounced(imageURL, key: key, metadata: metadata, noStore: noStore, cached: cached, now: now, observer: observer)
        case let .still(imageURL, kind, link):
            return fetchAnnounced(imageURL, key: key, metadata: metadata, noStore: noStore, cached: cached, now: now, observer: observer)
                // A no-store still is shown from outside the cache, as any no-store image.
                .map { $0 == .notStored ? $0 : .stillOfToday(kind: kind, link: link, new: $0 == .newlyCached) }
        }
    }

    /// The image a changed feed names: conditionally when the URL is the
    /// one already cached, a plain GET when it is new; settled with the
    /// feed's `metadata`.
    private func fetchAnnounced(_ imageURL: URL, key: URL, metadata feedMetadata: CacheMetadata, noStore: Bool, cached: CachedCopy?,
                                now: Date, observer: FetchObserver) -> Result<DisplayOutcome, FetchError> {
        var metadata = feedMetadata
        metadata.imageURL = imageURL.absoluteString
        let same = !noStore && cached?.metadata?.imageURL == imageURL.absoluteString
        let stored = same ? cached?.metadata?.validators : nil
        var imageRequest = TransferRequest(url: imageURL, limits: limits)
        imageRequest.accept = TransferRequest.imageTypes
        if same, case let .check(etag, since) = RefreshPolicy.conditions(stored ?? Validators(), now: now) {
            imageRequest.ifNoneMatch = etag
            imageRequest.ifModifiedSince = since
        }
        let fetched: (ResponseHead, DownloadResult)
        do {
            fetched = try DownloadReceiver.download(imageRequest, key: key, stored: stored, over: transport, into: cache,
                                                    now: now, observer: observer)
        } catch {
            return .failure(.announcedImage(url: imageURL.absoluteString, error: error))
        }
        metadata.contentType = fetched.0.contentType ?? (same ? cached?.metadata?.contentType : nil)
        metadata.keepValidators(of: fetched.0, download: fetched.1, stored: stored)
        // A 304 for the image is only possible when it was asked
        // conditionally, i.e. for the cached copy.
        let result = finish(key, head: fetched.0, download: fetched.1, cached: cached, now: now, metadata: metadata,
                            store: !noStore)
        if case let .failure(error) = result, !isCacheError(error) {
            return .failure(.announcedImage(url: imageURL.absoluteString, error: error))
        }
        return result
    }

    private func record(_ write: () throws(CacheError) -> Void) -> Result<DisplayOutcome, FetchError> {
        do { try write() } catch { return .failure(.cache(error)) }
        return .success(.upToDate)
    }

    private func isCacheError(_ error: FetchError) -> Bool {
        if case .cache = error { return true }
        return false
    }
}

/// Receives a feed into memory, up to the limit for feeds, unless the
/// head shows it unchanged.
final class FeedReceiver: TransferReceiver {
    enum Stop {
        case notModified
        case unchangedByHeaders
        case errorStatus
        case tooLarge
    }

    private let stored: Validators?
    private let now: Date
    private let limit: Int64
    private let observer: FetchObserver
    private(set) var body: [UInt8] = []

    init(stored: Validators?, now: Date, limit: Int64, observer: FetchObserver) {
        self.stored = stored
        self.now = now
        self.limit = limit
        self.observer = observer
    }

    func head(_ head: ResponseHead) -> TransferDecision<Stop> {
        if head.status == 304 { return .stop(.notModified) }
        guard head.isWholeAnswer else { return .stop(.errorStatus) }
        if let length = head.contentLength, length > limit { return .stop(.tooLarge) }
        if let stored, RefreshPolicy.headersShowUnchanged(stored: stored, received: head.validators, now: now) == true {
            return .stop(.unchangedByHeaders)
        }
        return .proceed
    }

    func body(_ bytes: UnsafeRawBufferPointer) -> TransferDecision<Stop> {
        guard Int64(body.count + bytes.count) <= limit else { return .stop(.tooLarge) }
        body.append(contentsOf: bytes)
        return .proceed
    }

    /// Esc cancels the feed as it cancels an image.
    func progress(_ progress: TransferProgress) -> Bool { !observer.isCancelled() }
}

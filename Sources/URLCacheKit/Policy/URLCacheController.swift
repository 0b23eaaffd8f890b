import Foundation

/// The sample's controller: Display Image applies the caching policy to one
/// URL; Clear Cache empties the cache.
public struct URLCacheController: Sendable {
    public let cache: DiskCache
    public let transport: any Transport
    public let clock: any Clock
    /// Seconds after a check during which no network is used.
    public var refreshInterval: TimeInterval
    public var limits: TransferLimits

    public init(cache: DiskCache, transport: any Transport = CurlTransport(), clock: any Clock = SystemClock(),
                refreshInterval: TimeInterval = RefreshPolicy.defaultInterval, limits: TransferLimits = TransferLimits()) {
        self.cache = cache
        self.transport = transport
        self.clock = clock
        self.refreshInterval = refreshInterval
        self.limits = limits
    }

    /// Display Image: shows the cached copy when it is fresh, otherwise asks
    /// the server (conditionally) and downloads only a changed image.
    /// `force` skips the interval (the check stays conditional).
    public func display(_ url: URL, force: Bool = false, observer: FetchObserver = FetchObserver()) -> DisplayReport {
        do {
            // withLock creates the directory first.
            return try cache.withLock(url) { check(url, force: force, observer: observer) }
        } catch {
            return DisplayReport(result: .failure(.cache(error)), copy: try? cache.lookup(url))
        }
    }

    /// Clear Cache: removes every cached image; returns how many.
    @discardableResult
    public func clearCache() throws(CacheError) -> Int {
        try cache.clear()
    }

    private func check(_ url: URL, force: Bool, observer: FetchObserver) -> DisplayReport {
        let cached: CachedCopy?
        do { cached = try cache.lookup(url) } catch {
            return DisplayReport(result: .failure(.cache(error)), copy: nil)
        }
        let now = clock.now()
        var request = TransferRequest(url: url, limits: limits)
        switch RefreshPolicy.plan(cached: cached, now: now, interval: refreshInterval, force: force) {
        case .useCached:
            return DisplayReport(result: .success(.previouslyCached), copy: cached)
        case .download:
            break
        case let .check(ifNoneMatch, ifModifiedSince):
            request.ifNoneMatch = ifNoneMatch
            request.ifModifiedSince = ifModifiedSince
        }
        let result: Result<DisplayOutcome, FetchError>
        do {
            let (head, download) = try DownloadReceiver.download(request, over: transport, into: cache, cached: cached,
                                                                 now: now, observer: observer)
            result = finish(url, head: head, download: download, cached: cached, now: now)
        } catch {
            return DisplayReport(result: .failure(error), copy: cached)
        }
        let copy = (try? cache.lookup(url)) ?? cached
        return DisplayReport(result: result, copy: copy)
    }

    /// Acts on what the download came to: the one place the cache changes.
    private func finish(_ url: URL, head: ResponseHead, download: DownloadResult,
                        cached: CachedCopy?, now: Date) -> Result<DisplayOutcome, FetchError> {
        let metadata = CacheMetadata(url: url.absoluteString, etag: head.validators.etag,
                                     lastModified: head.validators.lastModified, contentType: head.contentType)
        do throws(CacheError) {
            switch download {
            case .notModified, .unchangedByHeaders:
                guard cached != nil else { return .failure(.notModifiedWithoutCopy) }
                // A 304 may carry no validators: keep the stored ones then.
                var keep: CacheMetadata? = metadata
                if case .notModified = download, head.validators == Validators() { keep = nil }
                try cache.markChecked(url, at: now, metadata: keep)
                return .success(.upToDate)
            case .errorStatus:
                return .failure(.httpStatus(status: head.status, reason: head.reason, contentType: head.contentType))
            case let .rejected(format):
                return .failure(.notAnImage(what: format.description, status: head.status, contentType: head.contentType))
            case let .staged(file, _):
                if let cached, FileComparison.sameContents(file.path, cached.imagePath) {
                    try cache.markChecked(url, at: now, metadata: metadata)
                    return .success(.upToDate)
                }
                try cache.commit(file, for: url, metadata: metadata, updated: now)
                return .success(.newlyCached)
            }
        } catch {
            return .failure(.cache(error))
        }
    }
}

/// Lets a caller follow a download and cancel it (the screen's progress bar
/// and Esc). Both are called on the transferring thread.
public struct FetchObserver: Sendable {
    public var progress: @Sendable (TransferProgress) -> Void
    public var isCancelled: @Sendable () -> Bool

    public init(progress: @escaping @Sendable (TransferProgress) -> Void = { _ in },
                isCancelled: @escaping @Sendable () -> Bool = { false }) {
        self.progress = progress
        self.isCancelled = isCancelled
    }
}

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
        } catch let error as CacheError {
            return DisplayReport(result: .failure(.cache(error)), copy: try? cache.lookup(url))
        } catch {
            return DisplayReport(result: .failure(.cache(.readFailed(path: cache.directory, reason: "\(error)"))), copy: nil)
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
        let plan = RefreshPolicy.plan(cached: cached, now: now, interval: refreshInterval, force: force,
                                      parseDate: transport.parseHTTPDate)
        var request = TransferRequest(url: url, limits: limits)
        switch plan {
        case .useCached:
            return DisplayReport(result: .success(.previouslyCached), copy: cached)
        case .download:
            break
        case let .check(ifNoneMatch, ifModifiedSince):
            request.ifNoneMatch = ifNoneMatch
            request.ifModifiedSince = ifModifiedSince
        }
        let receiver = DownloadReceiver(cache: cache, url: url, stored: cached?.metadata?.validators,
                                        hasCopy: cached != nil, now: now, observer: observer,
                                        parseDate: transport.parseHTTPDate)
        defer { receiver.discard() }
        let outcome: TransferOutcome
        do { outcome = try transport.perform(request, receiver: receiver) } catch {
            var failure: FetchError = if case let .cache(inner) = error { .cache(inner) } else { .transport(error) }
            if let format = receiver.rejected {
                let head = receiver.finalHead
                failure = .notAnImage(what: format.description, status: head.status, contentType: head.contentType)
            }
            return DisplayReport(result: .failure(failure), copy: cached)
        }
        let result = finish(url, outcome: outcome, receiver: receiver, cached: cached, now: now)
        let copy = (try? cache.lookup(url)) ?? cached
        return DisplayReport(result: result, copy: copy)
    }

    private func finish(_ url: URL, outcome: TransferOutcome, receiver: DownloadReceiver,
                        cached: CachedCopy?, now: Date) -> Result<DisplayOutcome, FetchError> {
        let head = outcome.head
        let metadata = CacheMetadata(url: url.absoluteString, etag: head.validators.etag,
                                     lastModified: head.validators.lastModified, contentType: head.contentType)
        do {
            if head.status == 304 || receiver.headersShowedUnchanged {
                guard cached != nil else { return .failure(.notModifiedWithoutCopy) }
                // A 304 may carry no validators: keep the stored ones then.
                let keep = head.status == 304 && head.validators == Validators() ? nil : metadata
                try cache.markChecked(url, at: now, metadata: keep)
                return .success(.upToDate)
            }
            guard (200..<300).contains(head.status) else {
                return .failure(.httpStatus(status: head.status, reason: head.reason, contentType: head.contentType))
            }
            guard let staged = receiver.staged else {
                return .failure(.notAnImage(what: "empty file", status: head.status, contentType: head.contentType))
            }
            let format = receiver.format
            guard format.isSupported else {
                return .failure(.notAnImage(what: format.description, status: head.status, contentType: head.contentType))
            }
            if let cached, FileComparison.sameContents(staged.path, cached.imagePath) {
                try cache.markChecked(url, at: now, metadata: metadata)
                return .success(.upToDate)
            }
            try cache.commit(staged, for: url, metadata: metadata, updated: now)
            receiver.committed()
            return .success(.newlyCached)
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

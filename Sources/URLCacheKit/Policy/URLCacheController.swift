import BlockArt
import FoundationEssentials
import URLCacheSupport

/// The sample's controller: Display Image applies the caching policy to one
/// entry; Clear Cache empties the cache.
public struct URLCacheController: Sendable {
    public let cache: DiskCache
    public let transport: any Transport
    public let clock: any Clock
    /// Seconds after a check during which no network is used.
    public var refreshInterval: TimeInterval
    public var limits: TransferLimits
    /// The largest feed read, in bytes.
    public var maxFeedBytes: Int64 = 2 << 20
    /// NSURLRequest's returnCacheDataDontLoad: the cached copy whatever its
    /// age, and no request at all.
    public var offline = false
    /// The freshness rule for entries that name none (the list's setting).
    public var freshness: FreshnessMode = .fixed
    /// `--freshness`: overrides every entry's rule.
    public var commandLineFreshness: FreshnessMode?
    /// `--fetch-size`, else the list's `size`: which size of a picture offered in
    /// several to take; nil leaves it to the caller (`sizeAsk`).
    public var sizePolicy: SizePolicy?

    public init(
        cache: DiskCache,
        transport: any Transport = CurlTransport(),
        clock: any Clock = SystemClock(),
        refreshInterval: TimeInterval = RefreshPolicy.defaultInterval,
        limits: TransferLimits = TransferLimits()
    ) {
        self.cache = cache
        self.transport = transport
        self.clock = clock
        self.refreshInterval = refreshInterval
        self.limits = limits
    }

    /// Display Image for an image URL given directly.
    public func display(_ url: URL, force: Bool = false, observer: FetchObserver = FetchObserver()) -> DisplayReport {
        display(URLEntry(url: url), force: force, observer: observer)
    }

    /// Display Image: shows the cached copy when it is fresh, otherwise asks
    /// the server (conditionally) and downloads only a changed image; for a
    /// feed entry, the feed first, then the image it names. Three steps:
    /// `resolve` (which image, on what conditions), the transfer
    /// (`ResponseReceiver`), `settle` (the record merged and committed).
    /// `force` skips the interval (the checks stay conditional).
    /// `automatic`: nobody asked (the screen's timed re-check, `fetch
    /// --all`); it backs off after failures. `size`: which size to take of
    /// a picture a feed offers in several.
    public func display(
        _ entry: URLEntry,
        force: Bool = false,
        automatic: Bool = false,
        size: SizeAsk = .largest,
        observer: FetchObserver = FetchObserver()
    ) -> DisplayReport {
        if let problem = entry.problem { return DisplayReport(result: .failure(.unusableEntry(problem)), copy: nil) }
        let key = entry.url
        // Reading needs no lock: offline only reads.
        if offline { return readOnly(key, because: nil) }
        let wait = LockWait(limit: limits.maxTime, onWait: observer.waiting, isCancelled: observer.isCancelled)
        // One maxTime for the whole check: the lock wait and every transfer.
        let deadline = ContinuousClock.now.advanced(by: .milliseconds(Int(min(limits.maxTime, 31_536_000) * 1000)))
        do {
            // withLock creates the directory first.
            return try cache.withLock(key, wait: wait) {
                check(entry, force: force, automatic: automatic, size: size, observer: observer, deadline: deadline)
            }
        } catch {
            if case let .lockFailed(_, errno) = error, errno == .readOnlyFileSystem || errno == .permissionDenied {
                return readOnly(key, because: .readOnly(path: cache.directory))
            }
            return DisplayReport(result: .failure(.cache(error)), copy: try? cache.lookup(key))
        }
    }

    /// The cached copy as it is, with no request: `--offline`, or a cache
    /// that cannot be written (`failure`), where nothing can be updated.
    private func readOnly(_ key: URL, because failure: CacheError?) -> DisplayReport {
        let cached: CachedCopy?
        do {
            try cache.checkSafety()
            cached = try cache.lookup(key)
        } catch {
            return DisplayReport(result: .failure(.cache(error)), copy: nil)
        }
        if let failure { return DisplayReport(result: .failure(.cache(failure)), copy: cached) }
        return DisplayReport(result: cached == nil ? .failure(.offlineNothingCached) : .success(.offline), copy: cached)
    }

    /// Clear Cache: removes every cached image; returns how many.
    @discardableResult
    public func clearCache() throws(CacheError) -> Int {
        try cache.clear()
    }

    private func check(
        _ entry: URLEntry,
        force: Bool,
        automatic: Bool,
        size: SizeAsk,
        observer: FetchObserver,
        deadline: ContinuousClock.Instant
    ) -> DisplayReport {
        let key = entry.url
        let cached: CachedCopy?
        do { cached = try cache.lookup(key) } catch {
            return DisplayReport(result: .failure(.cache(error)), copy: nil)
        }
        let now = clock.now()
        let ask = size.settled(hasCopy: cached != nil)
        let check = Check(
            entry: entry,
            cached: cached,
            now: now,
            deadline: deadline,
            observer: observer,
            automatic: automatic,
            rule: rule(for: entry),
            size: ask,
            resize: entry.feed != nil && !ask.isServed(by: cached?.metadata?.image.size)
        )
        let plan = refreshPlan(check, force: force)
        if case .useCached = plan { return DisplayReport(result: .success(.previouslyCached), copy: cached) }
        // With no image yet, the entry may still remember a server's answer.
        let remembers = cached == nil ? cache.answersWithoutImage(key) : cached?.metadata
        if !force,
            let answer = check.rule.rememberedAnswer(in: remembers, at: now) ?? backingOff(remembers, check)
        {
            return DisplayReport(result: flagMustRevalidate(.failure(answer), check), copy: cached)
        }
        // A permanent redirect with a lifetime: straight to its target.
        let target = check.rule.movedTo(cached?.metadata)?.target(at: now) ?? key
        // Resolve, transfer, settle.
        let result: Result<DisplayOutcome, FetchError>
        switch resolve(check, target: target, plan: plan) {
        case let .image(ask): result = fetchImage(ask, check)
        case let .stop(stop): result = settle(stop, check)
        }
        switch result {
        case let .failure(error): noteFailure(error, check)
        // The one success that keeps no image (a commit removes the record).
        case .success(.notStored) where cached == nil: cache.forgetAnswersWithoutImage(key)
        case .success: break
        }
        // A no-store image is shown from outside the cache.
        let copy = result == .success(.notStored) ? cache.transientCopy(for: key) : (try? cache.lookup(key)) ?? cached
        return DisplayReport(result: flagMustRevalidate(result, check), copy: copy)
    }

    /// The policy's plan for the copy: shown as it is, or checked with its
    /// validators (an image's or its feed's).
    private func refreshPlan(_ check: Check, force: Bool) -> RefreshPolicy.Plan {
        let cached = check.cached
        let validators =
            check.entry.feed == nil ? cached?.metadata?.image.validators : cached?.metadata?.feedValidators
        // A copy smaller than the size asked is no answer to the ask: the
        // feed is read again whole (like a `Vary` that does not match).
        return RefreshPolicy.plan(
            cached: cached,
            validators: check.resize ? Validators() : validators,
            now: check.now,
            interval: check.rule.interval(cached),
            force: force || check.resize
        )
    }

    /// A failed check of a copy whose server said `must-revalidate` or
    /// `no-cache` says so: the copy is still shown (nothing is ever lost),
    /// marked stale.
    private func flagMustRevalidate(
        _ result: Result<DisplayOutcome, FetchError>,
        _ check: Check
    ) -> Result<DisplayOutcome, FetchError> {
        guard case let .failure(error) = result, !error.isCancellation,
            let directive = check.rule.revalidationDirective(check.cached)
        else { return result }
        return .failure(.staleRequiresRevalidation(error, directive: directive))
    }

    /// What a check asks of a picture offered in several sizes: the
    /// policy set, with `area` the picture's pixels (nil: no terminal, the
    /// largest); with none set, the screen's default (`screenDefault`)
    /// or the largest.
    public func sizeAsk(area: PixelSize?, screenDefault: Bool) -> SizeAsk {
        SizeAsk.given(sizePolicy, area: area, screenDefault: screenDefault)
    }

    /// The rule that applies to `entry`: the command line's, else the
    /// entry's, else the list's, capped by the refresh interval.
    public func rule(for entry: URLEntry) -> FreshnessRule {
        FreshnessRule(mode: commandLineFreshness ?? entry.freshness ?? freshness, refreshInterval: refreshInterval)
    }
}

/// Lets a caller follow a download and cancel it (the screen's progress bar
/// and Esc). Both are called on the transferring thread.
public struct FetchObserver: Sendable {
    public var progress: @Sendable (TransferProgress) -> Void
    public var isCancelled: @Sendable () -> Bool
    /// Another process holds the entry (its pid when known): we wait, up
    /// to the time limit. Called once, on the waiting thread.
    public var waiting: @Sendable (Int32?) -> Void

    public init(
        progress: @escaping @Sendable (TransferProgress) -> Void = { _ in },
        isCancelled: @escaping @Sendable () -> Bool = { false },
        waiting: @escaping @Sendable (Int32?) -> Void = { _ in }
    ) {
        self.progress = progress
        self.isCancelled = isCancelled
        self.waiting = waiting
    }
}

import FoundationEssentials

extension URLCacheController {
    /// One Display Image of one entry, as `check` found it under the
    /// entry's lock: what resolve, the transfers and settle all read, in
    /// place of the four to seven parameters each took.
    struct Check: Sendable {
        /// The entry; its URL is the cache's key.
        let entry: URLEntry
        /// The cached copy as the check found it. A commit changes the
        /// cache: the report reads the copy again after one.
        let cached: CachedCopy?
        /// The policy's time for the whole check, read once under the lock.
        let now: Date
        /// When the whole check must be over: the lock wait and every
        /// transfer share one `maxTime`.
        let deadline: ContinuousClock.Instant
        /// Progress and cancel for the transfers.
        let observer: FetchObserver
        /// Nobody asked (a timed re-check, `fetch --all`): it backs off.
        let automatic: Bool
        /// The freshness rule the entry follows, decided once.
        let rule: FreshnessRule
        /// Which size of a picture offered in several to take.
        let size: SizeAsk
        /// The copy is smaller than `size` asks (a screen's size, and now
        /// the largest): the feed is read again whole, whatever its age.
        let resize: Bool

        /// The cache's key.
        var key: URL { entry.url }
    }
}

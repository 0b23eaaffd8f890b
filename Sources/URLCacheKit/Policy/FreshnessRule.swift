import FoundationEssentials

/// The freshness rule one entry follows (the command line's, else the
/// entry's, else the list's) with the interval that caps it: decided once
/// per check, and read by everything that differs "under the server's
/// rules". `followsServer` is the one place the mode is compared.
public struct FreshnessRule: Sendable, Equatable {
    public var mode: FreshnessMode
    /// The fixed interval, and the cap on every lifetime the server gives.
    public var refreshInterval: TimeInterval

    public init(mode: FreshnessMode, refreshInterval: TimeInterval) {
        self.mode = mode
        self.refreshInterval = refreshInterval
    }

    /// The server's headers decide (`--freshness server`).
    public var followsServer: Bool { mode == .server }

    /// What the server said about `record`'s freshness, when this rule heeds it.
    public func lifetime(_ record: CacheRecord?) -> Lifetime? {
        followsServer ? record?.freshness.lifetime : nil
    }

    /// Seconds a copy stays fresh after its check: the fixed interval, or
    /// what the server's headers said (nothing known: check now).
    public func interval(_ copy: CachedCopy?) -> TimeInterval {
        guard followsServer else { return refreshInterval }
        return min(refreshInterval, lifetime(copy?.metadata)?.seconds ?? 0)
    }

    /// Where `copy` stands at `now`: its interval, then, under the
    /// server's rules, its `stale-while-revalidate` window.
    public func standing(_ copy: CachedCopy, now: Date) -> RefreshPolicy.Standing {
        RefreshPolicy.standing(
            updated: copy.updated,
            interval: interval(copy),
            staleWhileRevalidate: lifetime(copy.metadata)?.staleWhileRevalidate ?? 0,
            now: now
        )
    }

    /// The permanent redirect `record` remembers, when this rule follows one.
    public func movedTo(_ record: CacheRecord?) -> MovedPermanently? {
        followsServer ? record?.remembered.movedTo : nil
    }

    /// Why a check must not ask now, from what the entry remembers: a
    /// server's request to wait, or (under its rules) a 404 that stands.
    public func rememberedAnswer(in record: CacheRecord?, at now: Date) -> FetchError? {
        if let patience = record?.remembered.patience, patience.stands(at: now) { return .askedToWait(patience) }
        if followsServer, let refusal = record?.remembered.refusal, refusal.stands(at: now) {
            return .refusalRemembered(refusal)
        }
        return nil
    }

    /// The 404 or 410 with a lifetime that `head` makes one remember.
    func refusal(of head: ResponseHead, now: Date) -> Refusal? {
        followsServer ? Refusal.of(head, now: now, cap: refreshInterval) : nil
    }

    /// Whether the answer's `no-store` keeps it out of the cache.
    func forbidsStoring(_ record: CacheRecord) -> Bool { lifetime(record)?.noStore == true }

    /// The `must-revalidate` or `no-cache` that marks a failed check of
    /// `cached` stale.
    func revalidationDirective(_ cached: CachedCopy?) -> String? {
        lifetime(cached?.metadata)?.revalidationDirective
    }
}

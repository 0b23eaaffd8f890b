import FoundationEssentials

/// Failed checks in a row, for automatic checks to back off (the screen's
/// timed re-check, `fetch --all` from a timer): after each failure they wait
/// 5 minutes, then 10, 20, 40…, never more than the refresh interval. A
/// success (a new image or a confirmation) ends the streak. A check a person
/// asks for (`fetch`, Display Image, `r`) is never held back by it.
public struct FailureStreak: RememberedAnswer, Codable, Sendable, Equatable {
    /// Failed checks in a row.
    public var count: Int
    /// When the last one failed.
    public var at: Date
    /// When an automatic check may ask again.
    public var until: Date

    /// The first wait, doubled after each further failure.
    public static let firstWait: TimeInterval = 300

    /// How long automatic checks wait after `count` failures in a row.
    public static func wait(after count: Int, cap: TimeInterval) -> TimeInterval {
        // 2^20 × 5 minutes is ten years: past any cap, and no overflow.
        min(max(cap, 0), firstWait * Double(1 << (min(max(count, 1), 21) - 1)))
    }

    /// The streak after one more failure at `now`.
    public static func after(_ previous: FailureStreak?, failedAt now: Date, cap: TimeInterval) -> FailureStreak {
        let count = (previous?.count ?? 0) + 1
        return FailureStreak(count: count, at: now, until: now.addingTimeInterval(wait(after: count, cap: cap)))
    }
}

extension FetchError {
    /// Whether this failure says the server (or the way to it) is not well
    /// now: a transport failure or an error status. Not one where nothing was
    /// asked, a cancel, or our own cache or list.
    var countsAgainstTheServer: Bool {
        switch self {
        // A cancel, or a libcurl that refuses a safety setting: ours, not the server's.
        case .transport(.cancelled), .transport(.optionRefused): return false
        case .transport, .httpStatus, .notTheWholeImage, .damagedImage, .notAnImage: return true
        case let .announcedImage(_, error), let .staleRequiresRevalidation(error, _), let .waitAsked(error, _):
            return error.countsAgainstTheServer
        case .feed: return true
        default: return false
        }
    }
}

extension URLCacheController {
    /// An automatic check that must not ask yet: the streak's wait stands.
    func backingOff(_ metadata: CacheRecord?, _ check: Check) -> FetchError? {
        guard check.automatic, let streak = metadata?.remembered.failures, streak.stands(at: check.now) else {
            return nil
        }
        return .backingOff(streak)
    }

    /// Counts a failed check against the entry's streak, beside its image,
    /// or alone when nothing is cached yet and the check was automatic (a
    /// URL a person mistyped leaves nothing behind). Failing to write it
    /// costs one request too many, so it is not reported.
    func noteFailure(_ error: FetchError, _ check: Check) {
        guard error.countsAgainstTheServer else { return }
        // The copy as it is now, not as the check found it.
        let copy: CachedCopy?
        do { copy = try cache.lookup(check.key) } catch { return }
        guard copy != nil || check.automatic else { return }
        // The fixed interval: under the server's rules a copy's own lifetime
        // may be 0, which would make no wait at all.
        let record = currentRecord(check.key, cached: copy).failing(at: check.now, cap: refreshInterval)
        try? cache.remember(check.key, record: record)
    }
}

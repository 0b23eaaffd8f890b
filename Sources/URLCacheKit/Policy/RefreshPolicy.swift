import FoundationEssentials

/// The original sample's caching policy, as pure functions of their inputs.
public enum RefreshPolicy {
    /// The original's refresh interval: 24 hours.
    public static let defaultInterval: TimeInterval = 86_400

    /// What Display Image does next.
    public enum Plan: Sendable, Equatable {
        /// The copy was checked less than the interval ago: no network at all.
        case useCached
        /// Ask the server with these conditions (either may be nil; both nil
        /// means a plain GET whose body is compared with the copy's bytes).
        case check(ifNoneMatch: String?, ifModifiedSince: String?)
        /// No copy: download it.
        case download
    }

    /// Decides from the cached copy (if any), the time and the interval.
    /// `validators`: what to send as conditions (the image's, or a feed
    /// entry's feed's; by default the copy's image validators). A future or
    /// unparsable Last-Modified is not sent as a condition.
    public static func plan(
        cached: CachedCopy?,
        validators: Validators? = nil,
        now: Date,
        interval: TimeInterval,
        force: Bool
    ) -> Plan {
        guard let cached else { return .download }
        if !force,
            case .fresh = standing(updated: cached.updated, interval: interval, staleWhileRevalidate: 0, now: now)
        {
            return .useCached
        }
        return conditions(validators ?? cached.metadata?.image.validators ?? Validators(), now: now)
    }

    /// Where a copy stands.
    public enum Standing: Sendable, Equatable {
        /// Shown with no request, for `left` more seconds.
        case fresh(left: TimeInterval)
        /// Past its lifetime but inside `stale-while-revalidate` (RFC 5861)
        /// for `left` more seconds: shown at once, checked in the background.
        case revalidating(left: TimeInterval)
        /// Checked before it is called current.
        case stale
    }

    /// Where a copy checked at `updated` stands at `now`: fresh for
    /// `interval` (the rule `plan` follows, a clock set back included),
    /// then shown while it is checked for `staleWhileRevalidate` seconds.
    public static func standing(
        updated: Date,
        interval: TimeInterval,
        staleWhileRevalidate: TimeInterval,
        now: Date
    ) -> Standing {
        let age = now.timeIntervalSince(updated)
        // A modification time in the future (a clock set back) counts as fresh
        // only within one interval, so a bad clock cannot freeze the image.
        if age < interval, age > -interval { return .fresh(left: interval - max(0, age)) }
        if age >= interval, age < interval + staleWhileRevalidate {
            return .revalidating(left: interval + staleWhileRevalidate - age)
        }
        return .stale
    }

    /// A conditional check with `validators`, leaving out a Last-Modified
    /// that is in the future or cannot be read.
    static func conditions(_ validators: Validators, now: Date) -> Plan {
        var since = validators.lastModified
        if let text = since {
            if let date = HTTPDate.parse(text), date <= now.addingTimeInterval(60) {} else { since = nil }
        }
        return .check(ifNoneMatch: validators.etag, ifModifiedSince: since)
    }

    /// Whether response headers show the copy is unchanged, so the body need
    /// not be read (a server that ignores conditions and answers 200).
    /// The ETag decides when the server sends one (a changed ETag with the
    /// same Last-Modified is a new image: Last-Modified has one-second
    /// resolution); Last-Modified decides only when there is no ETag.
    /// nil: the headers cannot tell, compare the bytes.
    public static func headersShowUnchanged(
        stored: Validators,
        received: Validators,
        now: Date
    ) -> Bool? {
        if let etag = received.etag {
            guard let old = stored.etag else { return nil }
            return old == etag
        }
        guard stored.etag == nil, let lastModified = received.lastModified, let old = stored.lastModified,
            let date = HTTPDate.parse(lastModified), date <= now.addingTimeInterval(60)
        else { return nil }
        return old == lastModified
    }
}

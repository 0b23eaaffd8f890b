import FoundationEssentials
import URLCacheSupport

/// What a private cache may remember besides an image, for thrift (RFC 9111
/// §3 and §4.2.2): an error, or a permanent redirect, that its server gave a
/// lifetime. Both are pure functions of a head and the time; both need
/// explicit freshness (max-age or Expires): a heuristic is no reason to
/// stop asking, nor to skip a hop.
/// (no-store and no-cache need no test here: `Lifetime.of` gives them 0
/// seconds, which neither remembers.)
func hasExplicitFreshness(_ head: ResponseHead) -> Bool {
    CacheControl(head.cacheControl).value("max-age") != nil || head.expires != nil
}

/// Until when an answer with explicit freshness stands: nil without it or
/// with a lifetime of 0 (the rule `Refusal` and `MovedPermanently` share).
func explicitlyFreshUntil(_ head: ResponseHead, now: Date, cap: TimeInterval) -> Date? {
    guard hasExplicitFreshness(head) else { return nil }
    let lifetime = Lifetime.of(head, now: now, cap: cap)
    return lifetime.seconds > 0 ? now.addingTimeInterval(lifetime.seconds) : nil
}

/// An answer remembered from `at` until `until`: one rule for all three.
public protocol RememberedAnswer {
    /// When the server answered.
    var at: Date { get }
    /// When the answer goes stale.
    var until: Date { get }
}

extension RememberedAnswer {
    /// Whether it still stands at `now`; a clock set back before the answer
    /// does not freeze it.
    public func stands(at now: Date) -> Bool { now >= at && now < until }
}

/// A 404 or 410 that its server said would stand a while: until then the
/// entry asks nothing, and its cached image is kept and shown.
public struct Refusal: RememberedAnswer, Codable, Sendable, Equatable {
    /// The status the server answered (404 or 410).
    public var status: Int
    /// When it answered.
    public var at: Date
    /// When the answer goes stale and the server is asked again.
    public var until: Date

    /// The refusal `head`, received at `now`, makes: a 404 or 410 with
    /// explicit freshness, for that freshness (capped as every lifetime
    /// is); nil for anything else.
    public static func of(_ head: ResponseHead, now: Date, cap: TimeInterval) -> Refusal? {
        guard head.status == 404 || head.status == 410, let until = explicitlyFreshUntil(head, now: now, cap: cap)
        else { return nil }
        return Refusal(status: head.status, at: now, until: until)
    }
}

/// A 429 or 503 that asked us to wait (Retry-After, RFC 9110 §10.2.3):
/// until then no check asks, whatever the freshness rule, except one a
/// person forces; the cached image is kept and shown.
public struct Patience: RememberedAnswer, Codable, Sendable, Equatable {
    /// The status that asked (429 or 503).
    public var status: Int
    /// When it asked.
    public var at: Date
    /// When asking is allowed again.
    public var until: Date

    /// What `head`, received at `now`, asks: Retry-After in seconds, or as
    /// a date on the server's clock (taken against its Date, as Expires
    /// is); at most `cap` from now. nil for another status, no or an
    /// unreadable Retry-After, or one already past.
    public static func of(_ head: ResponseHead, now: Date, cap: TimeInterval) -> Patience? {
        guard head.status == 429 || head.status == 503, let value = head.retryAfter else { return nil }
        let wait: TimeInterval
        if let seconds = Lifetime.deltaSeconds(value) {
            wait = seconds
        } else if let date = HTTPDate.parse(value.trimming(.whitespaces)) {
            wait = date.timeIntervalSince(head.date.flatMap(HTTPDate.parse) ?? now)
        } else {
            return nil
        }
        guard wait > 0 else { return nil }
        return Patience(status: head.status, at: now, until: now.addingTimeInterval(min(wait, cap)))
    }
}

/// Where a 301 or 308 with a lifetime moved the entry's URL: until then a
/// check goes straight to the target, one request instead of two.
public struct MovedPermanently: RememberedAnswer, Codable, Sendable, Equatable {
    /// The target, absolute, http or https.
    public var target: String
    /// When the redirect was met.
    public var at: Date
    /// When the redirect goes stale and the entry's own URL is asked again.
    public var until: Date

    /// What the permanent redirect `hop`, met asking `url` at `now`,
    /// lets us remember: its target, for its explicit freshness; nil
    /// without one, or for a target that is no http(s) URL or is `url`.
    public static func of(_ hop: RedirectHop?, from url: URL, now: Date, cap: TimeInterval) -> MovedPermanently? {
        guard let hop, hop.status == 301 || hop.status == 308 else { return nil }
        guard let until = explicitlyFreshUntil(hop.head, now: now, cap: cap),
            case let .success(target) = ImageURL.check(URL(string: hop.location, relativeTo: url)?.absoluteURL),
            target.absoluteString != url.absoluteString
        else { return nil }
        return MovedPermanently(target: target.absoluteString, at: now, until: until)
    }

    /// The target, while the redirect stands at `now`.
    public func target(at now: Date) -> URL? {
        stands(at: now) ? URL(string: target) : nil
    }
}

extension URLCacheController {
    /// An error answer worth remembering is written beside the cached
    /// image (which stays, with its time), or alone when nothing is cached
    /// yet: a 429 or 503's Retry-After always; a 404 or 410 with a lifetime
    /// under the server's rules. The next checks ask nothing until it is
    /// past. Failing to write it costs one request next time, so it is not
    /// reported.
    func rememberErrorAnswer(_ head: ResponseHead, _ check: Check) {
        let refusal = check.rule.refusal(of: head, now: check.now)
        let patience = Patience.of(head, now: check.now, cap: refreshInterval)
        guard refusal != nil || patience != nil else { return }
        let record = currentRecord(check.key, cached: check.cached).remembering(refusal: refusal, patience: patience)
        try? cache.remember(check.key, record: record)
    }

    /// What a check's remembered answer is merged into: the copy's record,
    /// else what the entry remembers with no image, else a blank record.
    func currentRecord(_ key: URL, cached: CachedCopy?) -> CacheRecord {
        if let cached { return cached.record(for: key) }
        return cache.answersWithoutImage(key) ?? CacheRecord(url: key.absoluteString)
    }

    /// The redirect to keep after a check that asked `url`: the one this
    /// response came through, else the one the check went by while it
    /// stands; none under the fixed rule.
    func redirectMemory(_ head: ResponseHead, asked url: URL, _ check: Check) -> MovedPermanently? {
        guard check.rule.followsServer else { return nil }
        let now = check.now
        return MovedPermanently.of(head.permanentRedirect, from: url, now: now, cap: refreshInterval)
            ?? check.cached?.metadata?.remembered.movedTo.flatMap { $0.stands(at: now) ? $0 : nil }
    }
}

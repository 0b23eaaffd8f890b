import FoundationEssentials
import URLCacheSupport

/// Which rule says how long a copy stays fresh.
public enum FreshnessMode: String, Sendable, Equatable, CaseIterable {
    /// The original's rule: `refreshInterval` (24 hours) after each check.
    case fixed
    /// HTTP's own rules for a private cache (NSURLCache's protocol policy):
    /// Cache-Control, Expires against Date, Age, else 10% of the time since
    /// Last-Modified; `refreshInterval` caps every result.
    case server
}

/// How long a response stays fresh, and why: computed from its head when
/// it arrives, kept with the copy, shown by `list`.
public struct Lifetime: Codable, Sendable, Equatable {
    /// Seconds after the check during which the copy is fresh.
    public var seconds: TimeInterval
    /// What decided it: "max-age", "Expires", "no-cache", "Last-Modified",
    /// "refreshInterval".
    public var reason: String
    /// `Cache-Control: no-store`: the response must not be kept.
    public var noStore: Bool
    /// `must-revalidate`: a stale copy may not stand in for a failed check.
    public var mustRevalidate: Bool
    /// RFC 5861's `stale-while-revalidate`: seconds after the lifetime
    /// during which the copy is shown at once while it is checked (nil: none).
    public var staleWhileRevalidate: TimeInterval?

    /// The directive by which a stale copy may not stand in for a failed
    /// check unremarked: `must-revalidate`, or `no-cache` (every use must be
    /// validated); nil when neither was sent.
    public var revalidationDirective: String? {
        mustRevalidate ? "must-revalidate" : reason == "no-cache" ? "no-cache" : nil
    }

    public init(seconds: TimeInterval, reason: String, noStore: Bool = false, mustRevalidate: Bool = false) {
        self.seconds = seconds
        self.reason = reason
        self.noStore = noStore
        self.mustRevalidate = mustRevalidate
    }

    /// HTTP's freshness lifetime of a response received at `now`, less its
    /// corrected initial age, never above `cap`, never below 0: RFC 9111 as
    /// a private cache applies it (s-maxage and public/private do not).
    /// - §5.2.2: no-store, then no-cache, then max-age (the first of two;
    ///   an unreadable one is stale, §4.2.1);
    /// - §5.3: Expires − Date on the server's clock; an Expires that is no
    ///   RFC 9110 date, or two of them, is already expired;
    /// - §4.2.2: a heuristic (10% of Date − Last-Modified, else
    ///   `refreshInterval`) only for a status that is heuristically
    ///   cacheable; any other status without explicit freshness is not reused;
    /// - §4.2.3: the age is the larger of Age (its first value, a
    ///   non-negative integer, else ignored) and the apparent age now − Date;
    /// - RFC 5861 §3: `stale-while-revalidate`'s window is kept beside the
    ///   lifetime (not with no-cache or must-revalidate, which forbid
    ///   showing a stale copy unchecked).
    public static func of(_ head: ResponseHead, now: Date, cap: TimeInterval) -> Lifetime {
        let directives = CacheControl(head.cacheControl)
        let mustRevalidate = directives.has("must-revalidate")
        if directives.has("no-store") {
            return Lifetime(seconds: 0, reason: "no-store", noStore: true, mustRevalidate: mustRevalidate)
        }
        if directives.has("no-cache") {
            return Lifetime(seconds: 0, reason: "no-cache", mustRevalidate: mustRevalidate)
        }
        let date = head.date.flatMap(HTTPDate.parse) ?? now
        var result: Lifetime
        // The fixed interval is ours: no server's age applies to it.
        var ages = true
        if let maxAge = directives.value("max-age") {
            result = Lifetime(seconds: TimeInterval(maxAge).flatMap { $0 >= 0 ? $0 : nil } ?? 0, reason: "max-age")
        } else if let expires = head.expires {
            result = Lifetime(
                seconds: HTTPDate.parse(expires).map { $0.timeIntervalSince(date) } ?? 0,
                reason: "Expires"
            )
        } else if !heuristicallyCacheable(head.status) {
            result = Lifetime(seconds: 0, reason: "HTTP \(head.status) is not reused without explicit freshness")
        } else if let text = head.validators.lastModified, let modified = HTTPDate.parse(text), modified <= date {
            result = Lifetime(seconds: date.timeIntervalSince(modified) / 10, reason: "Last-Modified")
        } else {
            result = Lifetime(seconds: cap, reason: "refreshInterval")
            ages = false
        }
        if ages { result.seconds -= correctedAge(head, date: date, now: now, lifetime: result.seconds) }
        result.mustRevalidate = mustRevalidate
        if !mustRevalidate, let window = directives.value("stale-while-revalidate"), let seconds = deltaSeconds(window)
        {
            result.staleWhileRevalidate = min(seconds, cap)
        }
        if result.seconds > cap {
            result.seconds = cap
            result.reason += ", capped by refreshInterval"
        }
        result.seconds = max(0, result.seconds)
        return result
    }

    /// The statuses RFC 9111 §4.2.2 lets a cache give a heuristic lifetime
    /// (RFC 9110 §15.1). A 304 refreshes the stored 200 (only a 200 or 203
    /// is ever stored), so it counts as one.
    static func heuristicallyCacheable(_ status: Int) -> Bool {
        [200, 203, 204, 206, 300, 301, 304, 308, 404, 405, 410, 414, 501].contains(status)
    }

    /// §4.2.3's corrected initial age, with no request delay (we take the
    /// head as it arrives). The apparent age (now − Date) counts for at most
    /// half the lifetime: a Date far behind our clock says more often that
    /// the server's clock is off than that the response is old, and must
    /// not make every response stale on arrival; an Age header, which a
    /// cache on the way sets on purpose, counts in full.
    static func correctedAge(_ head: ResponseHead, date: Date, now: Date, lifetime: TimeInterval) -> TimeInterval {
        // Date names a whole second: the response was made at some time
        // within it, so its age counts from that second's end (else every
        // response would look up to a second old, "fresh for 9 min" of 10).
        let apparent = max(0, now.timeIntervalSince(date) - 1)
        return max(ageValue(head.age), min(apparent, max(0, lifetime) / 2))
    }

    /// Age's value (§5.1): the first of a list, a non-negative integer;
    /// anything else ("7200.0", "7200a", "-5") is ignored.
    static func ageValue(_ header: String?) -> TimeInterval {
        header?.split(separator: ",").first.flatMap { deltaSeconds(String($0)) } ?? 0
    }

    /// RFC 9111 §1.2.2's delta-seconds: digits only, else nil.
    static func deltaSeconds(_ text: String) -> TimeInterval? {
        let trimmed = text.trimming(.whitespaces)
        guard !trimmed.isEmpty, trimmed.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Double(trimmed)
    }
}

/// A Cache-Control header's directives, names lowercased.
struct CacheControl {
    private var directives: [String: String?] = [:]

    init(_ header: String?) {
        for part in (header ?? "").split(separator: ",") {
            let pieces = part.split(separator: "=", maxSplits: 1)
            guard let name = pieces.first?.trimming(.whitespaces).lowercased(), !name.isEmpty else {
                continue
            }
            let value =
                pieces.count > 1
                ? pieces[1].trimming(.whitespaces).trimming(.scalars("\"")) : nil
            // The first of two conflicting values wins (a cache may take either; the first is what most do).
            if directives[name] == nil { directives[name] = value }
        }
    }

    func has(_ name: String) -> Bool { directives[name] != nil }
    func value(_ name: String) -> String? { directives[name] ?? nil }
}

import Foundation

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

    public init(seconds: TimeInterval, reason: String, noStore: Bool = false, mustRevalidate: Bool = false) {
        self.seconds = seconds
        self.reason = reason
        self.noStore = noStore
        self.mustRevalidate = mustRevalidate
    }

    /// HTTP's freshness lifetime of a response received at `now`, minus its
    /// Age, never above `cap`, never below 0 (RFC 9111 §4.2, as a private
    /// cache: s-maxage and public/private do not apply).
    public static func of(_ head: ResponseHead, now: Date, cap: TimeInterval) -> Lifetime {
        let directives = CacheControl(head.cacheControl)
        let mustRevalidate = directives.has("must-revalidate")
        if directives.has("no-store") { return Lifetime(seconds: 0, reason: "no-store", noStore: true, mustRevalidate: mustRevalidate) }
        if directives.has("no-cache") { return Lifetime(seconds: 0, reason: "no-cache", mustRevalidate: mustRevalidate) }
        let date = head.date.flatMap(HTTPDate.parse) ?? now
        // A negative or unreadable Age counts as 0.
        let age = max(0, head.age.flatMap { TimeInterval($0.trimmingCharacters(in: .whitespaces)) } ?? 0)
        var result: Lifetime
        if let maxAge = directives.value("max-age") {
            // An unreadable max-age makes the response stale (§4.2.1).
            let seconds = TimeInterval(maxAge).flatMap { $0 >= 0 ? $0 : nil } ?? 0
            result = Lifetime(seconds: seconds - age, reason: "max-age")
        } else if let expires = head.expires {
            // An Expires that cannot be read ("0", "-1") is in the past (§5.3).
            let seconds = HTTPDate.parse(expires).map { $0.timeIntervalSince(date) } ?? 0
            result = Lifetime(seconds: seconds - age, reason: "Expires")
        } else if let text = head.validators.lastModified, let modified = HTTPDate.parse(text), modified <= date {
            // The heuristic the seeds describe: 10% of the time since the last change.
            result = Lifetime(seconds: date.timeIntervalSince(modified) / 10 - age, reason: "Last-Modified")
        } else {
            result = Lifetime(seconds: cap, reason: "refreshInterval")
        }
        result.mustRevalidate = mustRevalidate
        if result.seconds > cap {
            result.seconds = cap
            result.reason += ", capped by refreshInterval"
        }
        result.seconds = max(0, result.seconds)
        return result
    }
}

/// A Cache-Control header's directives, names lowercased.
struct CacheControl {
    private var directives: [String: String?] = [:]

    init(_ header: String?) {
        for part in (header ?? "").split(separator: ",") {
            let pieces = part.split(separator: "=", maxSplits: 1)
            guard let name = pieces.first?.trimmingCharacters(in: .whitespaces).lowercased(), !name.isEmpty else { continue }
            let value = pieces.count > 1 ? pieces[1].trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\"")) : nil
            // The first of two conflicting values wins (a cache may take either; the first is what most do).
            if directives[name] == nil { directives[name] = value }
        }
    }

    func has(_ name: String) -> Bool { directives[name] != nil }
    func value(_ name: String) -> String? { directives[name] ?? nil }
}

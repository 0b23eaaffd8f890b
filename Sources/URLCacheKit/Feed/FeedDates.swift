import FoundationEssentials
import URLCacheSupport

/// The dates feeds carry, read leniently on purpose (unlike `HTTPDate`):
/// feeds are written by hand and by every CMS there is. RFC 3339 / ISO 8601
/// (Atom, `dc:date`: "2026-11-23T09:12:00+01:00", fractions, a space for
/// the T, a date alone) and RFC 822 in its many variants (RSS: any zone
/// name or offset, a missing day name or comma, a two-digit year, one-digit
/// days and hours, the RFC 850 and asctime orders). A date is only used to
/// pick the newest item, so a wrong guess costs little and a refusal less.
public enum FeedDates {
    /// The date `text` names, or nil.
    public static func parse(_ text: String) -> Date? {
        let trimmed = text.trimming(.whitespacesAndNewlines)
        return rfc3339(Array(trimmed.utf8)) ?? rfc822(trimmed)
    }

    /// "2026-11-23T09:12:00.5+01:00", "2026-11-23 09:12Z", "2026-11-23".
    static func rfc3339(_ b: [UInt8]) -> Date? {
        var s = DateScanner(b)
        guard let year = s.digits(4), s.literal("-"), let month = s.digits(2), s.literal("-"), let day = s.digits(2)
        else { return nil }
        var time = (hour: 0, minute: 0, second: 0)
        var offset = 0
        if !s.atEnd {
            guard s.literal("T") || s.literal("t") || s.literal(" "), let hour = s.digits(2), s.literal(":"),
                let minute = s.digits(2), hour < 24, minute < 60
            else { return nil }
            time = (hour, minute, 0)
            if s.literal(":") {
                guard let second = s.digits(2), second <= 60 else { return nil }
                time.second = second
                if s.literal(".") || s.literal(",") { while s.digits(1) != nil {} }
            }
            if s.literal("Z") || s.literal("z") {
            } else if let sign = s.literal("+") ? 1 : s.literal("-") ? -1 : nil {
                guard let hours = s.digits(2) else { return nil }
                _ = s.literal(":")
                offset = sign * (hours * 3600 + (s.digits(2) ?? 0) * 60)
            }
            guard s.atEnd else { return nil }
        }
        return CivilTime.date(year: year, month: month, day: day, time: time)?.addingTimeInterval(TimeInterval(-offset))
    }

    /// RFC 822 and its relatives, token by token.
    static func rfc822(_ text: String) -> Date? {
        var parts = DateParts()
        let tokens = text.replacing(",", with: " ").split(whereSeparator: { $0 == " " || $0 == "\t" })
            // "06-Nov-94" (RFC 850) is three tokens.
            .flatMap { $0.contains("-") && $0.first?.isNumber == true ? $0.split(separator: "-") : [$0] }
        for token in tokens where !parts.take(String(token)) { return nil }
        guard let day = parts.day, let month = parts.month, let year = parts.year else { return nil }
        let fullYear = year >= 100 ? year : year + (year < 50 ? 2000 : 1900)
        return CivilTime.date(year: fullYear, month: month, day: day, time: parts.time ?? (0, 0, 0))?
            .addingTimeInterval(TimeInterval(-(parts.offset ?? 0)))
    }
}

/// What the tokens of an RFC 822-like date said so far.
private struct DateParts {
    var day: Int?, month: Int?, year: Int?
    var time: (hour: Int, minute: Int, second: Int)?
    var offset: Int?

    static let zones: [String: Int] = [
        "GMT": 0, "UT": 0, "UTC": 0, "Z": 0, "EST": -5, "EDT": -4, "CST": -6, "CDT": -5,
        "MST": -7, "MDT": -6, "PST": -8, "PDT": -7,
    ]

    /// Takes one token; false when it fits nowhere.
    mutating func take(_ token: String) -> Bool {
        let lower = token.lowercased()
        if month == nil, lower.count >= 3,
            let index = HTTPDate.monthNames.firstIndex(where: { lower.hasPrefix($0.lowercased()) })
        {
            month = index + 1
        } else if HTTPDate.longDayNames.contains(where: { $0.lowercased().hasPrefix(lower) }) && lower.count >= 3 {
            // The day's name adds nothing.
        } else if time == nil, token.contains(":") {
            let fields = token.split(separator: ":").map { Int($0) }
            guard (2...3).contains(fields.count), let hour = fields[0], let minute = fields[1], hour < 24, minute < 60
            else { return false }
            let second = fields.count == 3 ? fields[2] : 0
            guard let second, second <= 60 else { return false }
            time = (hour, minute, second)
        } else if token.allSatisfy(\.isNumber), let number = Int(token) {
            if token.count == 4, year == nil {
                year = number
            } else if token.count <= 2, day == nil {
                day = number
            } else if token.count <= 2, year == nil {
                year = number
            } else {
                return false
            }
        } else if let hours = DateParts.zones[token.uppercased()], offset == nil {
            offset = hours * 3600
        } else if offset == nil, let sign = token.first.flatMap({ $0 == "+" ? 1 : $0 == "-" ? -1 : nil }) {
            let digits = token.dropFirst().filter(\.isNumber)
            guard digits.count == 4, let value = Int(digits) else { return false }
            offset = sign * (value / 100 * 3600 + value % 100 * 60)
        } else {
            return false
        }
        return true
    }
}

import FoundationEssentials

#if canImport(Glibc)
import Glibc
#endif

/// The Updated field's format, as the original shows it: a medium date and a
/// short time, in the local zone ("23 Nov 2026 at 1:32 AM"), month names in
/// the locale's language. Shared by the commands and the screen.
///
/// The C library's strftime, not DateFormatter: ICU's first DateFormatter
/// loads locale and time-zone data, several milliseconds on the screen's
/// path to its first frame.
public enum UpdatedFormat {
    public static func string(_ date: Date) -> String { format(date, "%e %b %Y at %l:%M %p") }

    /// The day alone, as the history shows it ("19 Nov 2026").
    public static func day(_ date: Date) -> String { format(date, "%e %b %Y") }

    /// A time of day, 24-hour ("09:12"); with its day ("24 Nov 10:12") when
    /// it falls on another day than `earlier`.
    public static func time(_ date: Date, after earlier: Date? = nil) -> String {
        guard let earlier, day(earlier) != day(date) else { return format(date, "%H:%M") }
        return format(date, "%e %b %H:%M")
    }

    /// ISO 8601 in UTC ("2026-11-23T22:00:00Z"), for `fetch --json`.
    public static func iso8601(_ date: Date) -> String { format(date, "%Y-%m-%dT%H:%M:%SZ", utc: true) }

    /// "2026-11-24": the day of `date` in the local time zone, or at
    /// `offset` seconds east of UTC when one is given.
    public static func isoDay(_ date: Date, offset: Int? = nil) -> String {
        guard let offset else { return format(date, "%Y-%m-%d") }
        return format(date.addingTimeInterval(TimeInterval(offset)), "%Y-%m-%d", utc: true)
    }

    /// `date` by `pattern`, in the local time zone or UTC.
    private static func format(_ date: Date, _ pattern: String, utc: Bool = false) -> String {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        guard (utc ? gmtime_r(&seconds, &parts) : localtime_r(&seconds, &parts)) != nil else { return date.description }
        var buffer = [CChar](repeating: 0, count: 64)
        let count = strftime(&buffer, buffer.count, pattern, &parts)
        let text = String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        // %e and %l pad single digits with a space: "3 Nov", "1:32".
        return text.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
    }
}

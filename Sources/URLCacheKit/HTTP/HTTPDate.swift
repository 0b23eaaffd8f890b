import FoundationEssentials

/// HTTP dates (Date, Expires, Last-Modified), strictly as RFC 9110 §5.6.7
/// writes them: IMF-fixdate ("Sun, 06 Nov 1994 08:49:37 GMT"), and the two
/// obsolete forms a recipient must still read, RFC 850 ("Sunday,
/// 06-Nov-94 08:49:37 GMT") and asctime ("Sun Nov  6 08:49:37 1994").
/// Everything else is no date: "UTC" for "GMT", a two-digit year in
/// IMF-fixdate, a missing comma, a double space, a one-digit hour. RFC 9111
/// §5.3 then makes an Expires that is no date mean "already expired".
/// A pure function in Swift: it used to be libcurl's lenient `curl_getdate`,
/// which took all of those, and loaded libcurl into every pure caller.
public enum HTTPDate {
    /// The date `text` names, or nil when it is none of the three forms.
    public static func parse(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        return imfFixdate(bytes) ?? rfc850(bytes) ?? asctime(bytes)
    }

    static let dayNames = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
    static let longDayNames = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
    static let monthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// "Sun, 06 Nov 1994 08:49:37 GMT": 29 bytes exactly.
    private static func imfFixdate(_ b: [UInt8]) -> Date? {
        var s = DateScanner(b)
        guard s.word(in: dayNames) != nil, s.literal(", "), let day = s.digits(2), s.literal(" "),
            let month = s.word(in: monthNames), s.literal(" "), let year = s.digits(4), s.literal(" "),
            let time = s.timeOfDay(), s.literal(" GMT"), s.atEnd
        else { return nil }
        return CivilTime.date(year: year, month: month + 1, day: day, time: time)
    }

    /// "Sunday, 06-Nov-94 08:49:37 GMT". A two-digit year more than 50
    /// years ahead of now is the most recent past year with those digits
    /// (RFC 9110 §5.6.7).
    private static func rfc850(_ b: [UInt8]) -> Date? {
        var s = DateScanner(b)
        guard s.word(in: longDayNames) != nil, s.literal(", "), let day = s.digits(2), s.literal("-"),
            let month = s.word(in: monthNames), s.literal("-"), let short = s.digits(2), s.literal(" "),
            let time = s.timeOfDay(), s.literal(" GMT"), s.atEnd
        else { return nil }
        let thisYear = CivilTime.year(of: Date())
        var year = thisYear / 100 * 100 + short
        if year > thisYear + 50 { year -= 100 }
        return CivilTime.date(year: year, month: month + 1, day: day, time: time)
    }

    /// "Sun Nov  6 08:49:37 1994": a one-digit day is padded with a space.
    private static func asctime(_ b: [UInt8]) -> Date? {
        var s = DateScanner(b)
        guard s.word(in: dayNames) != nil, s.literal(" "), let month = s.word(in: monthNames), s.literal(" ") else {
            return nil
        }
        let day: Int
        if s.literal(" ") {
            guard let digit = s.digits(1) else { return nil }
            day = digit
        } else {
            guard let digits = s.digits(2) else { return nil }
            day = digits
        }
        guard s.literal(" "), let time = s.timeOfDay(), s.literal(" "), let year = s.digits(4), s.atEnd else {
            return nil
        }
        return CivilTime.date(year: year, month: month + 1, day: day, time: time)
    }
}

/// Reads the exact pieces of a date, byte by byte: no skipping of space,
/// no case folding (RFC 9110's names are case-sensitive).
struct DateScanner {
    private let bytes: [UInt8]
    private var at = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var atEnd: Bool { at == bytes.count }

    /// Exactly `count` ASCII digits.
    mutating func digits(_ count: Int) -> Int? {
        guard at + count <= bytes.count else { return nil }
        var value = 0
        for byte in bytes[at..<at + count] {
            guard (48...57).contains(byte) else { return nil }
            value = value * 10 + Int(byte - 48)
        }
        at += count
        return value
    }

    /// One of `words`, as written; its index.
    mutating func word(in words: [String]) -> Int? {
        for (index, word) in words.enumerated() where literal(word) { return index }
        return nil
    }

    /// `text` exactly, consumed when it is there.
    mutating func literal(_ text: String) -> Bool {
        let wanted = Array(text.utf8)
        guard at + wanted.count <= bytes.count, Array(bytes[at..<at + wanted.count]) == wanted else { return false }
        at += wanted.count
        return true
    }

    /// "08:49:37": two digits each, hour 0–23, minute 0–59, second 0–60
    /// (a leap second).
    mutating func timeOfDay() -> (hour: Int, minute: Int, second: Int)? {
        guard let hour = digits(2), literal(":"), let minute = digits(2), literal(":"), let second = digits(2),
            hour < 24, minute < 60, second <= 60
        else { return nil }
        return (hour, minute, second)
    }
}

/// Proleptic Gregorian dates in UTC to and from seconds since 1970, with
/// no calendar object: days from civil (H. Hinnant's algorithm).
enum CivilTime {
    /// The instant, or nil when the day does not exist (31 Feb).
    static func date(year: Int, month: Int, day: Int, time: (hour: Int, minute: Int, second: Int)) -> Date? {
        guard (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year) else { return nil }
        let seconds =
            days(year: year, month: month, day: day) * 86400 + time.hour * 3600 + time.minute * 60 + time.second
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }

    static func daysIn(month: Int, year: Int) -> Int {
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        return [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
    }

    /// Days since 1970-01-01.
    static func days(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The UTC year `date` falls in.
    static func year(of date: Date) -> Int {
        var days = Int((date.timeIntervalSince1970 / 86400).rounded(.down)) + 719_468
        let era = (days >= 0 ? days : days - 146_096) / 146_097
        days -= era * 146_097
        let yearOfEra = (days - days / 1460 + days / 36524 - days / 146_096) / 365
        let dayOfYear = days - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        return yearOfEra + era * 400 + (monthIndex >= 10 ? 1 : 0)
    }
}

import Foundation

/// The Updated field's format, as the original shows it: medium date, short
/// time, local zone. Shared by the commands and the screen.
public enum UpdatedFormat {
    /// "22 Nov 2026 at 1:15 AM" (the words follow the locale).
    public static func string(_ date: Date) -> String {
        formatter.string(from: date)
    }

    // Made once: a DateFormatter is costly to build, and the screen draws
    // often. (It is Sendable: Foundation locks it inside.)
    private static let formatter: DateFormatter = {
        let formatter = DateFormatter()
        formatter.dateStyle = .medium
        formatter.timeStyle = .short
        formatter.timeZone = .current
        return formatter
    }()
}

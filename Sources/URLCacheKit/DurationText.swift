import FoundationEssentials

/// Spans of time in words, in one place: `words` to the unit that matters
/// (how long is left), `exactly` in the largest whole unit (a setting).
public enum DurationText {
    /// "45 s", "9 min", "3 h 5 min", "2 days".
    public static func words(_ seconds: TimeInterval) -> String {
        let s = Int(seconds.rounded(.up))
        if s < 60 { return "\(s) s" }
        if s < 3600 { return "\(s / 60) min" }
        if s < 2 * 86_400 {
            let minutes = (s % 3600) / 60
            return "\(s / 3600) h" + (minutes > 0 ? " \(minutes) min" : "")
        }
        return "\(s / 86_400) days"
    }

    /// "24 hours", "90 minutes", "30 seconds": exact, as a setting was given.
    public static func exactly(_ interval: TimeInterval) -> String {
        let seconds = Int(interval.rounded())
        if seconds % 3600 == 0 && seconds >= 3600 { return "\(seconds / 3600) hour\(seconds == 3600 ? "" : "s")" }
        if seconds % 60 == 0 && seconds >= 60 { return "\(seconds / 60) minute\(seconds == 60 ? "" : "s")" }
        return "\(seconds) second\(seconds == 1 ? "" : "s")"
    }
}

import Foundation

/// A span of time as people say it, to the unit that matters: "45 s",
/// "9 min", "3 h 5 min", "2 days".
public enum DurationText {
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
}

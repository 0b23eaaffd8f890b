import URLCacheSupport

/// Byte counts for people: "64 MiB", "812 KiB", "17 bytes".
public enum ByteCount {
    public static func format(_ bytes: Int64) -> String {
        if bytes < 1024 { return "\(bytes) byte\(bytes == 1 ? "" : "s")" }
        let units = ["KiB", "MiB", "GiB", "TiB"]
        var value = Double(bytes) / 1024
        var unit = 0
        while value >= 1024, unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        let text =
            value >= 10 || value == value.rounded() ? String(Int(value.rounded())) : CFormat.string("%.1f", value)
        return "\(text) \(units[unit])"
    }
}

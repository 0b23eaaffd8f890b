import FoundationEssentials

/// The name a saved copy gets, `2026-11-24 The Horsehead Nebula.jpg`: the
/// day the image was first seen, its title and its format's extension.
///
/// The title is outside text (a feed's, a list's), and a file name is a
/// path's last part: it must never climb out of the folder, hide itself,
/// carry control bytes into a terminal or `ls`, or pass the file system's
/// 255-byte limit. So it is cleaned here, in one place, as a pure function.
public enum SaveName {
    /// The longest name made, in bytes: under the 255 most file systems
    /// allow, with room for " (99)".
    public static let maximumBytes = 200

    /// The name for an image first seen `date` (a day in `timeZone`),
    /// titled `title`, of `format`.
    public static func make(date: Date, title: String, extension ext: String, timeZone: TimeZone? = nil) -> String {
        let day = dayString(date, timeZone: timeZone)
        let suffix = "." + ext
        let room = maximumBytes - day.utf8.count - 1 - suffix.utf8.count
        let cleaned = clipped(clean(title), toBytes: room)
        return cleaned.isEmpty ? day + suffix : day + " " + cleaned + suffix
    }

    /// What a copy is called: the feed item's title, else the list's name
    /// for the entry, else the image's file name without its extension
    /// ("earth" for …/earth.jpg), else the host.
    public static func title(_ item: HistoryItem, of entry: URLEntry) -> String {
        if let title = item.metadata?.caption.title, !clean(title).isEmpty { return title }
        if let title = entry.title, !clean(title).isEmpty { return title }
        let url = item.metadata?.image.url.flatMap(URL.init(string:)) ?? entry.url
        let stem = url.deletingPathExtension().lastPathComponent
        return clean(stem).isEmpty || stem == "/" ? url.host ?? "image" : stem
    }

    /// The name with a number before its extension, for a name already
    /// taken: "a.jpg", 2 → "a (2).jpg".
    public static func numbered(_ name: String, _ number: Int) -> String {
        guard number > 1 else { return name }
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return name + " (\(number))" }
        return name[..<dot] + " (\(number))" + name[dot...]
    }

    /// A title made safe for one path component: slashes and backslashes
    /// become dashes, control characters (C0, DEL, C1, and the bidi
    /// controls that reorder what `ls` shows) go, runs of white space are
    /// one space, runs of dots one dot, and no dot or space leads or ends it.
    public static func clean(_ title: String) -> String {
        var out = ""
        var lastWasSpace = true  // so that leading spaces go
        for scalar in title.unicodeScalars {
            if scalar == "/" || scalar == "\\" {
                out.unicodeScalars.append("-")
                lastWasSpace = false
            } else if scalar.properties.isWhitespace || isControl(scalar) {
                if !lastWasSpace { out.unicodeScalars.append(" ") }
                lastWasSpace = true
            } else if scalar == ".", out.unicodeScalars.last == "." {
                continue
            } else {
                out.unicodeScalars.append(scalar)
                lastWasSpace = false
            }
        }
        // A name never starts with a dot (hidden, or "..") nor ends with a
        // dot or space (the extension follows; Windows shares refuse them).
        let trimmable: Set<Character> = [".", " "]
        while let first = out.first, trimmable.contains(first) { out.removeFirst() }
        while let last = out.last, trimmable.contains(last) { out.removeLast() }
        return out
    }

    /// The name with the characters FAT and exFAT refuse (`: * ? " < > |`)
    /// made dashes: for a stick that said EINVAL to the name as it was.
    public static func portable(_ name: String) -> String {
        String(name.map { ":*?\"<>|".contains($0) ? "-" : $0 })
    }

    /// At most `limit` UTF-8 bytes of `text`, cut between characters (a
    /// grapheme is never split, so no byte sequence is left half), and
    /// without a trailing space or dot left by the cut.
    public static func clipped(_ text: String, toBytes limit: Int) -> String {
        guard text.utf8.count > limit else { return text }
        var out = ""
        var used = 0
        for character in text {
            let size = character.utf8.count
            guard used + size <= limit else { break }
            out.append(character)
            used += size
        }
        while let last = out.last, last == " " || last == "." { out.removeLast() }
        return out
    }

    /// Bytes no name should hold: C0, DEL and C1 controls, and the bidi
    /// and zero-width format characters that make a name read otherwise
    /// than it is.
    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0..<0x20, 0x7F...0x9F: return true
        // Not U+200C and U+200D: the joiners that emoji and Indic and Persian words need.
        case 0x200B, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069, 0xFEFF: return true
        default: return false
        }
    }

    /// "2026-11-24" in `timeZone`, or in the C library's local zone (TZ,
    /// else /etc/localtime) when none is given: the day a person would say it
    /// came. Not `TimeZone.current`: without FoundationInternationalization
    /// (see `DetachedThread`) that knows no zone but UTC.
    static func dayString(_ date: Date, timeZone: TimeZone?) -> String {
        UpdatedFormat.isoDay(date, offset: timeZone?.secondsFromGMT(for: date))
    }
}

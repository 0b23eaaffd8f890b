import URLCacheSupport

/// Where each part of the screen goes for a terminal size: a pure function.
///
/// ```
/// row 0            title: app name, entry title, "2 of 3"
/// rows 1…n-6       the image, centred in this area
/// row n-5          status (or the progress bar while loading)
/// row n-4          Updated: <date>
/// row n-3 … n-2    the info line (wrapped to two lines when narrow)
/// row n-1          the toolbar
/// ```
public struct Layout: Equatable, Sendable {
    /// The smallest terminal with room for everything.
    public static let minimum = (columns: 40, rows: 12)

    public let columns: Int
    public let rows: Int
    public let titleRow: Int
    /// The image area: top row, rows, and every column.
    public let imageTop: Int
    public let imageRows: Int
    public let statusRow: Int
    public let updatedRow: Int
    public let infoRow: Int
    public let infoLines: Int
    public let toolbarRow: Int

    /// nil when the terminal is too small (under 40×12).
    public init?(columns: Int, rows: Int) {
        guard columns >= Layout.minimum.columns, rows >= Layout.minimum.rows else { return nil }
        self.columns = columns
        self.rows = rows
        titleRow = 0
        toolbarRow = rows - 1
        infoLines = 2
        infoRow = toolbarRow - infoLines
        updatedRow = infoRow - 1
        statusRow = updatedRow - 1
        imageTop = 1
        imageRows = statusRow - imageTop
    }

    /// The info line, in the original's words when they fit, else shorter.
    public static func infoText(interval: String, width: Int) -> [String] {
        let candidates = [
            "The cached image is updated if \(interval) has elapsed since the last update and you press the Display Image button.",
            "Updated if \(interval) has elapsed since the last update and you press Display Image.",
            "Re-checked after \(interval) on Display Image.",
        ]
        for text in candidates {
            let lines = wrap(text, width: width)
            if lines.count <= 2 { return lines }
        }
        return [candidates[2].prefix(columns: width)]
    }

    /// Words wrapped to lines of at most `width` columns (a CJK character
    /// or an emoji takes two); a word wider than a line is broken inside.
    static func wrap(_ text: String, width: Int) -> [String] {
        let width = max(1, width)
        var lines: [String] = []
        var line = ""
        for piece in text.split(separator: " ") {
            var word = String(piece)
            while word.columns > width {
                let room = line.isEmpty ? width : width - line.columns - 1
                if room <= 0 {
                    lines.append(line)
                    line = ""
                    continue
                }
                var head = word.prefix(columns: room)
                if head.isEmpty {
                    // Not even one character fits beside what is there, or
                    // at all (a wide character in a one-column line).
                    guard line.isEmpty else {
                        lines.append(line)
                        line = ""
                        continue
                    }
                    head = String(word.prefix(1))
                }
                lines.append(line.isEmpty ? head : line + " " + head)
                line = ""
                word = String(word.dropFirst(head.count))
            }
            if line.isEmpty {
                line = word
            } else if line.columns + 1 + word.columns <= width {
                line += " " + word
            } else {
                lines.append(line)
                line = word
            }
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }
}

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
        return [String(candidates[2].prefix(width))]
    }

    /// Words wrapped to lines of at most `width` characters.
    static func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            if line.isEmpty {
                line = String(word)
            } else if line.count + 1 + word.count <= width {
                line += " " + word
            } else {
                lines.append(line)
                line = String(word)
            }
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }
}

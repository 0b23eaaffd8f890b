import URLCacheKit
import URLCacheSupport

/// A box over the screen laid out for a terminal size: its frame, the
/// lines it shows after scrolling, and its buttons. A pure function of the
/// box, the words and the layout, so that the view draws it and the logic
/// maps a click or a scroll key onto it from one description.
public struct Box: Equatable, Sendable {
    /// A button in the box's bottom line and the key it stands for.
    public struct BoxButton: Equatable, Sendable {
        public let label: String
        public let key: Key
        public let row: Int
        public let column: Int
        public var columns: Range<Int> { column..<(column + label.columns) }
    }

    public let top: Int
    public let left: Int
    public let width: Int
    public let height: Int
    /// The first line, in bold.
    public let heading: String
    /// The lines of text shown, after scrolling.
    public let lines: [String]
    /// The line of text first shown, and how many there are in all.
    public let first: Int
    public let total: Int
    /// How far the text scrolls: 0 when it all fits.
    public let maxScroll: Int
    public let buttons: [BoxButton]

    /// Whether lines are hidden above or below (then the bottom line says so).
    public var scrolls: Bool { maxScroll > 0 }

    /// The row the scroll hint goes on: above the buttons when there are some.
    public var hintRow: Int { top + height - (buttons.isEmpty ? 2 : 3) }

    /// "lines 12–30 of 45 · j k PgUp PgDn" when the text scrolls.
    public var scrollHint: String? {
        scrolls ? "lines \(first + 1)–\(first + lines.count) of \(total) · j k PgUp PgDn" : nil
    }

    /// Lays out `overlay` in `layout`, its text scrolled down `scroll` lines
    /// (clamped to what there is).
    public static func make(
        _ overlay: ScreenState.Overlay,
        caption: ScreenState.Caption?,
        layout: Layout,
        scroll: Int
    ) -> Box {
        let width = min(layout.columns - 4, 64)
        let (heading, body, labels) = content(overlay, caption: caption, width: width - 4)
        // The heading, borders, and the buttons or the scroll hint with the
        // blank line above them take five rows; both, two more.
        let room = max(1, layout.rows - (labels.isEmpty ? 7 : 9))
        let shown = min(body.count, room)
        let maxScroll = body.count - shown
        let first = max(0, min(scroll, maxScroll))
        let bottomLines = (labels.isEmpty ? 0 : 1) + (maxScroll > 0 ? 1 : 0)
        let height = 1 + shown + 2 + (bottomLines > 0 ? bottomLines + 1 : 0)
        let top = max(0, (layout.rows - height) / 2)
        let left = (layout.columns - width) / 2
        var buttons: [BoxButton] = []
        var column = left + (width - (labels.map(\.0.columns).reduce(0, +) + 2 * max(0, labels.count - 1))) / 2
        for (label, key) in labels {
            buttons.append(BoxButton(label: label, key: key, row: top + height - 2, column: column))
            column += label.columns + 2
        }
        return Box(
            top: top,
            left: left,
            width: width,
            height: height,
            heading: heading,
            lines: Array(body[first..<(first + shown)]),
            first: first,
            total: body.count,
            maxScroll: maxScroll,
            buttons: buttons
        )
    }

    /// The key a click at a cell stands for: a button's.
    public func key(atRow row: Int, column: Int) -> Key? {
        buttons.first { $0.row == row && $0.columns.contains(column) }?.key
    }

    /// The heading, the text wrapped to `width`, and the buttons.
    static func content(
        _ overlay: ScreenState.Overlay,
        caption: ScreenState.Caption?,
        width: Int
    ) -> (String, [String], [(String, Key)]) {
        switch overlay {
        case let .alert(message):
            return ("Error", Layout.wrap(message, width: width), [("[ OK (Enter) ]", .enter)])
        case .confirmClear:
            return (
                "Clear Cache", Layout.wrap("Do you really want to clear the cache?", width: width),
                [("[ OK (y) ]", .character("y")), ("[ Cancel (n) ]", .character("n"))]
            )
        case .help:
            return ("Keys", helpLines + ["", "Any other key closes this box."], [])
        case .about:
            var body: [String] = []
            if let credit = caption?.credit { body += Layout.wrap("© " + credit.terminalSafe, width: width) }
            body.append("")
            // Each line break of the description is kept; a blank line stays blank.
            let text = caption?.description ?? "No description came with this image."
            for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
                let words = String(paragraph).terminalSafe.trimmingSpaces
                body += words.isEmpty ? [""] : Layout.wrap(words, width: width)
            }
            if let link = caption?.link { body += [""] + Layout.wrap(link.terminalSafe, width: width) }
            if let size = caption?.size { body += [""] + Layout.wrap("Size: " + size, width: width) }
            return (caption?.title?.terminalSafe ?? "About this image", body, [])
        case let .catalogue(chosen):
            let lines = Catalogue.sources.enumerated().map { index, source in
                (index == chosen ? "▸ " : "  ") + String((source.name + String(repeating: " ", count: 18)).prefix(18))
                    + source.title
            }
            return (
                "Add a source", lines.map { String($0.prefix(width)) },
                [("[ Add (Enter) ]", .enter), ("[ Cancel (Esc) ]", .escape)]
            )
        }
    }

    /// The keys, as the table that maps them writes them.
    static let helpLines = KeyTable.helpLines
}

extension ScreenState {
    /// The open box, laid out as it is drawn: what a click or a scroll key
    /// is mapped onto.
    public func box(in layout: Layout) -> Box? {
        overlay.map { Box.make($0, caption: caption, layout: layout, scroll: boxScroll) }
    }
}

extension String {
    fileprivate var trimmingSpaces: String {
        String(
            drop(while: { $0 == " " || $0 == "\r" || $0 == "\t" }).reversed().drop(while: {
                $0 == " " || $0 == "\r" || $0 == "\t"
            }).reversed()
        )
    }
}

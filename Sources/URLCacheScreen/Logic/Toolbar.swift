/// The buttons along the bottom, with their keys: the original's two first.
public enum Button: CaseIterable, Sendable {
    case displayImage, clearCache, previous, next, recheck, help, quit

    /// The label shown, with its key.
    public var label: String {
        switch self {
        case .displayImage: return "Display Image (d)"
        case .clearCache: return "Clear Cache (c)"
        case .previous: return "← Prev"
        case .next: return "Next →"
        case .recheck: return "Re-check (r)"
        case .help: return "Help (?)"
        case .quit: return "Quit (q)"
        }
    }

    /// A shorter label for narrow terminals.
    public var shortLabel: String {
        switch self {
        case .displayImage: return "Display(d)"
        case .clearCache: return "Clear(c)"
        case .previous: return "←"
        case .next: return "→"
        case .recheck: return "r"
        case .help: return "?"
        case .quit: return "q"
        }
    }
}

/// The toolbar laid out in a width: each button's label and column span.
public struct Toolbar: Equatable, Sendable {
    public struct Item: Equatable, Sendable {
        public let button: Button
        public let text: String
        public let column: Int
        public var range: Range<Int> { column..<(column + text.count) }
    }
    public let items: [Item]

    /// Full labels when they fit; else the original's two buttons in full
    /// and the rest short; else all short (and what still does not fit is left out).
    public init(width: Int) {
        var items: [Item] = []
        for fullCount in [Button.allCases.count, 2, 0] {
            items = []
            var column = 1
            for (i, button) in Button.allCases.enumerated() {
                let text = "[ \(i < fullCount ? button.label : button.shortLabel) ]"
                items.append(Item(button: button, text: text, column: column))
                column += text.count + 1
            }
            if column <= width { break }
        }
        self.items = items.filter { $0.range.upperBound <= width }
    }

    /// The button under a column, if any.
    public func button(at column: Int) -> Button? {
        items.first { $0.range.contains(column) }?.button
    }
}

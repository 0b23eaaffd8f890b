import URLCacheSupport

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
        public var range: Range<Int> { column..<(column + text.columns) }
    }
    public let items: [Item]

    /// Buttons given up, in this order, when even the tightest labels do not
    /// fit: the two arrows together (← → still work, and the title says
    /// "2 of 3"), then re-check, Clear Cache and Display Image. Help and Quit
    /// always show.
    public static let dropOrder: [[Button]] = [[.previous, .next], [.recheck], [.clearCache], [.displayImage]]

    /// Full labels when they fit; else the original's two buttons in full
    /// and the rest short; else all short; else all short and tight; then
    /// buttons given up in `dropOrder` until the rest fit.
    public init(width: Int) {
        func layout(_ buttons: [Button], _ text: (Int, Button) -> String) -> [Item] {
            var items: [Item] = []
            var column = 1
            for (i, button) in buttons.enumerated() {
                let label = text(i, button)
                items.append(Item(button: button, text: label, column: column))
                column += label.columns + 1
            }
            return items
        }
        func fits(_ items: [Item]) -> Bool { (items.last?.range.upperBound ?? 0) <= width }
        let all = Button.allCases
        for fullCount in [all.count, 2, 0] {
            let items = layout(all) { i, button in "[ \(i < fullCount ? button.label : button.shortLabel) ]" }
            if fits(items) {
                self.items = items
                return
            }
        }
        var kept = all
        var items = layout(kept) { _, button in "[\(button.shortLabel)]" }
        for dropped in Toolbar.dropOrder where !fits(items) {
            kept.removeAll { dropped.contains($0) }
            items = layout(kept) { _, button in "[\(button.shortLabel)]" }
        }
        self.items = items.filter { $0.range.upperBound <= width }
    }

    /// The button under a column, if any.
    public func button(at column: Int) -> Button? {
        items.first { $0.range.contains(column) }?.button
    }
}

import URLCacheSupport

/// The buttons along the bottom, with their keys: the original's two first.
public enum Button: CaseIterable, Sendable {
    case displayImage, clearCache, previous, next, recheck, help, quit

    /// What pressing it asks: what its key asks.
    public var command: Command {
        switch self {
        case .displayImage: return .display
        case .clearCache: return .clearCache
        case .previous: return .previous
        case .next: return .next
        case .recheck: return .recheck
        case .help: return .help
        case .quit: return .quit
        }
    }

    /// The label shown, with its key from `KeyTable` ("Display Image (d)").
    public var label: String {
        switch self {
        case .displayImage: return "Display Image" + key
        case .clearCache: return "Clear Cache" + key
        // The arrows are the keys.
        case .previous: return "← Prev"
        case .next: return "Next →"
        case .recheck: return "Re-check" + key
        case .help: return "Help" + key
        case .quit: return "Quit" + key
        }
    }

    /// A shorter label for narrow terminals: "Display(d)", or the key alone.
    public var shortLabel: String {
        let letter = KeyTable.letter(for: command).map(String.init) ?? ""
        switch self {
        case .displayImage: return "Display(\(letter))"
        case .clearCache: return "Clear(\(letter))"
        case .previous: return "←"
        case .next: return "→"
        case .recheck, .help, .quit: return letter
        }
    }

    /// " (d)": the key the table binds to the button's command.
    private var key: String { KeyTable.letter(for: command).map { " (\($0))" } ?? "" }
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

import URLCacheSupport

/// What a key asks of the screen. The logic acts on these; which key asks
/// for which is `KeyTable`'s.
public enum Command: Sendable, Hashable {
    case display, recheck, clearCache, previous, next, cancel, pixels, older, newer
    case gallery, galleryHistory, about, save, offline, help, quit
    case zoomIn, zoomOut, fit, panLeft, panRight, panUp, panDown
    case playback, nextFrame, suspend, addSource
    case scrollDown, scrollUp, pageDown, pageUp
    case moveLeft, moveRight, moveUp, moveDown, open, back
}

/// Where a key means its command: keys mean other things elsewhere
/// (`h` is help at fit and pans a zoomed view; `j` scrolls a box).
public enum KeyScope: Sendable, Equatable {
    /// The screen with no box open.
    case screen
    /// A picture on screen and no box: the zoom and the pans.
    case view
    /// As `view`, once zoomed in.
    case zoomed
    /// An open box that scrolls.
    case box
    /// A box one reads (help, about): paged as `less` pages.
    case reading
    /// The gallery, with no box over it.
    case gallery
    /// Wherever the screen is: boxes, the gallery and downloads included.
    case anywhere
}

/// One key and what it asks where.
public struct KeyBinding: Sendable, Equatable {
    public let key: Key
    public let command: Command
    public let scope: KeyScope
}

/// One line of the help: the keys as it writes them, what they do, and
/// the bindings behind it.
public struct KeyRow: Sendable {
    public let keys: String
    public let meaning: String
    public let bindings: [KeyBinding]
    /// Whether the help lists it (the gallery says its own keys).
    public var inHelp = true

    init(_ keys: String, _ meaning: String, _ bindings: [(key: Key, command: Command)], in scope: KeyScope = .screen) {
        self.keys = keys
        self.meaning = meaning
        self.bindings = bindings.map { KeyBinding(key: $0.key, command: $0.command, scope: scope) }
    }

    init(_ keys: String, _ meaning: String, scoped bindings: [KeyBinding]) {
        (self.keys, self.meaning, self.bindings) = (keys, meaning, bindings)
    }

    /// A row of the gallery's keys, which the help does not list.
    static func gallery(_ keys: String, _ meaning: String, _ bindings: [(key: Key, command: Command)]) -> KeyRow {
        var row = KeyRow(keys, meaning, bindings, in: .gallery)
        row.inHelp = false
        return row
    }
}

/// The screen's keys, once: the help is written from this table, the
/// toolbar's labels name its keys, and the logic looks keys up in it. A
/// new key is a new row.
public enum KeyTable {
    public static let rows: [KeyRow] = [
        KeyRow("d, Enter", "Display Image", [(.character("d"), .display), (.enter, .display)]),
        KeyRow("r", "re-check now", [(.character("r"), .recheck)]),
        KeyRow("c", "Clear Cache", [(.character("c"), .clearCache)]),
        KeyRow(
            "← → / p n",
            "previous / next image",
            [(.left, .previous), (.right, .next), (.character("p"), .previous), (.character("n"), .next)]
        ),
        KeyRow("Esc", "cancel a download", [(.escape, .cancel)]),
        KeyRow("f", "pixels / block art", [(.character("f"), .pixels)]),
        KeyRow("[ ]", "older / newer kept image", [(.character("["), .older), (.character("]"), .newer)]),
        KeyRow(
            "g G",
            "gallery: every entry / this one's kept images",
            [(.character("g"), .gallery), (.character("G"), .galleryHistory)]
        ),
        KeyRow("i", "about this image", [(.character("i"), .about)]),
        KeyRow("a", "add a source from the catalogue", [(.character("a"), .addSource)]),
        KeyRow(
            "+ - 0",
            "zoom in / out / fit (the wheel too)",
            [
                (.character("+"), .zoomIn), (.character("="), .zoomIn), (.character("-"), .zoomOut),
                (.character("0"), .fit),
            ],
            in: .view
        ),
        // At fit, h stays help and j k l do nothing.
        KeyRow(
            "h j k l",
            "pan a zoomed view (Shift+arrows, a drag)",
            scoped: [
                KeyBinding(key: .character("h"), command: .panLeft, scope: .zoomed),
                KeyBinding(key: .character("j"), command: .panDown, scope: .view),
                KeyBinding(key: .character("k"), command: .panUp, scope: .view),
                KeyBinding(key: .character("l"), command: .panRight, scope: .view),
                KeyBinding(key: .shiftLeft, command: .panLeft, scope: .view),
                KeyBinding(key: .shiftRight, command: .panRight, scope: .view),
                KeyBinding(key: .shiftUp, command: .panUp, scope: .view),
                KeyBinding(key: .shiftDown, command: .panDown, scope: .view),
            ]
        ),
        KeyRow("space .", "pause / step an animation", [(.character(" "), .playback), (.character("."), .nextFrame)]),
        KeyRow("s", "save a copy (~/Pictures/urlcache)", [(.character("s"), .save)]),
        KeyRow(
            "j k",
            "scroll a long box (PgUp PgDn too)",
            scoped: [
                KeyBinding(key: .character("j"), command: .scrollDown, scope: .box),
                KeyBinding(key: .down, command: .scrollDown, scope: .box),
                KeyBinding(key: .character("k"), command: .scrollUp, scope: .box),
                KeyBinding(key: .up, command: .scrollUp, scope: .box),
                KeyBinding(key: .pageDown, command: .pageDown, scope: .box),
                KeyBinding(key: .pageUp, command: .pageUp, scope: .box),
                // Only where they close nothing: an alert's Space is its OK.
                KeyBinding(key: .character(" "), command: .pageDown, scope: .reading),
                KeyBinding(key: .character("b"), command: .pageUp, scope: .reading),
            ]
        ),
        KeyRow("o", "offline on / off", [(.character("o"), .offline)]),
        KeyRow("?", "this help", [(.character("?"), .help), (.character("h"), .help)]),
        KeyRow("q", "quit", [(.character("q"), .quit), (.interrupt, .quit)]),
        KeyRow("Ctrl-Z", "suspend (fg brings it back)", [(.suspend, .suspend)], in: .anywhere),
        // The gallery's own keys; its title line says the main ones.
        KeyRow.gallery(
            "← → ↑ ↓ / h l k j, PgUp PgDn",
            "move",
            [
                (.left, .moveLeft), (.character("h"), .moveLeft), (.right, .moveRight), (.character("l"), .moveRight),
                (.up, .moveUp), (.character("k"), .moveUp), (.down, .moveDown), (.character("j"), .moveDown),
                (.pageUp, .pageUp), (.pageDown, .pageDown),
            ]
        ),
        KeyRow.gallery("Enter", "open the chosen tile", [(.enter, .open)]),
        KeyRow.gallery(
            "Esc g G",
            "back to the picture",
            [(.escape, .back), (.character("g"), .back), (.character("G"), .back)]
        ),
        KeyRow.gallery(
            "r ? f q",
            "re-check the tile's entry, help, pixels, quit",
            [
                (.character("r"), .recheck), (.character("?"), .help), (.character("f"), .pixels),
                (.character("q"), .quit), (.interrupt, .quit),
            ]
        ),
    ]

    /// Every binding, in the table's order.
    public static let bindings: [KeyBinding] = rows.flatMap(\.bindings)

    /// What `key` asks in the first of `scopes` that binds it.
    public static func command(for key: Key, in scopes: KeyScope...) -> Command? {
        for scope in scopes {
            if let binding = bindings.first(where: { $0.key == key && $0.scope == scope }) { return binding.command }
        }
        return nil
    }

    /// The first character key that asks `command`, for a label: "d".
    public static func letter(for command: Command) -> Character? { letters[command] }

    /// Each command's first character key, found once: the toolbar's
    /// labels read them at every draw.
    private static let letters: [Command: Character] = {
        var table: [Command: Character] = [:]
        for binding in bindings where table[binding.command] == nil {
            if case let .character(letter) = binding.key { table[binding.command] = letter }
        }
        return table
    }()

    /// The keys for `urlcache show --help` and so for the man page: every
    /// row, the gallery's under a heading of their own, in ASCII, since
    /// generate-manual drops every other character.
    public static let manualLines: [String] = {
        func lines(_ rows: [KeyRow]) -> [String] {
            let arrows: [Character: String] = ["←": "Left", "→": "Right", "↑": "Up", "↓": "Down"]
            let keys = rows.map { row in row.keys.map { arrows[$0] ?? String($0) }.joined() }
            // Keys wider than the column have their meaning on a line of its own,
            // so that an 80-column --help does not wrap it.
            let width = min(keys.map(\.count).max() ?? 0, 18) + 2
            var lines: [String] = []
            for (keys, row) in zip(keys, rows) {
                if keys.count + 2 > width {
                    lines += ["  " + keys, String(repeating: " ", count: width + 2) + row.meaning]
                } else {
                    lines.append("  " + keys + String(repeating: " ", count: width - keys.count) + row.meaning)
                }
            }
            return lines
        }
        return ["The screen's keys:"] + lines(rows.filter(\.inHelp)) + ["", "In the gallery:"]
            + lines(rows.filter { !$0.inHelp })
    }()

    /// The help's lines: the keys in a column of their own. Made once: the
    /// help box is laid out at every draw while it is open.
    public static let helpLines: [String] = {
        let shown = rows.filter(\.inHelp)
        let width = (shown.map(\.keys.columns).max() ?? 0) + 2
        return shown.map { $0.keys + String(repeating: " ", count: max(1, width - $0.keys.columns)) + $0.meaning }
    }()
}

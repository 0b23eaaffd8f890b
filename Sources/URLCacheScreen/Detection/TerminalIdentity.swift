import BlockArt

/// Who the terminal is: from the environment when it names one, else from
/// what the terminal answered to the CSI queries every terminal parses
/// (`TerminalQuery.identify`). Pure rules, so that each terminal's answers
/// are unit-tested as they were seen.
enum TerminalIdentity {
    /// A terminal the environment names, and what it can show.
    struct Known {
        var name: String
        var format: PictureFormat
        var symbols: SymbolSet
        var truecolor: Bool
        /// The most colours that reach the screen, whatever COLORTERM says
        /// (it leaks in from the terminal a multiplexer was started in).
        var colorCap: ColorMode? = nil
    }

    /// Who the environment says the terminal is; nil when it does not
    /// decide (then the terminal is asked). Multiplexers come first: the
    /// variables of the terminal outside them leak in.
    static func known(_ env: [String: String]) -> Known? {
        let term = env["TERM"] ?? ""
        let program = env["TERM_PROGRAM"] ?? ""
        // Zellij answers the queries itself, for what the terminal outside
        // draws, and passes on the environment of whatever terminal started
        // its session (maybe another one): it is asked, never named.
        // (zellij-server/src/panes/grid.rs, v0.45.0.)
        if isSet(env, "ZELLIJ") { return nil }
        if isSet(env, "TMUX") || term.hasPrefix("tmux") || program == "tmux" {
            return Known(name: "tmux", format: .symbols, symbols: .blocks, truecolor: false)
        }
        if isSet(env, "STY") || term.hasPrefix("screen") {
            // screen 4.9 reads 38;2;r;g;b as separate attributes (2 is dim),
            // and 5.0 drops direct colour unless told `truecolor on`
            // (src/ansi.c SelectRendition, src/display.c SetColor): 256.
            return Known(
                name: "GNU screen",
                format: .symbols,
                symbols: .blocks,
                truecolor: false,
                colorCap: .palette256
            )
        }
        if let graphics = graphicsTerminal(env, term: term, program: program) { return graphics }
        // VS Code's terminal (xterm.js) draws pictures only when the user
        // turned them on: asked. It keeps a WT_SESSION it was started with.
        if program == "vscode" { return nil }
        return textTerminal(env, term: term)
    }

    /// Whether the environment has `name`, not empty.
    private static func isSet(_ env: [String: String], _ name: String) -> Bool { !(env[name] ?? "").isEmpty }

    /// kitty, Ghostty, WezTerm, iTerm2 and Contour, told by their TERM or
    /// TERM_PROGRAM (iTerm2 over ssh by LC_TERMINAL).
    private static func graphicsTerminal(_ env: [String: String], term: String, program: String) -> Known? {
        if term == "xterm-kitty" || isSet(env, "KITTY_WINDOW_ID") {
            return Known(name: "kitty", format: .kitty, symbols: .sextants, truecolor: true)
        }
        if term == "xterm-ghostty" || program == "ghostty" {
            return Known(name: "Ghostty", format: .kitty, symbols: .sextants, truecolor: true)
        }
        if program == "WezTerm" { return Known(name: "WezTerm", format: .kitty, symbols: .sextants, truecolor: true) }
        // iTerm2 sends LC_TERMINAL over ssh, where TERM_PROGRAM does not go.
        if program == "iTerm.app" || (program.isEmpty && env["LC_TERMINAL"] == "iTerm2") {
            return Known(name: "iTerm2", format: .iterm, symbols: .blocks, truecolor: true)
        }
        // Contour: sixel in every version; its kitty graphics (0.7) take no
        // compressed pixels, which urlcache sends (Screen.cpp, v0.7.0).
        if term == "contour" || program == "contour" {
            return Known(name: "Contour", format: .sixel, symbols: .blocks, truecolor: true)
        }
        return nil
    }

    /// Konsole, foot, mlterm, st, alacritty, Windows Terminal, the VTE
    /// terminals and the Linux console: told by TERM or a variable of their own.
    private static func textTerminal(_ env: [String: String], term: String) -> Known? {
        if let version = env["KONSOLE_VERSION"].flatMap({ Int($0) }) {
            // Konsole draws kitty's graphics since 22.04.
            return Known(
                name: "Konsole",
                format: version >= 220400 ? .kitty : .symbols,
                symbols: .blocks,
                truecolor: true
            )
        }
        if term.hasPrefix("foot") { return Known(name: "foot", format: .sixel, symbols: .sextants, truecolor: true) }
        if term.hasPrefix("mlterm") { return Known(name: "mlterm", format: .sixel, symbols: .blocks, truecolor: true) }
        // st answers DA1 alone, so only its TERM tells; it has drawn direct
        // colour since 0.6, whatever its 256-colour terminfo entry says.
        if term == "st" || term.hasPrefix("st-") {
            return Known(name: "st", format: .symbols, symbols: .blocks, truecolor: true)
        }
        if term.hasPrefix("alacritty") {
            return Known(name: "alacritty", format: .symbols, symbols: .blocks, truecolor: true)
        }
        if isSet(env, "WT_SESSION") {
            return Known(name: "Windows Terminal", format: .sixel, symbols: .blocks, truecolor: true)
        }
        if let vte = env["VTE_VERSION"].flatMap({ Int($0) }) {
            // GNOME Terminal and the other VTE terminals: no pixels in the
            // VTE builds distributions ship; direct colour since 0.36.
            return Known(name: "VTE", format: .symbols, symbols: .blocks, truecolor: vte >= 3600)
        }
        if term == "linux" { return Known(name: "Linux console", format: .symbols, symbols: .halves, truecolor: false) }
        return nil
    }

    /// What a terminal's answers to the CSI queries tell.
    struct Answered: Equatable {
        /// What it was taken for, for `probe`.
        var name: String
        /// It parses DCS and APC strings, so the second burst (kitty's
        /// query, XTGETTCAP, DECRQSS) is swallowed, never printed.
        var parsesStrings: Bool
        /// Its answers alone prove direct colour.
        var truecolor: Bool
    }

    /// Reads XTVERSION, DA2 and DA1. A terminal that answers XTVERSION sends
    /// DCS itself, and one with sixel (DA1 4) parses DCS, so both parse the
    /// strings (but iTerm2, which may show an APC); so does VTE.
    /// rxvt-unicode, qterminal and zutty print an APC as text, and answer
    /// neither, so they are never sent one.
    static func answered(_ replies: TerminalReplies) -> Answered {
        let da1 = replies.deviceAttributes ?? []
        let da2 = replies.secondaryAttributes ?? []
        if let version = replies.version {
            return Answered(
                name: version,
                parsesStrings: !drawsITermImages(version),
                truecolor: versionDrawsDirectColor(version)
            )
        }
        let sixel = replies.sixel
        switch (da2.first, da2.count >= 2 ? da2[1] : 0) {
        case (65, let v):
            return Answered(name: "VTE \(v) (DA2 65)", parsesStrings: true, truecolor: v >= 3600)
        case (85, let v):
            return Answered(name: "rxvt-unicode \(v) (DA2 85)", parsesStrings: false, truecolor: false)
        case (64, 0) where da1 == [64, 1, 9, 15, 21, 22]:
            // zutty: its DA1 and DA2 are fixed, and it draws direct colour.
            return Answered(name: "zutty (DA1 and DA2)", parsesStrings: false, truecolor: true)
        default:
            let numbers = da2.isEmpty ? "" : " (DA2 \(da2.map(String.init).joined(separator: ";")))"
            return Answered(name: "unknown" + numbers, parsesStrings: sixel, truecolor: false)
        }
    }

    /// The patch number in xterm's name for itself, `XTerm(379)` (from
    /// XTVERSION or XTERM_VERSION); nil when there is none.
    static func xtermPatch(_ name: String) -> Int? {
        name.split(separator: "(").last.flatMap { Int($0.prefix { $0.isNumber }) }
    }

    /// xterm has had direct colour since patch 331.
    static func xtermDrawsDirectColor(patch: Int?) -> Bool { (patch ?? 0) >= 331 }

    /// Whether the terminal outside tmux draws kitty's Unicode placeholders,
    /// from its XTVERSION answer as tmux heard it (`kitty(0.35.2)`, kitty
    /// since 0.28; `ghostty 1.1.3`) or its TERM.
    static func drawsPlaceholders(termType: String, termName: String) -> Bool {
        let type = termType.lowercased()
        if type.hasPrefix("ghostty") || termName == "xterm-ghostty" { return true }
        guard type.hasPrefix("kitty(") else { return false }
        let numbers = type.dropFirst("kitty(".count).prefix { $0 != ")" }.split(separator: ".").map { Int($0) ?? 0 }
        guard numbers.count >= 2 else { return false }
        return (numbers[0], numbers[1]) >= (0, 28)
    }

    /// Zellij before 0.45 said sixel (DA1 4) whatever the terminal outside
    /// draws (grid.rs, v0.44.3); from 0.45 (`Zellij(4500)`) it says it only
    /// where that terminal does.
    static func claimsSixelRegardless(_ version: String?) -> Bool {
        guard let version, version.hasPrefix("Zellij(") else { return false }
        return (Int(version.dropFirst("Zellij(".count).prefix { $0.isNumber }) ?? 0) < 4500
    }

    /// iTerm2 names itself in XTVERSION ("iTerm2 3.5.15", VT100Output.m
    /// reportExtendedDeviceAttribute): its own inline images, whatever
    /// else it answers. Its sixel has 256 registers, its kitty graphics
    /// came in 3.5.6, and before that it made kitty's query its window's
    /// title (VT100XtermParser.m, v3.5.0), so it is not sent one.
    static func drawsITermImages(_ version: String?) -> Bool {
        version?.hasPrefix("iTerm2 ") == true
    }

    /// Contour 0.7 answers kitty's query but refuses compressed pixels
    /// (`o=z`), which urlcache sends: sixel there, in every version.
    static func kittyRefusesCompression(_ version: String?) -> Bool {
        version?.lowercased().hasPrefix("contour") == true
    }

    /// XTVERSION answers of terminals known to draw direct colour.
    static func versionDrawsDirectColor(_ version: String) -> Bool {
        if version.hasPrefix("XTerm(") { return xtermDrawsDirectColor(patch: xtermPatch(version)) }
        let direct = [
            "kitty", "WezTerm", "foot", "Konsole", "ghostty", "contour", "mlterm", "iTerm2", "mintty", "xterm.js",
            // Zellij passes direct colour on whatever the terminal outside.
            "Zellij(",
            // Warp sets COLORTERM=truecolor in its own shells, which plain
            // ssh does not carry (app/src/terminal/local_tty/unix.rs).
            "Warp(",
        ]
        return direct.contains { version.lowercased().hasPrefix($0.lowercased()) }
    }

    /// A DECRQSS answer that still holds the direct colour just set: the
    /// terminal kept all 24 bits (one that maps it to its palette answers
    /// `38;5;N`).
    static func renditionKeepsDirectColor(_ rendition: String?) -> Bool {
        guard let rendition else { return false }
        return rendition.contains("38:2:") || rendition.contains("38;2;")
    }
}

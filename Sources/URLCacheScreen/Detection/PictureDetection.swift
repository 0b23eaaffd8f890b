import BlockArt
#if canImport(Glibc)
import Glibc
#endif

/// What `auto` chose, and why: for `render`, the screen and `probe`.
public struct Detection: Sendable {
    public var format: PictureFormat
    public var colors: ColorMode
    public var symbols: SymbolSet
    /// Sixel colour registers to use.
    public var registers: Int
    /// A cell's size in pixels, when a reply said.
    public var cellPixels: (width: Int, height: Int)?
    /// What the terminal was taken for ("kitty", "xterm", …).
    public var terminal: String
    /// The evidence, one line each, for `urlcache probe`.
    public var reasons: [String]
}

/// The rules of `--format auto`, the default colours and the default
/// glyphs: a pure function of the environment and the terminal's replies.
/// Like chafa's and timg's, they know which terminals take direct colour
/// and pixels whatever terminfo says.
public enum PictureDetection {
    /// A terminal the environment names, and what it can show.
    struct Known {
        var name: String
        var format: PictureFormat
        var symbols: SymbolSet
        var truecolor: Bool
    }

    /// Who the environment says the terminal is; nil when it does not
    /// decide (then the terminal is asked). Multiplexers come first: the
    /// variables of the terminal outside them leak in.
    static func known(_ env: [String: String]) -> Known? {
        let term = env["TERM"] ?? ""
        let program = env["TERM_PROGRAM"] ?? ""
        func set(_ name: String) -> Bool { !(env[name] ?? "").isEmpty }
        if set("TMUX") || term.hasPrefix("tmux") || program == "tmux" {
            return Known(name: "tmux", format: .symbols, symbols: .quadrants, truecolor: false)
        }
        if set("STY") || term.hasPrefix("screen") {
            return Known(name: "GNU screen", format: .symbols, symbols: .quadrants, truecolor: false)
        }
        if term == "xterm-kitty" || set("KITTY_WINDOW_ID") { return Known(name: "kitty", format: .kitty, symbols: .sextants, truecolor: true) }
        if term == "xterm-ghostty" || program == "ghostty" { return Known(name: "Ghostty", format: .kitty, symbols: .sextants, truecolor: true) }
        if program == "WezTerm" { return Known(name: "WezTerm", format: .kitty, symbols: .sextants, truecolor: true) }
        if program == "iTerm.app" { return Known(name: "iTerm2", format: .iterm, symbols: .quadrants, truecolor: true) }
        if let version = env["KONSOLE_VERSION"].flatMap({ Int($0) }) {
            // Konsole draws kitty's graphics since 22.04.
            return Known(name: "Konsole", format: version >= 220400 ? .kitty : .symbols, symbols: .quadrants, truecolor: true)
        }
        if term.hasPrefix("foot") { return Known(name: "foot", format: .sixel, symbols: .sextants, truecolor: true) }
        if term.hasPrefix("mlterm") { return Known(name: "mlterm", format: .sixel, symbols: .quadrants, truecolor: true) }
        if set("WT_SESSION") { return Known(name: "Windows Terminal", format: .sixel, symbols: .quadrants, truecolor: true) }
        if let vte = env["VTE_VERSION"].flatMap({ Int($0) }) {
            // GNOME Terminal and the other VTE terminals: no pixels in the
            // VTE builds distributions ship; direct colour since 0.36.
            return Known(name: "VTE", format: .symbols, symbols: .quadrants, truecolor: vte >= 3600)
        }
        if term == "linux" { return Known(name: "Linux console", format: .symbols, symbols: .halves, truecolor: false) }
        return nil
    }

    /// Whether the terminal must be asked: the environment does not decide
    /// and no option does.
    public static func needsQuery(environment: [String: String]) -> Bool {
        known(environment) == nil
    }

    /// The decision. `replies` is nil when nothing was asked (the
    /// environment decided, or there is no terminal); `requestedColors` is
    /// `--colors`. `terminfoColors` is the rule for colours when no
    /// terminal is known (NO_COLOR, COLORTERM, terminfo).
    public static func decide(environment env: [String: String], replies: TerminalReplies?, requestedColors: ColorMode?,
                              terminfo: TerminfoDatabase = SystemTerminfo()) -> Detection {
        var reasons: [String] = []
        let fallbackColors = ColorDetection.mode(requested: requestedColors, environment: env, terminfo: terminfo)
        let noColor = requestedColors == nil && !(env["NO_COLOR"] ?? "").isEmpty
        func colors(_ truecolor: Bool) -> ColorMode {
            if let requestedColors { return requestedColors }
            return truecolor && !noColor ? .truecolor : fallbackColors
        }
        if let known = known(env) {
            reasons.append("environment: \(describe(env)) → \(known.name)")
            return Detection(format: known.format, colors: colors(known.truecolor), symbols: known.symbols,
                             registers: SixelEncoder.defaultRegisters, cellPixels: nil, terminal: known.name, reasons: reasons)
        }
        reasons.append("environment: \(describe(env)) → not decided, asked the terminal")
        // xterm has had direct colour since patch 331 and sets XTERM_VERSION:
        // that holds whether or not it answers.
        let xtermPatch = env["XTERM_VERSION"].flatMap { $0.split(separator: "(").last.flatMap { Int($0.prefix { $0.isNumber }) } }
        let xterm = xtermPatch != nil
        guard let replies, replies.complete else {
            reasons.append(replies == nil ? "replies: none (no terminal to ask)" : "replies: no answer to DA1 before the deadline")
            return Detection(format: .symbols, colors: colors((xtermPatch ?? 0) >= 331), symbols: .quadrants,
                             registers: SixelEncoder.defaultRegisters, cellPixels: nil, terminal: xterm ? "xterm" : "unknown",
                             reasons: reasons)
        }
        let rgb = replies.capabilities["RGB"] != nil || replies.capabilities["colors"].flatMap(Int.init).map { $0 >= 1 << 24 } == true
        let truecolor = rgb || (xtermPatch ?? 0) >= 331
        reasons.append("replies: DA1 \(replies.deviceAttributes.map { $0.map(String.init).joined(separator: ";") } ?? "")"
            + (replies.kittyGraphics ? ", kitty graphics OK" : "")
            + (replies.sixelRegisters.map { ", \($0) sixel registers" } ?? "")
            + (replies.capabilities.isEmpty ? "" : ", XTGETTCAP " + replies.capabilities.keys.sorted().joined(separator: " "))
            + (xterm ? ", XTERM_VERSION patch \(xtermPatch ?? 0)" : ""))
        let format: PictureFormat = replies.kittyGraphics ? .kitty : (replies.sixel ? .sixel : .symbols)
        return Detection(format: format, colors: colors(truecolor), symbols: replies.kittyGraphics ? .sextants : .quadrants,
                         registers: min(replies.sixelRegisters ?? SixelEncoder.defaultRegisters, SixelEncoder.maxRegisters),
                         cellPixels: replies.cellPixels, terminal: xterm ? "xterm" : (replies.kittyGraphics ? "kitty graphics" : "unknown"),
                         reasons: reasons)
    }

    /// The variables detection reads, as set.
    static func describe(_ env: [String: String]) -> String {
        let names = ["TERM", "TERM_PROGRAM", "COLORTERM", "TMUX", "STY", "KITTY_WINDOW_ID", "WT_SESSION", "KONSOLE_VERSION",
                     "VTE_VERSION", "XTERM_VERSION", "NO_COLOR"]
        let set = names.compactMap { name in env[name].map { "\(name)=\($0.terminalSafePrefix)" } }
        return set.isEmpty ? "nothing set" : set.joined(separator: " ")
    }
}

private extension String {
    /// Environment values shown in `probe`: safe and short.
    var terminalSafePrefix: String { String(unicodeScalars.filter { $0.value >= 0x20 && $0.value < 0x7F }.prefix(40)) }
}

extension PictureDetection {
    /// Detection as `render`, the screen and `probe` run it: the
    /// environment, then, only if it does not decide, the terminal's replies
    /// (`TerminalQuery.ask`). Also returns the answer, for `probe`.
    public static func detect(environment: [String: String], requestedColors: ColorMode?) -> (Detection, TerminalQuery.Answer?) {
        let answer = needsQuery(environment: environment) ? TerminalQuery.ask() : nil
        var detection = decide(environment: environment, replies: answer?.replies, requestedColors: requestedColors)
        // No CSI 16 t answer: the text area's pixels (CSI 14 t) over its cells.
        if detection.cellPixels == nil, let area = answer?.replies.areaPixels,
           let cells = WindowSize.of(STDOUT_FILENO) ?? WindowSize.of(STDIN_FILENO), area.width >= cells.columns, area.height >= cells.rows {
            detection.cellPixels = (area.width / cells.columns, area.height / cells.rows)
        }
        if let answer {
            let ms = Double(answer.elapsed.components.attoseconds) / 1e15 + Double(answer.elapsed.components.seconds) * 1000
            detection.reasons.append(String(format: "reply time: %.1f ms, %d bytes%@", ms, answer.byteCount,
                                            answer.timedOut ? " (deadline passed)" : ""))
        }
        return (detection, answer)
    }
}

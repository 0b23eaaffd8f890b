import BlockArt
import URLCacheSupport

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
    public var cellPixels: PixelSize?
    /// What the terminal was taken for ("kitty", "xterm", …).
    public var terminal: String
    /// The evidence, one line each, for `urlcache probe`.
    public var reasons: [String]
    /// Inside tmux: what reaches the terminal outside it. Nil outside tmux.
    public var tmux: TmuxPictures? = nil
    /// How kitty is given the pixels: shared memory where it said it reads ours.
    public var kittyMedium = KittyMedium.direct

    /// kitty plays an animation's frames itself (its animation protocol,
    /// kitty 0.20 on). Ghostty, WezTerm and Konsole draw kitty's pictures
    /// but not all of its animations; tmux would have every frame pass
    /// through it again: they are sent each frame as it is due.
    public var kittyAnimates: Bool { terminal == "kitty" && tmux == nil }

    /// How a picture in `format` reaches the terminal: straight outside
    /// tmux or where tmux draws it itself (sixel), as placeholders where
    /// the terminal outside draws them, else through the passthrough.
    public func route(for format: PictureFormat) -> PictureRoute {
        guard let tmux, format.isPixels else { return .direct }
        if format == .sixel, tmux.sixel { return .direct }
        if format == .kitty, tmux.placeholders { return .placeholders }
        return .passthrough
    }
}

/// What pictures can do inside tmux.
public struct TmuxPictures: Sendable, Equatable {
    /// The terminal outside draws kitty's Unicode placeholders (kitty 0.28
    /// and later, Ghostty), which tmux keeps as text.
    public var placeholders: Bool
    /// tmux draws sixel itself: 3.4 and later, built with it, on a
    /// terminal that has it (its client feature `sixel`).
    public var sixel: Bool

    /// The format `auto` picks there: sixel, which tmux keeps itself,
    /// before placeholders, which it keeps as text; else block art.
    var format: PictureFormat { sixel ? .sixel : placeholders ? .kitty : .symbols }
}

/// The rules of `--format auto`, the default colours and the default
/// glyphs: a pure function of the environment and the terminal's replies.
/// Like chafa's and timg's, they know which terminals take direct colour
/// and pixels whatever terminfo says.
public enum PictureDetection {
    /// Whether the terminal must be asked who it is: the environment does
    /// not name it. (A sixel terminal it names is still asked for its
    /// registers, and tmux for its client.)
    public static func needsQuery(environment: [String: String]) -> Bool {
        TerminalIdentity.known(environment) == nil
    }

    /// The decision. `replies` is nil when nothing was asked (no terminal,
    /// or the environment decided and sixel's registers were not asked);
    /// `tmux` is what tmux said of its client; `requestedColors` is
    /// `--colors`. `terminfo` serves the rule for colours when no terminal
    /// is known (NO_COLOR, COLORTERM, terminfo).
    public static func decide(
        environment env: [String: String],
        replies: TerminalReplies?,
        tmux: TmuxClient? = nil,
        requestedColors: ColorMode?,
        terminfo: TerminfoDatabase = SystemTerminfo()
    ) -> Detection {
        let colors = ColorRule(
            requested: requestedColors,
            noColor: requestedColors == nil && !(env["NO_COLOR"] ?? "").isEmpty,
            fallback: ColorDetection.mode(requested: requestedColors, environment: env, terminfo: terminfo)
        )
        if let known = TerminalIdentity.known(env) {
            return decide(known, environment: env, replies: replies, tmux: tmux, colors: colors, terminfo: terminfo)
        }
        return decideAsked(environment: env, replies: replies, colors: colors)
    }

    /// The replies, one line for `probe`.
    static func describe(_ replies: TerminalReplies, answered: TerminalIdentity.Answered) -> String {
        func list(_ values: [Int]?) -> String { values.map { $0.map(String.init).joined(separator: ";") } ?? "none" }
        var line =
            "replies: XTVERSION \(replies.version ?? "none"), DA2 \(list(replies.secondaryAttributes)), "
            + "DA1 \(list(replies.deviceAttributes))"
        guard answered.parsesStrings else { return line + "; DCS and APC not sent (it may print them)" }
        var second = [
            replies.kittyGraphics ? "kitty graphics OK" : "no kitty graphics",
            replies.rendition.map { "DECRQSS SGR \($0)" } ?? "no DECRQSS answer",
        ]
        if let registers = replies.sixelRegisters { second.append("\(registers) sixel registers") }
        if !replies.capabilities.isEmpty {
            second.append("XTGETTCAP " + replies.capabilities.keys.sorted().joined(separator: " "))
        }
        line += "; parses DCS and APC, so asked again: " + second.joined(separator: ", ")
        return line
    }

    /// The variables detection reads, as set.
    static func describe(_ env: [String: String]) -> String {
        let names = [
            "TERM", "TERM_PROGRAM", "COLORTERM", "TMUX", "STY", "KITTY_WINDOW_ID", "WT_SESSION", "KONSOLE_VERSION",
            "VTE_VERSION", "XTERM_VERSION", "ZELLIJ", "LC_TERMINAL", "NO_COLOR",
        ]
        let set = names.compactMap { name in env[name].map { "\(name)=\($0.printableASCII(prefix: 40))" } }
        return set.isEmpty ? "nothing set" : set.joined(separator: " ")
    }
}

extension String {
    /// What another program said (an environment value, tmux's answer),
    /// as `probe` shows it: printable ASCII only, cut at `prefix` characters.
    func printableASCII(prefix: Int) -> String {
        String(unicodeScalars.filter { $0.value >= 0x20 && $0.value < 0x7F }.prefix(prefix))
    }
}

extension PictureDetection {
    /// No sign of ssh: the terminal may be on this machine (it still has
    /// to prove it can read our shared memory).
    static func isLocal(_ env: [String: String]) -> Bool {
        (env["SSH_CONNECTION"] ?? "").isEmpty && (env["SSH_TTY"] ?? "").isEmpty
    }

    /// Detection as `render`, the screen and `probe` run it: the
    /// environment; inside tmux, tmux's word on its client; for a sixel
    /// terminal the environment names, its registers; otherwise the
    /// terminal's answers, CSI first, strings only where they are parsed.
    /// Returns the terminal's answers too (nil when nothing was asked).
    public static func detect(
        environment: [String: String],
        requestedColors: ColorMode?
    ) -> (Detection, TerminalQuery.Answer?) {
        var answer: TerminalQuery.Answer?
        var environment = environment
        let (tmux, leaked) = askTmux(&environment)
        if let known = TerminalIdentity.known(environment) {
            if known.name == "tmux" {
                // tmux 3.4 names the feature for any sixel terminal outside; it
                // draws sixel only if built with it, when its own DA1 lists 4.
                if tmux?.features.contains("sixel") == true { answer = TerminalQuery.ask(TerminalQuery.barrier) }
            }
            if known.format == .sixel { answer = TerminalQuery.ask(TerminalQuery.sixelTerminal) }
        } else if let first = TerminalQuery.ask(TerminalQuery.identify, deadline: TerminalQuery.deadline(environment)) {
            answer = first
            if first.replies.complete, TerminalIdentity.answered(first.replies).parsesStrings,
                let second = TerminalQuery.ask(
                    TerminalQuery.strings(sixel: first.replies.sixel),
                    deadline: TerminalQuery.deadline(environment)
                )
            {
                answer = first.followed(by: second)
            }
        }
        var detection = decide(
            environment: environment,
            replies: answer?.replies,
            tmux: tmux,
            requestedColors: requestedColors
        )
        // No CSI 16 t answer: the text area's pixels (CSI 14 t) over its cells.
        if detection.cellPixels == nil, let area = answer?.replies.areaPixels,
            let cells = WindowSize.of(STDOUT_FILENO) ?? WindowSize.of(STDIN_FILENO), area.width >= cells.columns,
            area.height >= cells.rows
        {
            detection.cellPixels = PixelSize(width: area.width / cells.columns, height: area.height / cells.rows)
        }
        if let leaked { detection.reasons.insert(leaked, at: 0) }
        if let answer {
            let ms = answer.elapsed.milliseconds
            detection.reasons.append(
                CFormat.string(
                    "reply time: %.1f ms, %ld bytes",
                    ms,
                    answer.byteCount
                ) + (answer.timedOut ? " (deadline passed)" : "")
            )
        }
        return (detection, answer)
    }

    /// Where the environment says tmux, what tmux says of its client. A
    /// program tmux does not draw for (GNU screen's, started in tmux) has
    /// tmux's variables removed from `environment`, and the line saying so.
    static func askTmux(_ environment: inout [String: String]) -> (TmuxClient?, leaked: String?) {
        guard TerminalIdentity.known(environment)?.name == "tmux", let asked = TmuxClient.ask(environment: environment)
        else { return (nil, nil) }
        let tty = [STDOUT_FILENO, STDIN_FILENO].lazy.compactMap { ttyname($0).map { String(cString: $0) } }.first
        guard let pane = asked.paneTTY, let tty, pane != tty else { return (asked.client, nil) }
        environment = TmuxClient.withoutTmux(environment)
        return (nil, "tmux: its pane is \(pane), this terminal \(tty): TMUX came from further out")
    }

    /// For a kitty-format terminal that pictures go straight to, with no
    /// sign of ssh: asks whether it reads our shared memory, and if so has
    /// the pixels go that way. Only what will send a kitty picture asks
    /// (the screen, `render`), and `probe`: it costs a round trip.
    public static func askKittyMedium(_ detection: inout Detection, environment: [String: String]) {
        guard detection.format == .kitty, detection.route(for: .kitty) == .direct, isLocal(environment) else { return }
        let shared = TerminalQuery.readsSharedMemory()
        if shared { detection.kittyMedium = .sharedMemory }
        detection.reasons.append(
            shared
                ? "kitty reads our shared memory (t=s): the pixels go that way, not as base64"
                : "kitty did not read our shared memory: the pixels go as base64 in the escape codes"
        )
    }
}

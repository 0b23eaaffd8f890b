import BlockArt
import FoundationEssentials

/// How many colours to use: the one rule for `render` and the screen.
public enum ColorDetection {
    /// `--colors` when given (it wins, NO_COLOR included, as the NO_COLOR
    /// convention asks of command-line options); else none when NO_COLOR is
    /// set; truecolour when COLORTERM says so; otherwise what terminfo
    /// reports for TERM (a `*-direct` entry is truecolour).
    public static func mode(
        requested: ColorMode?,
        environment: [String: String],
        terminfo: TerminfoDatabase = SystemTerminfo()
    ) -> ColorMode {
        if let requested { return requested }
        if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return .none }
        let colorterm = environment["COLORTERM"]?.lowercased() ?? ""
        if colorterm == "truecolor" || colorterm == "24bit" { return .truecolor }
        guard let term = environment["TERM"], !term.isEmpty, term != "dumb" else { return .none }
        guard let colors = terminfo.colors(term) else {
            return term.contains("256color") ? .palette256 : .ansi16
        }
        if term.hasSuffix("-direct") { return .truecolor }
        return mode(colors: colors)
    }

    /// The mode a number of colours allows.
    public static func mode(colors: Int) -> ColorMode {
        if colors >= 1 << 24 { return .truecolor }
        if colors >= 256 { return .palette256 }
        if colors >= 16 { return .ansi16 }
        if colors >= 8 { return .ansi8 }
        return .none
    }

    /// The fewer colours of two modes: what a terminal that shows `available`
    /// can show of `wanted`.
    public static func capped(_ wanted: ColorMode, at available: ColorMode) -> ColorMode {
        let order: [ColorMode] = [.none, .ansi8, .ansi16, .palette256, .truecolor]
        return order[min(order.firstIndex(of: wanted) ?? 0, order.firstIndex(of: available) ?? 0)]
    }
}

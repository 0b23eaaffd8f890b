import BlockArt
import Foundation
internal import CNCurses
#if canImport(Glibc)
import Glibc
#endif

/// What the terminal on stdout can show, asked without taking it over.
enum TerminalProbe {
    /// The window size in cells and, when the terminal reports it, in pixels.
    static func windowSize() -> (columns: Int, rows: Int, cellAspect: Double?)? {
        var size = winsize()
        guard isatty(STDOUT_FILENO) == 1, ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0,
              size.ws_col > 0, size.ws_row > 0 else { return nil }
        var aspect: Double?
        if size.ws_xpixel > 0, size.ws_ypixel > 0 {
            aspect = (Double(size.ws_xpixel) / Double(size.ws_col)) / (Double(size.ws_ypixel) / Double(size.ws_row))
        }
        return (Int(size.ws_col), Int(size.ws_row), aspect)
    }

    /// `--colors auto`: none when NO_COLOR is set; truecolor when COLORTERM
    /// says so; otherwise what terminfo reports for TERM.
    static func colorMode(environment: [String: String]) -> ColorMode {
        if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return .none }
        let colorterm = environment["COLORTERM"]?.lowercased() ?? ""
        if colorterm == "truecolor" || colorterm == "24bit" { return .truecolor }
        guard let term = environment["TERM"], !term.isEmpty, term != "dumb" else { return .none }
        var status: Int32 = 0
        defer { cnc_release_probe() }
        guard setupterm(term, -1, &status) == OK else {
            return term.contains("256color") ? .palette256 : .ansi16
        }
        let colors = tigetnum("colors")
        if term.hasSuffix("-direct") || colors >= 1 << 24 { return .truecolor }
        if colors >= 256 { return .palette256 }
        if colors >= 16 { return .ansi16 }
        if colors >= 8 { return .ansi8 }
        return .none
    }
}

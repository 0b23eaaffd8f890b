/// How many colours the terminal shows.
public enum ColorMode: String, Sendable, CaseIterable {
    /// 24-bit colour.
    case truecolor
    /// The xterm 256-colour palette (the 6×6×6 cube and the gray ramp are used).
    case palette256 = "256"
    /// The 16 ANSI colours.
    case ansi16 = "16"
    /// The 8 basic ANSI colours.
    case ansi8 = "8"
    /// No colour: the glyphs alone, in the terminal's own colours.
    case none
}

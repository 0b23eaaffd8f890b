/// A colour as a terminal is told it.
public enum TerminalColor: Sendable, Equatable, Hashable {
    /// The terminal's default foreground or background.
    case `default`
    /// 24-bit colour.
    case rgb(RGB8)
    /// A palette index (0–255).
    case index(UInt8)
}

/// One character cell: a glyph, its foreground and background colours.
public struct Cell: Sendable, Equatable {
    public var glyph: Unicode.Scalar
    public var foreground: TerminalColor
    public var background: TerminalColor

    public init(glyph: Unicode.Scalar, foreground: TerminalColor, background: TerminalColor) {
        self.glyph = glyph
        self.foreground = foreground
        self.background = background
    }
}

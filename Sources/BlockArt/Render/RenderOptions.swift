/// How to turn pixels into cells.
public struct RenderOptions: Sendable, Hashable {
    public var symbols: SymbolSet
    public var colors: ColorMode
    public var dither: Dither

    public init(symbols: SymbolSet = .halves, colors: ColorMode = .truecolor, dither: Dither = .none) {
        self.symbols = symbols
        self.colors = colors
        self.dither = dither
    }
}

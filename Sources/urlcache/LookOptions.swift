import ArgumentParser
import BlockArt
import URLCacheScreen

/// The look of the art, shared by `render` and the screen.
struct LookOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The colours to use; auto follows NO_COLOR, COLORTERM and terminfo.", valueName: "mode"))
    var colors: ColorChoice = .auto

    @Option(
        help: ArgumentHelp(
            "The glyphs the art is drawn with (default: the finest the terminal draws; halves in a pipe).",
            valueName: "set"
        )
    )
    var symbols: SymbolSet?

    @Option(help: ArgumentHelp("Dithering in palette modes.", valueName: "d"))
    var dither: Dither = .none

    @Option(help: ArgumentHelp("Colour behind transparent pixels.", valueName: "rrggbb"))
    var background = RGB8(0, 0, 0)

    @Option(
        help: ArgumentHelp(
            "A cell's width over its height, 0.05 to 20 (default: from the terminal, else 0.5).",
            valueName: "r"
        )
    )
    var cellAspect: CellAspect?

    /// The colours to use: `--colors`, else what the terminal shows.
    func colorMode(environment: [String: String]) -> ColorMode {
        ColorDetection.mode(requested: colors.requested, environment: environment)
    }
}

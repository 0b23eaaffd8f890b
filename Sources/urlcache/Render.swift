import ArgumentParser
import BlockArt
import Foundation
import URLCacheKit
import URLCacheScreen
import URLCacheSupport
#if canImport(Glibc)
import Glibc
#endif

/// `urlcache render`: block art on stdout.
struct Render: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print an image file or URL as block art.",
        discussion: """
            Prints per row SGR colour sequences, the glyphs, a reset and a newline: no cursor \
            movement, so the output can be piped, saved or cat'ed later. A URL goes through \
            the cache policy first, as fetch does.
            """
    )

    @Argument(help: ArgumentHelp("An image file (PNG or JPEG) or an http(s) URL.", valueName: "image-file-or-url"))
    var image: String

    @Option(help: ArgumentHelp("Size in cells, e.g. 120x40 (default: the terminal's, else 80x24).", valueName: "colsxrows"))
    var size: CellSize?

    @OptionGroup var look: LookOptions
    @OptionGroup var list: ListOptions
    @OptionGroup var policy: PolicyOptions

    @Flag(help: "For a URL: check now even if the copy is fresh.")
    var force = false

    @Flag(help: ArgumentHelp("Print the time of each step on stderr (for Benchmarks/).", visibility: .hidden))
    var timings = false

    func run() throws {
        let path = try resolveImage()
        let terminal = WindowSize.of(STDOUT_FILENO)
        // A line is left for the prompt.
        let area = size ?? terminal.map { CellSize(columns: $0.columns, rows: max(1, $0.rows - 1)) } ?? CellSize(columns: 80, rows: 24)
        let options = RenderOptions(symbols: look.symbols, colors: look.colorMode(environment: list.environment), dither: look.dither)
        let aspect = look.cellAspect?.value ?? terminal?.cellAspect ?? 0.5
        var cells = (columns: 0, rows: 0)
        let decoded: DecodedImage
        let clock = ContinuousClock()
        let start = clock.now
        do {
            decoded = try ImageDecoder.decode(path: path, background: look.background,
                                              samples: Renderer.samples(options.symbols)) { info in
                let art = Renderer.artSize(for: info, columns: area.columns, rows: area.rows, cellAspect: aspect,
                                           symbols: options.symbols)
                cells = art.cells
                return art.pixmap
            }
        } catch {
            throw Failure.failed("\(path.terminalSafe): \(error.description)")
        }
        let decodedAt = clock.now
        let grid = Renderer.render(decoded.pixmap, columns: cells.columns, rows: cells.rows, options: options)
        let renderedAt = clock.now
        FileHandle.standardOutput.write(Data(AnsiWriter.bytes(grid)))
        if timings {
            func ms(_ d: Duration) -> String { String(format: "%.2f", Double(d.components.attoseconds) / 1e15 + Double(d.components.seconds) * 1000) }
            printError("timings: decode+scale \(ms(decodedAt - start)) ms, render \(ms(renderedAt - decodedAt)) ms, write \(ms(clock.now - renderedAt)) ms")
        }
    }

    /// A file path as given, or a URL's cached image after the policy ran.
    private func resolveImage() throws(Failure) -> String {
        guard image.lowercased().hasPrefix("http://") || image.lowercased().hasPrefix("https://") else {
            guard FileManager.default.fileExists(atPath: image) else {
                throw .usage("\(image.terminalSafe): no such file")
            }
            return image
        }
        let url: URL
        do { url = try ImageURL.validate(image, index: 1, source: "argument") } catch {
            throw .usage(error.description)
        }
        // The list only lends its settings (timeouts, size limit, interval):
        // a broken list named with --config is an error, a broken default one is not.
        let urls: URLList
        do { urls = try list.loadList() } catch {
            if list.config != nil { throw error }
            urls = URLList(entries: [URLEntry(url: url)], source: "argument")
        }
        let report = policy.controller(cache: list.cache, list: urls).display(url, force: force)
        if case let .failure(error) = report.result {
            guard report.copy != nil else { throw .failed("\(image.terminalSafe): \(error.description)") }
            printError("urlcache: \(image.terminalSafe): \(error.description) (showing the cached copy)")
        }
        guard let copy = report.copy else { throw .failed("\(image.terminalSafe): nothing cached") }
        return copy.imagePath
    }
}

/// The look of the art, shared by `render` and the screen.
struct LookOptions: ParsableArguments {
    @Option(help: ArgumentHelp("auto, truecolor, 256, 16, 8 or none (auto: --colors, NO_COLOR, COLORTERM, terminfo).", valueName: "mode"))
    var colors: ColorChoice = .auto

    @Option(help: ArgumentHelp("halves, quadrants, sextants or ascii.", valueName: "set"))
    var symbols: SymbolSet = .halves

    @Option(help: ArgumentHelp("Dithering in palette modes: none, ordered or diffusion.", valueName: "d"))
    var dither: Dither = .none

    @Option(help: ArgumentHelp("Colour behind transparent pixels.", valueName: "rrggbb"))
    var background = RGB8(0, 0, 0)

    @Option(help: ArgumentHelp("A cell's width over its height, 0.05–20 (default: from the terminal, else 0.5).", valueName: "r"))
    var cellAspect: CellAspect?

    /// The colours to use: `--colors`, else what the terminal shows.
    func colorMode(environment: [String: String]) -> ColorMode {
        ColorDetection.mode(requested: colors.requested, environment: environment)
    }
}

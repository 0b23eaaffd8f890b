import ArgumentParser
import BlockArt
import Foundation
import URLCacheKit

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

    @OptionGroup var art: ArtOptions
    @OptionGroup var list: ListOptions
    @OptionGroup var policy: PolicyOptions

    @Flag(help: "For a URL: check now even if the copy is fresh.")
    var force = false

    @Flag(help: ArgumentHelp("Print the time of each step on stderr (for Benchmarks/).", visibility: .hidden))
    var timings = false

    func run() throws {
        let path = try resolveImage()
        let environment = ProcessInfo.processInfo.environment
        let terminal = TerminalProbe.windowSize()
        let area = try art.area(terminal: terminal)
        let options = RenderOptions(symbols: art.look.symbols, colors: art.look.colorMode(environment: environment), dither: art.look.dither)
        let aspect = art.look.cellAspect ?? terminal?.cellAspect ?? 0.5
        var cells = (columns: 0, rows: 0)
        let decoded: DecodedImage
        let clock = ContinuousClock()
        let start = clock.now
        do {
            decoded = try ImageDecoder.decode(path: path, background: art.look.backgroundColor,
                                              samples: Renderer.samples(options.symbols)) { info in
                cells = Geometry.fit(width: info.width, height: info.height, columns: area.columns, rows: area.rows,
                                     cellAspect: aspect)
                return Renderer.pixmapSize(columns: cells.columns, rows: cells.rows, symbols: options.symbols)
            }
        } catch {
            fail(.failed("\(path.terminalSafe): \(error.description)"))
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
    private func resolveImage() throws -> String {
        guard image.lowercased().hasPrefix("http://") || image.lowercased().hasPrefix("https://") else {
            guard FileManager.default.fileExists(atPath: image) else {
                fail(.usage("\(image.terminalSafe): no such file"))
            }
            return image
        }
        let url: URL
        let urls: URLList
        do {
            url = try ImageURL.validate(image, index: 1, source: "argument")
        } catch {
            fail(.usage(error.description))
        }
        // The list only lends its settings (timeouts, size limit, interval):
        // a broken list named with --config is an error, a broken default one is not.
        do { urls = try list.loadList() } catch let failure as Failure {
            if list.config != nil { fail(failure) }
            urls = URLList(entries: [URLEntry(url: url)], source: "argument")
        }
        let report = policy.controller(cache: list.cache, list: urls).display(url, force: force)
        if case let .failure(error) = report.result {
            guard report.copy != nil else { fail(.failed("\(image.terminalSafe): \(error.description)")) }
            printError("urlcache: \(image.terminalSafe): \(error.description) (showing the cached copy)")
        }
        guard let copy = report.copy else { fail(.failed("\(image.terminalSafe): nothing cached")) }
        return copy.imagePath
    }
}

/// The size `render` prints at.
struct ArtOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Size in cells, e.g. 120x40 (default: the terminal's, else 80x24).", valueName: "colsxrows"))
    var size: String?

    @OptionGroup var look: LookOptions

    func validate() throws {
        if let size, ArtOptions.parseSize(size) == nil { throw ValidationError("--size must be COLSxROWS, e.g. 120x40, not '\(size)'") }
    }

    func area(terminal: (columns: Int, rows: Int, cellAspect: Double?)?) throws -> (columns: Int, rows: Int) {
        if let size, let parsed = ArtOptions.parseSize(size) { return parsed }
        if let terminal { return (terminal.columns, max(1, terminal.rows - 1)) }  // a line for the prompt
        return (80, 24)
    }

    static func parseSize(_ text: String) -> (columns: Int, rows: Int)? {
        let parts = text.lowercased().split(separator: "x")
        guard parts.count == 2, let c = Int(parts[0]), let r = Int(parts[1]), (1...4096).contains(c), (1...4096).contains(r) else { return nil }
        return (c, r)
    }
}

/// The look of the art, shared by `render` and the screen.
struct LookOptions: ParsableArguments {
    @Option(help: ArgumentHelp("auto, truecolor, 256, 16, 8 or none (default auto: COLORTERM, terminfo, NO_COLOR).", valueName: "mode"))
    var colors = "auto"

    @Option(help: ArgumentHelp("halves, quadrants, sextants or ascii.", valueName: "set"))
    var symbols: SymbolSet = .halves

    @Option(help: ArgumentHelp("Dithering in palette modes: none, ordered or diffusion.", valueName: "d"))
    var dither: Dither = .none

    @Option(help: ArgumentHelp("Colour behind transparent pixels, RRGGBB (default 000000).", valueName: "rrggbb"))
    var background = "000000"

    @Option(help: ArgumentHelp("A cell's width over its height (default: from the terminal, else 0.5).", valueName: "r"))
    var cellAspect: Double?

    func validate() throws {
        if colors != "auto" && ColorMode(rawValue: colors) == nil {
            throw ValidationError("--colors must be auto, truecolor, 256, 16, 8 or none, not '\(colors)'")
        }
        if RGB8(hex: background) == nil { throw ValidationError("--background must be RRGGBB, not '\(background)'") }
        if let cellAspect, !(cellAspect > 0.05 && cellAspect < 20) { throw ValidationError("--cell-aspect must be between 0.05 and 20") }
    }

    var backgroundColor: RGB8 { RGB8(hex: background) ?? RGB8(0, 0, 0) }

    /// The --colors choice; nil for auto.
    var requestedColors: ColorMode? { ColorMode(rawValue: colors) }

    func colorMode(environment: [String: String]) -> ColorMode {
        requestedColors ?? TerminalProbe.colorMode(environment: environment)
    }
}

extension SymbolSet: ExpressibleByArgument {}
extension Dither: ExpressibleByArgument {}

import ArgumentParser
import BlockArt
import FoundationEssentials
import URLCacheKit
import URLCacheScreen
import URLCacheSupport

#if canImport(Glibc)
import Glibc
#endif

/// `urlcache render`: block art on stdout.
struct Render: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Print an image file or URL as block art.",
        discussion: """
            Prints per row SGR colour sequences, the glyphs, a reset and a newline: no cursor \
            movement, so the output can be piped, saved or cat'ed later. A URL goes through \
            the cache policy first, as fetch does.
            """
    )

    @Argument(
        help: ArgumentHelp(
            "An image file (PNG, APNG, JPEG, GIF, WebP, AVIF, HEIC, JPEG XL, TIFF, QOI or SVG), - for standard input, or an http(s) URL.",
            valueName: "image-file-or-url"
        )
    )
    var image: String

    @Option(
        help: ArgumentHelp("Size in cells, e.g. 120x40 (default: the terminal's, else 80x24).", valueName: "colsxrows")
    )
    var size: CellSize?

    @Option(
        help: ArgumentHelp(
            "symbols (block art), kitty, sixel or iterm; auto picks the best the terminal shows, and symbols when stdout is not a terminal.",
            valueName: "format"
        )
    )
    var format: FormatChoice = .auto

    @OptionGroup var look: LookOptions
    @OptionGroup var list: ListOptions
    @OptionGroup var policy: PolicyOptions

    @Flag(help: "For a URL: check now even if the copy is fresh.")
    var force = false

    @Option(
        help: ArgumentHelp(
            "Sixel colour registers to use (default: what the terminal reports, else 256).",
            valueName: "n"
        )
    )
    var registers: Int?

    @Option(
        help: ArgumentHelp(
            "Play an animated GIF, APNG, WebP, AVIF or JPEG XL: auto plays on a terminal and prints the first frame into a pipe.",
            valueName: "when"
        )
    )
    var animate: AnimateChoice = .auto

    @Option(
        help: ArgumentHelp(
            "Stop an animation after this many seconds (default: when it ends, or Ctrl-C).",
            valueName: "seconds"
        )
    )
    var duration: Double?

    @Flag(help: ArgumentHelp("Print the time of each step on stderr (for Benchmarks/).", visibility: .hidden))
    var timings = false

    @Option(
        help: ArgumentHelp(
            "kitty: give the pixels this way, whatever was detected (for Benchmarks/kitty-medium.sh).",
            visibility: .hidden
        )
    )
    var kittyMedium: KittyMedium?

    func validate() throws {
        if let duration, !(duration > 0 && duration <= 1e9) {
            throw ValidationError("--duration takes a number of seconds from above 0 to 1e9, not \(duration)")
        }
    }

    /// What the terminal was found to show, and the format chosen from it.
    private func detect(_ terminal: WindowSize?) -> (detection: Detection?, chosen: PictureFormat) {
        // auto asks the terminal only when stdout is one: a pipe gets block art.
        var detection =
            terminal != nil && (format == .auto || look.symbols == nil || look.colors == .auto)
            ? PictureDetection.detect(environment: list.environment, requestedColors: look.colors.requested).0 : nil
        let chosen = format.requested ?? detection?.format ?? .symbols
        // Only a kitty picture about to be sent asks for shared memory.
        if chosen == .kitty, kittyMedium == nil, var asked = detection {
            PictureDetection.askKittyMedium(&asked, environment: list.environment)
            detection = asked
        }
        return (detection, chosen)
    }

    func run() throws {
        let input = try resolveImage()
        let terminal = WindowSize.terminal(STDOUT_FILENO)
        let (detection, chosen) = detect(terminal)
        if chosen.isPixels {
            return try renderPixels(input, format: chosen, terminal: terminal, detection: detection)
        }
        let area = area(terminal)
        let options = RenderOptions(
            symbols: look.symbols ?? detection?.symbols ?? .halves,
            colors: detection?.colors ?? look.colorMode(environment: list.environment),
            dither: look.dither
        )
        let aspect = look.cellAspect?.value ?? terminal?.cellAspect ?? 0.5
        let fit = { (info: SourceInfo) in
            Renderer.artSize(
                for: info,
                columns: area.columns,
                rows: area.rows,
                cellAspect: aspect,
                symbols: options.symbols
            )
        }
        var cells = CellSize(columns: 0, rows: 0)
        let clock = ContinuousClock()
        let start = clock.now
        let size = { (info: SourceInfo) -> PixelSize in
            let art = fit(info)
            cells = art.cells
            return art.pixmap
        }
        let samples = Renderer.samples(options.symbols)
        if let animation = try animation(input, terminal: terminal, samples: samples, size: size) {
            let player = Render.artPlayer(duration: duration, options: options) { cells }
            return try play(animation, input: input) { decoder throws(DecodeError) in try player.play(decoder) }
        }
        // The art is made as the rows come; Renderer.render when it could not be.
        let (decoded, art) = try decode(input, samples: samples, size: size) { info in
            let fitted = fit(info).cells
            return ArtPlan(columns: fitted.columns, rows: fitted.rows, options: options)
        }
        let decodedAt = clock.now
        let grid =
            art?.grid ?? Renderer.render(decoded.pixmap, columns: cells.columns, rows: cells.rows, options: options)
        let renderedAt = clock.now
        Console.write(AnsiWriter.bytes(grid))
        for warning in decoded.warnings { printError("urlcache: \(input.name): \(warning)") }
        if timings {
            printError(
                "timings: decode+scale \(Render.ms(decodedAt - start)) ms, render \(Render.ms(renderedAt - decodedAt)) ms, write \(Render.ms(clock.now - renderedAt)) ms"
            )
        }
    }

    /// Block art for each frame of an animation, at the cells the first
    /// frame's size gave; each later frame written as its changes.
    private static func artPlayer(
        duration: Double?,
        options: RenderOptions,
        cells: @escaping () -> CellSize
    ) -> AnimationPlayer<CellGrid> {
        AnimationPlayer<CellGrid>(
            duration: duration,
            prepare: { frame in
                let size = cells()
                let grid = Renderer.render(frame.pixmap, columns: size.columns, rows: size.rows, options: options)
                return (grid, grid.cells.count * MemoryLayout<Cell>.stride)
            },
            output: { grid, previous in
                previous.map { AnsiWriter.changedBytes(from: $0, to: grid) } ?? AnsiWriter.bytes(grid)
            }
        )
    }

    /// The input as an animation to play: only an animated file, on a
    /// terminal unless `--animate on`, and with its art fitting on the screen
    /// (the frames after the first are drawn by moving back over it).
    func animation(
        _ input: Input,
        terminal: WindowSize?,
        samples: (x: Int, y: Int),
        size: (SourceInfo) -> PixelSize
    ) throws(Failure) -> AnimationDecoder? {
        guard case let .file(path) = input, animate == .on || (animate == .auto && terminal != nil),
            terminal.map({ area($0).rows < $0.rows }) ?? true
        else { return nil }
        do {
            return try AnimationDecoder.open(path: path, background: look.background, samples: samples, size: size)
        } catch {
            throw .failed("\(input.name): \(error.description)")
        }
    }

    /// Plays `animation` by `player` (ours, or kitty's own); its warnings
    /// go to stderr after.
    func play(
        _ animation: AnimationDecoder,
        input: Input,
        by player: (AnimationDecoder) throws(DecodeError) -> Void
    ) throws(Failure) {
        do {
            try player(animation)
        } catch {
            throw .failed("\(input.name): \(error.description)")
        }
        for warning in animation.warnings { printError("urlcache: \(input.name): \(warning)") }
    }

    /// The cells to fill: `--size`, else the terminal's less a line for
    /// the prompt, else 80×24.
    func area(_ terminal: WindowSize?) -> CellSize {
        size ?? terminal.map { CellSize(columns: $0.columns, rows: max(1, $0.rows - 1)) }
            ?? CellSize(columns: 80, rows: 24)
    }

    /// The image decoded to the size `size` picks, with the art `art` plans
    /// when it could be made as the rows came; a failure named after the input.
    func decode(
        _ input: Input,
        samples: (x: Int, y: Int),
        size: (SourceInfo) -> PixelSize,
        art: (SourceInfo) -> ArtPlan? = { _ in nil }
    ) throws(Failure) -> (image: DecodedImage, art: PlannedArt?) {
        let background = look.background
        do {
            switch input {
            case let .file(path):
                return try ImageDecoder.decode(
                    path: path,
                    background: background,
                    samples: samples,
                    size: size,
                    art: art
                )
            case let .bytes(bytes, _):
                return try ImageDecoder.decode(
                    bytes: bytes,
                    background: background,
                    samples: samples,
                    size: size,
                    art: art
                )
            }
        } catch {
            throw .failed("\(input.name): \(error.description)")
        }
    }

    static func ms(_ d: Duration) -> String {
        CFormat.string("%.2f", d.milliseconds)
    }
}

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
        commandName: "render",
        abstract: "Print an image file or URL as block art.",
        discussion: """
            Prints per row SGR colour sequences, the glyphs, a reset and a newline: no cursor \
            movement, so the output can be piped, saved or cat'ed later. A URL goes through \
            the cache policy first, as fetch does.
            """
    )

    @Argument(help: ArgumentHelp("An image file (PNG, JPEG, GIF, WebP or AVIF), - for standard input, or an http(s) URL.", valueName: "image-file-or-url"))
    var image: String

    @Option(help: ArgumentHelp("Size in cells, e.g. 120x40 (default: the terminal's, else 80x24).", valueName: "colsxrows"))
    var size: CellSize?

    @Option(help: ArgumentHelp("symbols (block art), kitty, sixel or iterm; auto picks the best the terminal shows, and symbols when stdout is not a terminal.", valueName: "format"))
    var format: FormatChoice = .auto

    @OptionGroup var look: LookOptions
    @OptionGroup var list: ListOptions
    @OptionGroup var policy: PolicyOptions

    @Flag(help: "For a URL: check now even if the copy is fresh.")
    var force = false

    @Option(help: ArgumentHelp("Sixel colour registers to use (default: what the terminal reports, else 256).", valueName: "n"))
    var registers: Int?

    @Option(help: ArgumentHelp("Play an animated GIF, WebP or AVIF: auto plays on a terminal and prints the first frame into a pipe.", valueName: "when"))
    var animate: AnimateChoice = .auto

    @Option(help: ArgumentHelp("Stop an animation after this many seconds (default: when it ends, or Ctrl-C).", valueName: "seconds"))
    var duration: Double?

    @Flag(help: ArgumentHelp("Print the time of each step on stderr (for Benchmarks/).", visibility: .hidden))
    var timings = false

    @Option(help: ArgumentHelp("kitty: give the pixels this way, whatever was detected (for Benchmarks/kitty-medium.sh).", visibility: .hidden))
    var kittyMedium: KittyMedium?

    func validate() throws {
        if let duration, !(duration > 0 && duration <= 1e9) {
            throw ValidationError("--duration takes a number of seconds from above 0 to 1e9, not \(duration)")
        }
    }

    func run() throws {
        let input = try resolveImage()
        let terminal = WindowSize.of(STDOUT_FILENO)
        // auto asks the terminal only when stdout is one: a pipe gets block art.
        let detection = terminal != nil && (format == .auto || look.symbols == nil || look.colors == .auto)
            ? PictureDetection.detect(environment: list.environment, requestedColors: look.colors.requested).0 : nil
        let chosen = format.requested ?? detection?.format ?? .symbols
        if chosen.isPixels {
            return try renderPixels(input, format: chosen, terminal: terminal, detection: detection)
        }
        let area = area(terminal)
        let options = RenderOptions(symbols: look.symbols ?? detection?.symbols ?? .halves,
                                    colors: detection?.colors ?? look.colorMode(environment: list.environment), dither: look.dither)
        let aspect = look.cellAspect?.value ?? terminal?.cellAspect ?? 0.5
        var cells = (columns: 0, rows: 0)
        let clock = ContinuousClock()
        let start = clock.now
        let size = { (info: SourceInfo) -> (width: Int, height: Int) in
            let art = Renderer.artSize(for: info, columns: area.columns, rows: area.rows, cellAspect: aspect, symbols: options.symbols)
            cells = art.cells
            return art.pixmap
        }
        if let animation = try animation(input, terminal: terminal, samples: Renderer.samples(options.symbols), size: size) {
            let player = AnimationPlayer<CellGrid>(duration: duration, prepare: { frame in
                let grid = Renderer.render(frame.pixmap, columns: cells.columns, rows: cells.rows, options: options)
                return (grid, grid.cells.count * MemoryLayout<Cell>.stride)
            }, output: { grid, previous in
                previous.map { AnsiWriter.changedBytes(from: $0, to: grid) } ?? AnsiWriter.bytes(grid)
            })
            return try play(animation, with: player, input: input)
        }
        let decoded = try decode(input, samples: Renderer.samples(options.symbols), size: size)
        let decodedAt = clock.now
        let grid = Renderer.render(decoded.pixmap, columns: cells.columns, rows: cells.rows, options: options)
        let renderedAt = clock.now
        FileHandle.standardOutput.write(Data(AnsiWriter.bytes(grid)))
        for warning in decoded.warnings { printError("urlcache: \(input.name): \(warning)") }
        if timings {
            printError("timings: decode+scale \(Render.ms(decodedAt - start)) ms, render \(Render.ms(renderedAt - decodedAt)) ms, write \(Render.ms(clock.now - renderedAt)) ms")
        }
    }

    /// The picture in a pixel format: decoded straight to the exact pixel
    /// box it is shown in, so that the terminal never rescales it.
    private func renderPixels(_ input: Input, format: PictureFormat, terminal: WindowSize?, detection: Detection?) throws {
        let clock = ContinuousClock()
        let start = clock.now
        let area = area(terminal)
        let cell = WindowSize.cellPixels(terminal, replied: detection?.cellPixels)
        var cells = (columns: 1, rows: 1)
        let size = { (info: SourceInfo) -> (width: Int, height: Int) in
            let p = PixelPlacement.fit(imageWidth: info.width, imageHeight: info.height, columns: area.columns, rows: area.rows,
                                       cellWidth: cell.width, cellHeight: cell.height, centred: false)
            cells = (p.columns, p.rows)
            return (p.width, p.height)
        }
        let env = list.environment
        let route = detection?.route(for: format) ?? (!(env["TMUX"] ?? "").isEmpty ? .passthrough : .direct)
        let seed = UInt32(truncatingIfNeeded: getpid())
        // Placeholder cells name the image by a colour: an id they can say.
        let id = route == .placeholders ? KittyPlaceholders.imageID(seed) : seed & 0xFFFFFF | 1
        // Compression pays where bytes are dear (over ssh), not on a local
        // terminal or into a file, where zlib costs more time than it saves.
        let compress = env["SSH_CONNECTION"] != nil || env["SSH_TTY"] != nil
        // A local kitty that said it reads our shared memory gets the pixels there.
        let medium = kittyMedium ?? (route == .direct ? detection?.kittyMedium : nil) ?? .direct
        let options = PictureOptions(imageID: id, registers: registers ?? detection?.registers ?? SixelEncoder.defaultRegisters,
                                     moveCursor: true, compress: compress, medium: medium)
        // Inside tmux, passthrough on for our pane until tmux has read the
        // picture (a file or pipe gets the bytes and no switch).
        let switchOn = { route.needsPassthrough && terminal != nil ? PassthroughSwitch.turnOn(environment: env) : nil }
        if let animation = try animation(input, terminal: terminal, samples: (1, 1), size: size) {
            let passthrough = switchOn()
            return try play(animation, with: Render.picturePlayer(format: format, options: options, cells: cells, route: route,
                                                                  duration: duration, ending: { passthrough?.restore(environment: env) }),
                            input: input)
        }
        let decoded = try decode(input, samples: (1, 1), size: size)
        let decodedAt = clock.now
        let image = decoded.pixmap.pixelImage()
        guard let picture = image.bytes(format, options: options, route: route, columns: cells.columns, rows: cells.rows) else {
            throw Failure.failed("\(input.name): could not encode the picture as \(format.rawValue)")
        }
        // The cursor ends below the picture's last row (sixel) or to its right
        // (kitty, iTerm2): a newline leaves the prompt under it. Placeholders
        // are lines of text, each with its newline.
        var bytes = picture.firstSequence()
        bytes += picture.rows.isEmpty ? [UInt8(ascii: "\n")] : picture.rows.flatMap { $0 + [UInt8(ascii: "\n")] }
        let encodedAt = clock.now
        // Between switching passthrough on and putting it back, a signal
        // waits: nothing is left on that the user did not set.
        Interruption.install()
        let passthrough = switchOn()
        FileHandle.standardOutput.write(Data(bytes))
        passthrough?.restore(environment: env)
        Interruption.finish()
        if timings {
            let writtenAt = clock.now
            // The terminal has read the picture once it answers a DA1 sent after it.
            let read = terminal != nil && TerminalQuery.ask(TerminalQuery.barrier)?.timedOut == false
            printError("timings: decode+scale \(Render.ms(decodedAt - start)) ms, encode \(Render.ms(encodedAt - decodedAt)) ms, write \(Render.ms(writtenAt - encodedAt)) ms"
                + (read ? ", terminal read it \(Render.ms(clock.now - writtenAt)) ms later, \(Render.ms(clock.now - start)) ms in all" : ""))
        }
        for warning in decoded.warnings { printError("urlcache: \(input.name): \(warning)") }
    }

    /// The input as an animation to play: only an animated file, on a
    /// terminal unless `--animate on`, and with its art fitting on the screen
    /// (the frames after the first are drawn by moving back over it).
    private func animation(_ input: Input, terminal: WindowSize?, samples: (x: Int, y: Int),
                           size: (SourceInfo) -> (width: Int, height: Int)) throws(Failure) -> AnimationDecoder? {
        guard case let .file(path) = input, animate == .on || (animate == .auto && terminal != nil),
              terminal.map({ area($0).rows < $0.rows }) ?? true else { return nil }
        do {
            return try AnimationDecoder.open(path: path, background: look.background, samples: samples, size: size)
        } catch {
            throw .failed("\(input.name): \(error.description)")
        }
    }

    /// Plays `animation` through `player`; its warnings go to stderr after.
    private func play<Shown>(_ animation: AnimationDecoder, with player: AnimationPlayer<Shown>, input: Input) throws(Failure) {
        do {
            try player.play(animation)
        } catch {
            throw .failed("\(input.name): \(error.description)")
        }
        for warning in animation.warnings { printError("urlcache: \(input.name): \(warning)") }
    }

    /// An animation in a picture format: `rows` lines are made first (so
    /// that nothing scrolls later), the cursor is saved at their top, and
    /// each frame is drawn from there, a kitty picture replacing the last
    /// one under the same id, a sixel painting over it. Placeholders are
    /// printed once, under the first frame's upload: the later uploads
    /// replace the image they name. `ending` runs last, before a signal
    /// that stopped it ends the process.
    static func picturePlayer(format: PictureFormat, options: PictureOptions, cells: (columns: Int, rows: Int), route: PictureRoute,
                              duration: Double?, ending: @escaping () -> Void) -> AnimationPlayer<PictureBytes> {
        let rows = cells.rows
        let empty = PictureBytes(sequence: [])
        let delete = KittyGraphics.delete(id: options.imageID)
        var player = AnimationPlayer<PictureBytes>(duration: duration, prepare: { frame in
            let bytes = frame.pixmap.pixelImage().bytes(format, options: options, route: route, columns: cells.columns, rows: rows) ?? empty
            return (bytes, bytes.sequence.count + (bytes.shared == nil ? 0 : bytes.sequence.count * 3 / 4))
        }, output: { bytes, previous in
            var out = previous == nil ? Array(String(repeating: "\n", count: rows).utf8) + Array("\u{1B}[\(rows)A\u{1B}7".utf8) : []
            // Each showing from a new shared-memory object: kitty unlinks one once read.
            out += Array("\u{1B}8".utf8) + bytes.firstSequence()
            if previous == nil, !bytes.rows.isEmpty {
                out += Array("\u{1B}8".utf8) + bytes.rows.flatMap { $0 + Array("\r\n".utf8) }
            }
            return out
        }, closing: Array("\u{1B}8\u{1B}[\(rows)B\r".utf8),
           interrupted: format != .kitty ? [] : route == .direct ? delete : TmuxPassthrough.wrap(delete))
        player.ending = ending
        return player
    }

    /// The cells to fill: `--size`, else the terminal's less a line for
    /// the prompt, else 80×24.
    private func area(_ terminal: WindowSize?) -> CellSize {
        size ?? terminal.map { CellSize(columns: $0.columns, rows: max(1, $0.rows - 1)) } ?? CellSize(columns: 80, rows: 24)
    }

    /// The image decoded to the size `size` picks, a failure named after the input.
    private func decode(_ input: Input, samples: (x: Int, y: Int),
                        size: (SourceInfo) -> (width: Int, height: Int)) throws(Failure) -> DecodedImage {
        do {
            switch input {
            case let .file(path): return try ImageDecoder.decode(path: path, background: look.background, samples: samples, size: size)
            case let .bytes(bytes, _): return try ImageDecoder.decode(bytes: bytes, background: look.background, samples: samples, size: size)
            }
        } catch {
            throw .failed("\(input.name): \(error.description)")
        }
    }

    static func ms(_ d: Duration) -> String {
        String(format: "%.2f", Double(d.components.attoseconds) / 1e15 + Double(d.components.seconds) * 1000)
    }

    /// Where the image comes from.
    enum Input {
        case file(String)
        /// A stream read whole: standard input (`-`), a FIFO, `/dev/stdin`,
        /// `<(…)`; `name` says which in messages.
        case bytes([UInt8], name: String)

        /// How messages name it.
        var name: String {
            switch self {
            case let .file(path): return path
            case let .bytes(_, name): return name
            }
        }
    }

    /// The most `render -` reads from standard input, as for a download.
    static let maxInputBytes = TransferLimits().maxBytes

    /// A stream read whole, up to `maxInputBytes`.
    private static func readStream(_ handle: FileHandle, name: String) throws(Failure) -> Input {
        let data = handle.readData(ofLength: Int(maxInputBytes) + 1)
        guard data.count <= maxInputBytes else {
            throw .failed("\(name): image larger than the \(ByteCount.format(maxInputBytes)) limit")
        }
        return .bytes(Array(data), name: name)
    }

    /// A file path as given, standard input for `-`, or a URL's cached
    /// image after the policy ran.
    private func resolveImage() throws(Failure) -> Input {
        if image == "-" { return try Render.readStream(FileHandle.standardInput, name: "stdin") }
        // A path that is no regular file (a FIFO, /dev/stdin, <(…)) cannot
        // be read twice or rewound, as the decoders do a file: read it as a
        // stream, as `-` is.
        var info = stat()
        if stat(image, &info) == 0, info.st_mode & S_IFMT != S_IFREG, info.st_mode & S_IFMT != S_IFDIR {
            guard let handle = FileHandle(forReadingAtPath: image) else {
                throw .failed("\(image): \(Errno.current)")
            }
            return try Render.readStream(handle, name: image)
        }
        guard image.lowercased().hasPrefix("http://") || image.lowercased().hasPrefix("https://") else {
            guard FileManager.default.fileExists(atPath: image) else {
                throw .usage("\(image): no such file")
            }
            return .file(image)
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
        let report = Interruption.display(URLEntry(url: url), force: force, with: policy.controller(cache: list.cache, list: urls))
        if case let .failure(error) = report.result {
            guard report.copy != nil else { throw .failed("\(image): \(error.description)") }
            printError("urlcache: \(image): \(error.description) (showing the cached copy)")
        }
        guard let copy = report.copy else { throw .failed("\(image): nothing cached") }
        return .file(copy.imagePath)
    }
}

/// The look of the art, shared by `render` and the screen.
struct LookOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The colours to use; auto follows NO_COLOR, COLORTERM and terminfo.", valueName: "mode"))
    var colors: ColorChoice = .auto

    @Option(help: ArgumentHelp("The glyphs the art is drawn with (default: the finest the terminal draws; halves in a pipe).", valueName: "set"))
    var symbols: SymbolSet?

    @Option(help: ArgumentHelp("Dithering in palette modes.", valueName: "d"))
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

import ArgumentParser
import BlockArt
import FoundationEssentials
import URLCacheKit
import URLCacheScreen
import URLCacheSupport

#if canImport(Glibc)
import Glibc
#endif

/// `urlcache` with no command: the screen.
struct Show: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Open the screen (the default): Display Image, Clear Cache, Updated.",
        // Written from the key table, as the screen's own help is.
        discussion: KeyTable.manualLines.joined(separator: "\n")
    )

    @OptionGroup var list: ListOptions
    @OptionGroup var policy: PolicyOptions

    @Option(
        help: ArgumentHelp(
            "symbols (block art), kitty, sixel or iterm; auto picks the best the terminal shows.",
            valueName: "format"
        )
    )
    var format: FormatChoice = .auto

    @OptionGroup var look: LookOptions

    @Option(
        help: ArgumentHelp(
            "The entry the screen opens at: its number in the list, or its title (default 1).",
            valueName: "n|title"
        )
    )
    var entry: String?

    @Option(help: ArgumentHelp("Write diagnostics to this file (off by default).", valueName: "file"))
    var logFile: String?

    @Flag(help: ArgumentHelp("Quit once the first image is drawn (Benchmarks/first-frame.sh).", visibility: .hidden))
    var exitAfterFirstFrame = false

    /// What the screen is opened with: the list, the policy, the look the
    /// command line asks for, and what detection found (or, for the
    /// launch's decode, what the environment said).
    private func screenOptions(_ urls: URLList, _ detection: Detection, _ window: WindowSize?) -> ScreenApp.Options {
        // ncursesw writes nothing past ASCII outside a UTF-8 locale: the art is ASCII there too.
        let utf8 = CursesTerminal.localeIsUTF8
        var options = ScreenApp.Options(
            list: urls,
            controller: policy.controller(cache: list.cache, list: urls),
            symbols: look.symbols ?? (utf8 ? detection.symbols : .ascii),
            dither: look.dither,
            background: look.background,
            cellAspect: look.cellAspect?.value ?? window?.cellAspect ?? 0.5,
            logPath: logFile
        )
        options.exitAfterFirstImage = exitAfterFirstFrame
        options.pictures = pictures(detection)
        return options
    }

    /// How pictures are shown, as `detection` found the terminal.
    private func pictures(_ detection: Detection) -> ScreenView.PictureSettings {
        var pictures = ScreenView.PictureSettings()
        pictures.format = format.requested ?? detection.format
        pictures.registers = detection.registers
        pictures.route = detection.route(for: pictures.format)
        pictures.kittyMedium = detection.kittyMedium
        pictures.kittyAnimates = detection.kittyAnimates
        return pictures
    }

    /// Detection as the screen needs it: before ncurses takes the
    /// terminal, so that its replies do not reach the keys.
    private static func detect(
        environment: [String: String],
        colors: ColorMode?,
        format: PictureFormat?
    ) -> Detection {
        var detection = PictureDetection.detect(environment: environment, requestedColors: colors).0
        if (format ?? detection.format) == .kitty {
            PictureDetection.askKittyMedium(&detection, environment: environment)
        }
        return detection
    }

    /// Detection for the screen. A terminal the environment names gets its
    /// glyphs from that name: it is asked (tmux, or a sixel terminal for its
    /// registers) on a thread of its own, while the list, the cache and the
    /// picture are read on the environment's word (`launch`). One it does
    /// not name is asked first, since its answers pick the glyphs the decode
    /// is sized for: `launch` is then the answer, and nothing is pending.
    private func startDetection() -> (launch: Detection, answers: Pending<Detection>?) {
        let (environment, colors, requested) = (list.environment, look.colors.requested, format.requested)
        let asking = { @Sendable in Show.detect(environment: environment, colors: colors, format: requested) }
        guard !PictureDetection.needsQuery(environment: environment) else { return (asking(), nil) }
        let word = PictureDetection.decide(environment: environment, replies: nil, requestedColors: colors)
        return (word, Pending(asking))
    }

    /// `--entry`: a number from 1, as `urlcache list` shows, or a title
    /// (any case); a near miss is named.
    static func index(of entry: String?, in urls: URLList, asked: String = "--entry") throws(Failure) -> Int {
        guard let entry else { return 0 }
        let count = urls.entries.count
        if let number = Int(entry) {
            guard (1...max(1, count)).contains(number) else {
                throw .usage(
                    "\(asked) \(number): the list has \(count) entr\(count == 1 ? "y" : "ies") (urlcache list shows them)"
                )
            }
            return number - 1
        }
        let titles = urls.entries.map(\.displayName)
        if let found = titles.firstIndex(where: { $0.lowercased() == entry.lowercased() }) { return found }
        let near = Suggestion.nearest(to: entry, among: titles).map { "; did you mean '\($0)'?" } ?? ""
        throw .usage("\(asked) '\(entry)': no entry has that number or title\(near)")
    }

    func run() throws {
        let urls = try list.loadList()
        let start = try Show.index(of: entry, in: urls)
        // Not a terminal, TERM=dumb or unknown: said before anything is sent to it.
        let terminfoColors: Int
        do { terminfoColors = try CursesTerminal.check(environment: list.environment) } catch {
            throw Failure.usage(error.description)
        }
        let (launch, answers) = startDetection()
        let window = WindowSize.of(STDOUT_FILENO)
        var options = screenOptions(urls, launch, window)
        options.startIndex = start
        options.launchColors = CursesTerminal.expectedColors(launch.colors, terminfoColors: terminfoColors)
        var passthrough: PassthroughSwitch?
        var terminal: CursesTerminal?
        let result = Result { () throws(ScreenError) -> ScreenEnd in
            let app = try ScreenApp(
                options: options,
                window: CellSize(columns: window?.columns ?? 80, rows: window?.rows ?? 24),
                cellPixels: WindowSize.cellPixels(window, replied: launch.cellPixels)
            ) { () throws(ScreenError) in
                let detection = answers?.wait() ?? launch
                // Passthrough on for our pane while the screen is up, and back as
                // it was once the terminal is restored (the picture deleted).
                let settings = pictures(detection)
                if settings.route.needsPassthrough {
                    passthrough = PassthroughSwitch.turnOn(environment: list.environment)
                }
                let opened = try CursesTerminal(
                    environment: list.environment,
                    colors: detection.colors,
                    cellPixels: detection.cellPixels,
                    terminfoColors: terminfoColors
                )
                terminal = opened
                return (opened, settings)
            }
            return try app.run()
        }
        terminal?.close()
        // Before a signal ends the process below.
        passthrough?.restore(environment: list.environment)
        switch result {
        case .success(.quit): break
        case let .success(.signal(number)):
            // The terminal is restored: now end as the signal would have.
            Interruption.end(by: number)
            throw Failure.failed("ended by signal \(number)")
        case let .failure(.eventLoop(errno)): throw Failure.failed(ScreenError.eventLoop(errno).description)
        // The terminal could not be opened: how it was called.
        case let .failure(error): throw Failure.usage(error.description)
        }
    }
}

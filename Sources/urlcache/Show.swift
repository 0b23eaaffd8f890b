import ArgumentParser
import BlockArt
import Foundation
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
    /// command line asks for, and what detection found.
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
        options.pictures.format = format.requested ?? detection.format
        options.pictures.registers = detection.registers
        options.pictures.route = detection.route(for: options.pictures.format)
        options.pictures.kittyMedium = detection.kittyMedium
        options.pictures.kittyAnimates = detection.kittyAnimates
        return options
    }

    /// `--entry`: a number from 1, as `urlcache list` shows, or a title
    /// (any case); a near miss is named.
    static func index(of entry: String?, in urls: URLList) throws(Failure) -> Int {
        guard let entry else { return 0 }
        let count = urls.entries.count
        if let number = Int(entry) {
            guard (1...max(1, count)).contains(number) else {
                throw .usage(
                    "--entry \(number): the list has \(count) entr\(count == 1 ? "y" : "ies") (urlcache list shows them)"
                )
            }
            return number - 1
        }
        let titles = urls.entries.map(\.displayName)
        if let found = titles.firstIndex(where: { $0.lowercased() == entry.lowercased() }) { return found }
        let near = Suggestion.nearest(to: entry, among: titles).map { "; did you mean '\($0)'?" } ?? ""
        throw .usage("--entry '\(entry)': no entry has that number or title\(near)")
    }

    func run() throws {
        let urls = try list.loadList()
        let start = try Show.index(of: entry, in: urls)
        // Not a terminal, TERM=dumb or unknown: said before anything is sent to it.
        let terminfoColors: Int
        do { terminfoColors = try CursesTerminal.check(environment: list.environment) } catch {
            throw Failure.usage(error.description)
        }
        // Before ncurses takes the terminal: its replies must not reach the keys.
        var detection = PictureDetection.detect(environment: list.environment, requestedColors: look.colors.requested).0
        if (format.requested ?? detection.format) == .kitty {
            PictureDetection.askKittyMedium(&detection, environment: list.environment)
        }
        let window = WindowSize.of(STDOUT_FILENO)
        var options = screenOptions(urls, detection, window)
        options.startIndex = start
        // Passthrough on for our pane while the screen is up, and back as
        // it was once the terminal is restored (the picture deleted).
        let passthrough =
            options.pictures.route.needsPassthrough ? PassthroughSwitch.turnOn(environment: list.environment) : nil
        var terminal: CursesTerminal?
        let result = Result { () throws(ScreenError) -> ScreenEnd in
            let app = try ScreenApp(
                options: options,
                window: CellSize(columns: window?.columns ?? 80, rows: window?.rows ?? 24),
                cellPixels: WindowSize.cellPixels(window, replied: detection.cellPixels)
            ) { () throws(ScreenError) in
                let opened = try CursesTerminal(
                    environment: list.environment,
                    colors: detection.colors,
                    cellPixels: detection.cellPixels,
                    terminfoColors: terminfoColors
                )
                terminal = opened
                return opened
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

import ArgumentParser
import BlockArt
import Foundation
import URLCacheKit
import URLCacheScreen

/// `urlcache` with no command: the screen.
struct Show: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Open the screen (the default): Display Image, Clear Cache, Updated.",
        discussion: "Keys: d or Enter Display Image, r re-check now, c Clear Cache, ← → previous/next, ? help, q quit."
    )

    @OptionGroup var list: ListOptions
    @OptionGroup var policy: PolicyOptions

    @Option(help: ArgumentHelp("auto, truecolor, 256, 16, 8 or none.", valueName: "mode"))
    var colors = "auto"

    @Option(help: ArgumentHelp("halves, quadrants, sextants or ascii.", valueName: "set"))
    var symbols: SymbolSet = .halves

    @Option(help: ArgumentHelp("Dithering in palette modes: none, ordered or diffusion.", valueName: "d"))
    var dither: Dither = .none

    @Option(help: ArgumentHelp("Colour behind transparent pixels, RRGGBB.", valueName: "rrggbb"))
    var background = "000000"

    @Option(help: ArgumentHelp("A cell's width over its height (default: from the terminal, else 0.5).", valueName: "r"))
    var cellAspect: Double?

    @Option(help: ArgumentHelp("Write diagnostics to this file (off by default).", valueName: "file"))
    var logFile: String?

    func validate() throws {
        if colors != "auto" && ColorMode(rawValue: colors) == nil {
            throw ValidationError("--colors must be auto, truecolor, 256, 16, 8 or none, not '\(colors)'")
        }
        if RGB8(hex: background) == nil { throw ValidationError("--background must be RRGGBB, not '\(background)'") }
    }

    func run() throws {
        let urls: URLList
        do { urls = try list.loadList() } catch let failure as Failure { fail(failure) }
        let environment = ProcessInfo.processInfo.environment
        let terminal: CursesTerminal
        do { terminal = try CursesTerminal(environment: environment, requested: ColorMode(rawValue: colors)) } catch {
            fail(.usage(error.description))
        }
        let options = ScreenApp.Options(
            list: urls, controller: policy.controller(cache: list.cache, list: urls), symbols: symbols,
            colors: ColorMode(rawValue: colors), dither: dither, background: RGB8(hex: background) ?? RGB8(0, 0, 0),
            cellAspect: cellAspect ?? TerminalProbe.windowSize()?.cellAspect ?? 0.5, logPath: logFile)
        ScreenApp(options: options, terminal: terminal).run()
        terminal.close()
    }
}

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

    @OptionGroup var look: LookOptions

    @Option(help: ArgumentHelp("Write diagnostics to this file (off by default).", valueName: "file"))
    var logFile: String?

    func run() throws {
        let urls: URLList
        do { urls = try list.loadList() } catch let failure as Failure { fail(failure) }
        let environment = ProcessInfo.processInfo.environment
        let terminal: CursesTerminal
        do { terminal = try CursesTerminal(environment: environment, requested: look.requestedColors) } catch {
            fail(.usage(error.description))
        }
        let options = ScreenApp.Options(
            list: urls, controller: policy.controller(cache: list.cache, list: urls), symbols: look.symbols,
            colors: look.requestedColors, dither: look.dither, background: look.backgroundColor,
            cellAspect: look.cellAspect ?? TerminalProbe.windowSize()?.cellAspect ?? 0.5, logPath: logFile)
        ScreenApp(options: options, terminal: terminal).run()
        terminal.close()
    }
}

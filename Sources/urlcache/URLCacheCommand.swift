import ArgumentParser
import URLCacheKit
import URLCacheSupport

/// `urlcache`: the screen by default, and commands for scripts.
struct URLCacheCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "urlcache",
        abstract:
            "Keep an image of the day cached on disk and show it: real pixels where the terminal can, block art everywhere else.",
        discussion: """
            A copy checked less than 24 hours ago is shown with no network at all; an \
            older one is re-checked with a conditional GET and downloaded again only if \
            it changed. Run with no command to open the screen.
            """,
        version: URLCacheVersion.string,
        subcommands: [
            Show.self, Fetch.self, Render.self, List.self, History.self, Save.self, Clear.self, Probe.self,
            Sources.self, Add.self, Remove.self,
        ],
        defaultSubcommand: Show.self
    )
}

extension URLCacheCommand {
    /// A first word that is no command is a mistyped one: the screen, the
    /// default, takes no words, so ArgumentParser would call `fecth` an
    /// unexpected argument of `show`.
    static func checkCommandName(_ arguments: [String]) throws(Failure) {
        guard let word = arguments.first, !word.hasPrefix("-") else { return }
        let names = configuration.subcommands.map { $0._commandName } + ["help"]
        guard !names.contains(word) else { return }
        let near = Suggestion.nearest(to: word, among: names).map { "; did you mean '\($0)'?" } ?? ""
        throw .usage("unknown command '\(word)'\(near) (commands: \(names.dropLast().joined(separator: ", ")))")
    }

    /// The screen's command line parsed as `show` alone, or nil to parse
    /// it as the whole tree does.
    ///
    /// The launch waits for the parse, and the whole tree reflects all
    /// eleven commands' options (about 1 ms of the 25 to the first frame).
    /// Only a line that parses cleanly is taken: a command's name is left
    /// to `parseAsRoot`, and so is everything `show` alone throws for
    /// (help, the version, completions, any error), so that what is printed
    /// is the tree's, word for word.
    static func parseQuickly(_ arguments: [String]) -> ParsableCommand? {
        guard arguments.first.map({ $0.hasPrefix("-") }) ?? true else { return nil }
        return try? Show.parse(arguments)
    }
}

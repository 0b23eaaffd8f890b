import ArgumentParser
import FoundationEssentials
import URLCacheKit
import URLCacheSupport

/// `urlcache add NAME|URL`: a catalogue source, or any image or feed, at the
/// end of the person's own list (made from the built-in list the first
/// time), checked at once.
struct Add: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Add a source of `urlcache sources`, or any image or feed URL, to your URL list."
    )

    @OptionGroup var list: ListOptions
    @OptionGroup var policy: PolicyOptions

    @Argument(help: ArgumentHelp("A name from `urlcache sources`, or an http(s) URL.", valueName: "source"))
    var source: String

    @Option(help: ArgumentHelp("The title to show for it.", valueName: "title"))
    var title: String?

    @Flag(help: "The URL is a feed (RSS, Atom, JSON or a page) naming the image: else guessed from its answer.")
    var feed = false

    @Option(help: ArgumentHelp("With --feed: the key path to the image in a JSON feed.", valueName: "path"))
    var select: String?

    func validate() throws {
        if select != nil && !feed { throw ValidationError("--select goes with --feed") }
    }

    func run() throws {
        var entry = try chosen()
        let path = list.config ?? ConfigLocator.userListPath(environment: list.environment)
        let seed = ConfigLocator.builtInData
        // The first answer tells an image from a feed, when not told; it
        // caches the image as it does.
        let guessing = Catalogue.source(named: source) == nil && !feed
        let urls = (try? list.loadList()) ?? URLList(entries: [entry], source: path)
        // Already there: nothing to check, and nothing is written.
        if let at = urls.entries.firstIndex(where: { $0.url == entry.url && $0.problem == nil }) {
            let known = urls.entries[at]
            Console.line(
                "Entry \(at + 1) of \(path.terminalSafe) already: \(known.displayName) (\(known.feed == nil ? "image" : "feed"))"
            )
            return
        }
        let controller = policy.controller(cache: list.cache, list: urls)
        var report = controller.display(entry)
        if guessing, case .failure(.notAnImage) = report.result {
            entry.feed = FeedSpec()
            report = controller.display(entry)
        }
        if case let .failure(error) = report.result, case .transport = error {
            printError(
                "urlcache: warning: not checked (\(error)): added as \(entry.feed == nil ? "an image" : "a feed")"
            )
        } else if case let .failure(error) = report.result {
            throw Failure.failed("\(entry.url.absoluteString.terminalSafe): \(error); nothing added")
        }
        let edited: ListFile.Edited
        do { edited = try ListFile.add(entry, to: path, seed: seed) } catch { throw Failure.usage(error.description) }
        let kind = edited.entry.feed == nil ? "image" : "feed"
        let already = edited.already ? " already" : ""
        Console.line("Entry \(edited.number) of \(path.terminalSafe)\(already): \(edited.entry.displayName) (\(kind))")
    }

    /// The entry `source` names: a catalogue source, or a URL.
    private func chosen() throws(Failure) -> URLEntry {
        if let named = Catalogue.source(named: source), var entry = named.entry(environment: list.environment) {
            if let title { entry.title = title }
            return entry
        }
        guard source.contains("://") else {
            let near = Suggestion.nearest(to: source, among: Catalogue.sources.map(\.name))
            throw .usage(
                "'\(source.terminalSafe)' is neither a source of `urlcache sources` nor an http(s) URL"
                    + (near.map { "; did you mean '\($0)'?" } ?? "")
            )
        }
        do {
            let url = try ImageURL.validate(source, index: 1, source: "add")
            return URLEntry(url: url, title: title, feed: feed ? FeedSpec(select: select) : nil)
        } catch {
            guard case let .badEntry(_, _, reason) = error else { throw .usage(error.description) }
            throw .usage("'\(source.terminalSafe)': \(reason)")
        }
    }
}

import ArgumentParser
import FoundationEssentials
import URLCacheKit
import URLCacheSupport

/// `urlcache remove N|TITLE`: an entry out of the person's own list. Its
/// cached images stay until Clear Cache, or `--purge`.
struct Remove: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove",
        abstract: "Take an entry out of your URL list (its cached images stay unless --purge)."
    )

    @OptionGroup var list: ListOptions

    @Argument(help: ArgumentHelp("The entry: its number (as `urlcache list` shows) or its title.", valueName: "entry"))
    var entry: String

    @Flag(help: "Delete the entry's cached images too.")
    var purge = false

    func run() throws {
        let path = list.config ?? ConfigLocator.userListPath(environment: list.environment)
        guard list.config != nil || Posix.exists(path) else {
            throw Failure.usage(
                "no URL list of your own at \(path) yet: the built-in list is not edited (urlcache add makes yours)"
            )
        }
        let urls = try list.loadList()
        let number = try Show.index(of: entry, in: urls, asked: "remove") + 1
        let removed: URLEntry
        do { removed = try ListFile.remove(number, from: path) } catch { throw Failure.usage(error.description) }
        Console.line("Removed entry \(number): \(removed.displayName) (\(removed.url.absoluteString.terminalSafe))")
        guard purge else { return }
        do {
            let gone = try list.cache.purge(removed.url)
            Console.line("Deleted its \(gone) cached image\(gone == 1 ? "" : "s")")
        } catch {
            throw Failure.failed(error.description)
        }
    }
}

import ArgumentParser
import FoundationEssentials
import URLCacheKit
import URLCacheSupport

#if canImport(Glibc)
import Glibc
#endif

/// `urlcache clear`: the original's Clear Cache.
struct Clear: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "clear", abstract: "Remove every cached image.")

    @OptionGroup var list: ListOptions

    @Flag(name: [.short, .long], help: "Do not ask for confirmation.")
    var yes = false

    func run() throws {
        // The cache holds every list's images; a list named with --config
        // is still read, so that a broken one is reported as everywhere.
        if list.config != nil { _ = try list.loadList() }
        if !yes {
            guard isatty(STDIN_FILENO) == 1 else {
                throw Failure.usage("not clearing the cache without confirmation: stdin is not a terminal (use --yes)")
            }
            Console.write(Array("Do you really want to clear the cache? [y/N] ".utf8), to: STDERR_FILENO)
            let answer = readLine()?.trimming(.whitespaces).lowercased() ?? ""
            guard answer == "y" || answer == "yes" else {
                Console.line("Cache not cleared")
                return
            }
        }
        let cache = list.cache
        do {
            let count = try URLCacheController(cache: cache).clearCache()
            Console.line("Cleared \(count) cached image\(count == 1 ? "" : "s") from \(cache.directory)")
        } catch {
            throw Failure.failed(error.description)
        }
    }
}

import ArgumentParser
import Foundation
import URLCacheKit
#if canImport(Glibc)
import Glibc
#endif

/// `urlcache clear`: the original's Clear Cache.
struct Clear: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Remove every cached image.")

    @Option(name: .long, help: ArgumentHelp("The cache directory (default $XDG_CACHE_HOME/urlcache).", valueName: "dir"))
    var cacheDir: String?

    @Flag(name: [.short, .long], help: "Do not ask for confirmation.")
    var yes = false

    func run() throws {
        if !yes {
            guard isatty(STDIN_FILENO) == 1 else {
                fail(.usage("not clearing the cache without confirmation: stdin is not a terminal (use --yes)"))
            }
            FileHandle.standardError.write(Data("Do you really want to clear the cache? [y/N] ".utf8))
            let answer = readLine()?.trimmingCharacters(in: .whitespaces).lowercased() ?? ""
            guard answer == "y" || answer == "yes" else {
                print("Cache not cleared")
                return
            }
        }
        let environment = ProcessInfo.processInfo.environment
        let cache = DiskCache(directory: cacheDir ?? ConfigLocator.defaultCacheDirectory(environment: environment))
        do {
            let count = try URLCacheController(cache: cache).clearCache()
            print("Cleared \(count) cached image\(count == 1 ? "" : "s") from \(cache.directory.terminalSafe)")
        } catch {
            fail(.failed(error.description))
        }
    }
}

import ArgumentParser
import FoundationEssentials
import URLCacheKit

/// `urlcache sources`: the built-in catalogue, to pick from with `add`.
struct Sources: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sources",
        abstract: "List the catalogue of image sources that `urlcache add NAME` adds."
    )

    func run() throws {
        let environment = ProcessInfo.processInfo.environment
        for source in Catalogue.sources {
            let address = source.entry(environment: environment)?.url.absoluteString ?? source.address
            Console.line("\(String((source.name + String(repeating: " ", count: 18)).prefix(18))) \(source.title)")
            Console.line("    \(source.kind.description) · \(source.feed == nil ? "image" : "feed") · \(source.terms)")
            Console.line("    \(address)")
            if let key = source.key { Console.line("    \(key)") }
        }
        Console.line("Add one with `urlcache add NAME`; `urlcache add URL` adds any image or feed.")
    }
}

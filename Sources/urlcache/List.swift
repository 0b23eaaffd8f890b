import ArgumentParser
import URLCacheSupport
import Foundation
import URLCacheKit

/// `urlcache list`: the entries and what the cache holds for each.
struct List: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "List the images of the URL list and their cached state.")

    @OptionGroup var list: ListOptions

    func run() throws {
        let urls = try list.loadList()
        let cache = list.cache
        print("URL list: \(urls.source.terminalSafe)")
        print("Cache: \(cache.directory.terminalSafe)")
        for (offset, entry) in urls.entries.enumerated() {
            print("\(offset + 1). \(entry.displayName)")
            print("   \(entry.url.absoluteString.terminalSafe)")
            switch Result(catching: { try cache.lookup(entry.url) }) {
            case let .success(copy?):
                print("   cached, Updated: \(UpdatedFormat.string(copy.updated))")
            case .success(nil):
                print("   not cached")
            case let .failure(error):
                print("   cache unreadable: \(error)")
            }
        }
    }
}

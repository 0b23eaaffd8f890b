import ArgumentParser
import Foundation
import URLCacheKit
import URLCacheScreen
import URLCacheSupport
#if canImport(Glibc)
import Glibc
#endif

/// "fresh for 9 min (max-age)", "stale: checked on the next Display Image (no-cache)".
func freshness(_ entry: URLEntry, _ copy: CachedCopy, _ controller: URLCacheController, _ now: Date) -> String {
    let server = controller.mode(for: entry) == .server
    var reason = server ? copy.metadata?.lifetime?.reason ?? "nothing recorded from the server" : "refreshInterval"
    if server, copy.metadata?.lifetime?.mustRevalidate == true { reason += ", must-revalidate" }
    let left = copy.updated.addingTimeInterval(controller.interval(for: entry, copy)).timeIntervalSince(now)
    guard left > 0 else { return "stale: checked on the next Display Image (\(reason))" }
    return "fresh for \(DurationText.words(left)) (\(reason))"
}

/// `urlcache list`: the entries and what the cache holds for each.
struct List: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List the images of the URL list and their cached state.")

    @OptionGroup var list: ListOptions
    @OptionGroup var policy: PolicyOptions

    func run() throws {
        let urls = try list.loadList()
        let cache = list.cache
        let controller = policy.controller(cache: cache, list: urls)
        let now = Date()
        // On a terminal each line is cut to its width in columns (a CJK title
        // takes two a character), so that no line wraps; piped, nothing is cut.
        let width = WindowSize.of(STDOUT_FILENO)?.columns
        func show(_ line: String) { Console.line(width.map { line.clipped(toColumns: $0) } ?? line) }
        show("URL list: \(urls.source.terminalSafe)")
        show("Cache: \(cache.directory.terminalSafe)")
        for (offset, entry) in urls.entries.enumerated() {
            show("\(offset + 1). \(entry.displayName)")
            show("   \(entry.feed == nil ? "" : "feed: ")\(entry.url.absoluteString.terminalSafe)")
            switch Result(catching: { () throws(CacheError) in try cache.lookup(entry.url) }) {
            case let .success(copy?):
                show("   cached, Updated: \(UpdatedFormat.string(copy.updated)), \(freshness(entry, copy, controller, now))")
                captionLines(copy.metadata).forEach { show("   " + $0) }
            case .success(nil):
                show("   not cached")
            case let .failure(error):
                show("   cache unreadable: \(error)")
            }
        }
    }
}

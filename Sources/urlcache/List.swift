import ArgumentParser
import FoundationEssentials
import URLCacheKit
import URLCacheScreen
import URLCacheSupport

#if canImport(Glibc)
import Glibc
#endif

/// "fresh for 9 min (max-age)", "stale: checked on the next Display Image (no-cache)",
/// "stale-while-revalidate for 40 min more: shown at once and checked in the background (max-age)".
func freshness(_ copy: CachedCopy, _ rule: FreshnessRule, _ now: Date) -> String {
    let lifetime = rule.lifetime(copy.metadata)
    var reason = rule.followsServer ? lifetime?.reason ?? "nothing recorded from the server" : "refreshInterval"
    if lifetime?.mustRevalidate == true { reason += ", must-revalidate" }
    switch rule.standing(copy, now: now) {
    case let .fresh(left):
        let window = (lifetime?.staleWhileRevalidate).flatMap {
            $0 > 0 ? ", then stale-while-revalidate for \(DurationText.words($0))" : nil
        }
        return "fresh for \(DurationText.words(left)) (\(reason))\(window ?? "")"
    case let .revalidating(left):
        return
            "stale-while-revalidate for \(DurationText.words(left)) more: shown at once and checked in the background (\(reason))"
    case .stale:
        return "stale: checked on the next Display Image (\(reason))"
    }
}

/// `urlcache list`: the entries and what the cache holds for each.
struct List: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the images of the URL list and their cached state."
    )

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
        // Made terminal-safe before it is cut, so that the cut counts what is shown.
        func show(_ line: String) {
            let safe = line.terminalSafe
            Console.line(width.map { safe.clipped(toColumns: $0) } ?? safe)
        }
        show("URL list: \(urls.source)")
        show("Cache: \(cache.directory)")
        for (offset, entry) in urls.entries.enumerated() {
            show("\(offset + 1). \(entry.displayName)")
            if let problem = entry.problem {
                show("   \(problem)")
                continue
            }
            show("   \(entry.feed == nil ? "" : "feed: ")\(entry.url.absoluteString)")
            let rule = controller.rule(for: entry)
            switch Result(catching: { () throws(CacheError) in try cache.lookup(entry.url) }) {
            case let .success(copy?):
                show(
                    "   cached, Updated: \(UpdatedFormat.string(copy.updated)), \(freshness(copy, rule, now))"
                )
                captionLines(copy.metadata).forEach { show("   " + $0) }
                rememberedLines(copy.metadata, rule, now).forEach { show("   " + $0) }
            case .success(nil):
                show("   not cached")
                rememberedLines(cache.answersWithoutImage(entry.url), rule, now).forEach {
                    show("   " + $0)
                }
            case let .failure(error):
                show("   cache unreadable: \(error)")
            }
        }
    }
}

/// What the entry remembers besides its image (or with none yet): a
/// server's request to wait, failed checks; under the server's rules, a
/// 404 or 410 that still stands and a permanent redirect that is followed.
func rememberedLines(_ record: CacheRecord?, _ rule: FreshnessRule, _ now: Date) -> [String] {
    guard let metadata = record else { return [] }
    // The check's own rule: what would keep the next check from asking.
    var lines = [rule.rememberedAnswer(in: metadata, at: now)?.description].compactMap { $0 }
    if let streak = metadata.remembered.failures {
        let failed = streak.count == 1 ? "the last check failed" : "the last \(streak.count) checks failed"
        lines.append(
            failed
                + (streak.stands(at: now)
                    ? ": automatic checks (fetch --all, the screen's own) wait until "
                        + UpdatedFormat.time(streak.until, after: now) : "")
        )
    }
    if let moved = rule.movedTo(metadata), moved.stands(at: now) {
        lines.append(
            "moved permanently to \(moved.target.terminalSafe) (followed directly until \(UpdatedFormat.time(moved.until, after: now)))"
        )
    }
    return lines
}

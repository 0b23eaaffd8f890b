import ArgumentParser
import URLCacheSupport
import Foundation
import URLCacheKit

/// `urlcache fetch`: Display Image once, for scripts and cron.
struct Fetch: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fetch",
        abstract: "Apply the caching policy once and print the outcome.",
        discussion: """
            Prints three lines: the outcome, "Updated: <date>" and the cached image's path; \
            for a feed entry, then "Title:", "Credit:" and "Image:" lines as the feed gave them. \
            Exit status: 0 the image is there and the policy was applied; 3 the check failed \
            but the previous image is still there; 1 failed and nothing is cached; 2 usage or \
            config error.
            """
    )

    @OptionGroup var list: ListOptions
    @OptionGroup var policy: PolicyOptions
    @OptionGroup var target: TargetOptions

    @Flag(help: "Check now even if the copy is fresh (the check stays conditional).")
    var force = false

    func run() throws {
        let urls = try list.loadList()
        let entry = try target.entry(in: urls)
        let url = entry.url
        let controller = policy.controller(cache: list.cache, list: urls)
        let report = Interruption.display(entry, force: force, with: controller)
        switch report.result {
        case let .success(outcome):
            guard let copy = report.copy else { throw Failure.failed("the image vanished from the cache") }
            Console.line(outcome.statusLine)
            Console.line("Updated: \(UpdatedFormat.string(copy.updated))")
            Console.line(copy.imagePath)
            captionLines(copy.metadata).forEach { Console.line($0) }
        case let .failure(error):
            let message = "\(url.absoluteString): \(error.description)"
            guard let copy = report.copy else { throw Failure.failed(message) }
            Console.line("Previously cached image (check failed)")
            Console.line("Updated: \(UpdatedFormat.string(copy.updated))")
            Console.line(copy.imagePath)
            captionLines(copy.metadata).forEach { Console.line($0) }
            throw Failure.staleKept(message)
        }
    }
}

/// A feed's words about the image, a line each, made terminal-safe
/// (`fetch` and `list` print them).
func captionLines(_ metadata: CacheMetadata?) -> [String] {
    guard let metadata else { return [] }
    return [("Title", metadata.title), ("Credit", metadata.credit), ("Image", metadata.imageURL)]
        .compactMap { label, value in value.map { "\(label): \($0.terminalSafe)" } }
}

/// Which image: entry N of the list, or a URL given directly.
struct TargetOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Entry number in the list (default 1).", valueName: "n"))
    var entry: Int?

    @Option(help: ArgumentHelp("An image URL instead of a list entry.", valueName: "url"))
    var url: String?

    func validate() throws {
        if entry != nil && url != nil { throw ValidationError("give --entry or --url, not both") }
    }

    func entry(in list: URLList) throws(Failure) -> URLEntry {
        if let url {
            do { return URLEntry(url: try ImageURL.validate(url, index: 1, source: "--url")) } catch {
                throw .usage("--url: \(error.description)")
            }
        }
        do { return try list.entry(entry ?? 1) } catch {
            throw .usage(error.description)
        }
    }
}

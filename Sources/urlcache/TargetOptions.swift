import ArgumentParser
import URLCacheKit

/// Which image: entry N of the list, or an image or feed URL given directly.
struct TargetOptions: ParsableArguments {
    @Option(parsing: .unconditional, help: ArgumentHelp("Entry number in the list (default 1).", valueName: "n"))
    var entry: Int?

    @Option(help: ArgumentHelp("An image URL instead of a list entry.", valueName: "url"))
    var url: String?

    @Option(
        help: ArgumentHelp(
            "A feed (RSS, Atom, JSON or a page) that names the image, instead of a list entry.",
            valueName: "url"
        )
    )
    var feed: String?

    @Option(
        help: ArgumentHelp(
            "With --feed: the dotted key path to the image in a JSON feed (hdurl, images.0.url).",
            valueName: "path"
        )
    )
    var select: String?

    /// Whether a URL was given instead of an entry number.
    var isDirect: Bool { url != nil || feed != nil }

    func validate() throws {
        if [entry != nil, url != nil, feed != nil].filter({ $0 }).count > 1 {
            throw ValidationError("give one of --entry, --url or --feed")
        }
        if select != nil && feed == nil { throw ValidationError("--select goes with --feed") }
        if let entry, entry < 1 {
            throw ValidationError("--entry must be 1 or more: entries are numbered from 1, as `urlcache list` shows")
        }
    }

    func entry(in list: URLList) throws(Failure) -> URLEntry {
        if let text = url ?? feed {
            let option = url != nil ? "--url" : "--feed"
            do {
                let address = try ImageURL.validate(text, index: 1, source: option)
                return URLEntry(url: address, feed: feed == nil ? nil : FeedSpec(select: select))
            } catch {
                guard case let .badEntry(_, _, reason) = error else { throw .usage("\(option): \(error.description)") }
                throw .usage("\(option): \(reason)")
            }
        }
        do { return try list.entry(entry ?? 1) } catch {
            throw .usage(error.description)
        }
    }
}

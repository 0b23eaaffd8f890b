import ArgumentParser
import BlockArt
import FoundationEssentials
import URLCacheKit
import URLCacheScreen
import URLCacheSupport

#if canImport(Glibc)
import Glibc
#endif

/// `urlcache fetch`: Display Image once, for scripts and cron.
struct Fetch: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fetch",
        abstract: "Apply the caching policy once and print the outcome.",
        discussion: """
            Prints three lines: the outcome, "Updated: <date>" and the cached image's path; \
            for a feed entry, then "Title:", "Credit:" and "Image:" lines as the feed gave them, \
            and "Size:" when it offered the picture in several sizes (--fetch-size chooses). \
            With --all, a block like it for every entry. Exit status (with --all, the worst \
            of the entries): 0 the image is there and the policy was applied (or, with --all, a failing \
            entry's back-off held its check back); 3 the check failed \
            but the previous image is still there; 1 failed and nothing is cached; 2 usage or \
            config error.
            """
    )

    @OptionGroup var list: ListOptions
    @OptionGroup var policy: PolicyOptions
    @OptionGroup var target: TargetOptions

    @Flag(help: "Check now even if the copy is fresh (the check stays conditional).")
    var force = false

    @Flag(
        help:
            "Every entry of the list, six at a time; a block each, headed by its number and title. Exits with the worst status."
    )
    var all = false

    @Flag(help: "Print only the image's path, a line per entry.")
    var path = false

    @Flag(help: "Print a JSON object per entry, a line each: outcome, new, path, updated, url, title, credit, error.")
    var json = false

    /// Checks under way at once with `--all`: as many as a browser opens to
    /// one host, so that a list of one CDN's images is no burst.
    static let inFlight = 6

    /// `--fetch-size screen`'s area: the terminal's window in pixels, or its
    /// cells at the size assumed when it gives none; nil with no terminal
    /// (a timer), where the largest is taken.
    static func screenArea() -> PixelSize? {
        guard let window = [STDOUT_FILENO, STDERR_FILENO, STDIN_FILENO].lazy.compactMap(WindowSize.of).first else {
            return nil
        }
        if window.cellPixels != nil { return PixelSize(width: window.pixelWidth, height: window.pixelHeight) }
        let cell = WindowSize.assumedCellPixels
        return PixelSize(width: window.columns * cell.width, height: window.rows * cell.height)
    }

    func validate() throws {
        if all, target.entry != nil || target.isDirect {
            throw ValidationError("--all takes no --entry, --url or --feed")
        }
        if path, json { throw ValidationError("give --path or --json, not both") }
    }

    func run() throws {
        let urls = try list.loadList()
        let controller = policy.controller(cache: list.cache, list: urls)
        let targets: [(number: Int?, entry: URLEntry)]
        if all {
            targets = urls.entries.enumerated().map { ($0.offset + 1, $0.element) }
        } else {
            targets = [(target.isDirect ? nil : target.entry ?? 1, try target.entry(in: urls))]
        }
        // --all is what a timer runs: it backs off from a failing server.
        let pool = FetchPool(controller: controller, inFlight: Fetch.inFlight)
        let reports = Interruption.catching { isCancelled in
            pool.display(
                targets.map(\.entry),
                force: force,
                automatic: all,
                size: controller.sizeAsk(area: Fetch.screenArea(), screenDefault: false),
                isCancelled: isCancelled
            )
        }
        let output: FetchOutput = json ? .json : path ? .path : .lines
        let results = zip(targets, reports).map { FetchReport(number: $0.number, entry: $0.entry, report: $1) }
        for result in results {
            output.render(result, many: all).forEach { Console.line($0) }
            if let error = result.errorLine { printError("urlcache: " + error) }
            // The hook's words go to stderr (cron's mail, the journal), never stdout.
            if let (program, run) = result.runHook(in: urls.settings) {
                run.output.split(separator: "\n").forEach { printError("urlcache: onNewImage: " + $0) }
                if let warning = run.warning(program: program) { printError("urlcache: warning: " + warning) }
            }
        }
        let status = results.worstStatus
        if status != 0 { throw Failure.reported(status: status) }
    }
}

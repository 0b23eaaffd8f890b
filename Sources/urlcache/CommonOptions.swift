import ArgumentParser
import FoundationEssentials
import URLCacheKit

/// Where the URL list and the cache are, shared by every command.
struct ListOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The URL list (plist).", valueName: "file"))
    var config: String?

    @Option(
        name: .long,
        help: ArgumentHelp("The cache directory (default $XDG_CACHE_HOME/urlcache).", valueName: "dir")
    )
    var cacheDir: String?

    var environment: [String: String] { ProcessInfo.processInfo.environment }

    /// The list that applies, its warnings (unknown keys) said once on
    /// standard error.
    func loadList() throws(Failure) -> URLList {
        do {
            let list = try ConfigLocator.load(explicit: config, environment: environment)
            list.warnings.forEach { printError("urlcache: warning: " + $0) }
            return list
        } catch {
            throw .usage(error.description)
        }
    }

    var cache: DiskCache {
        DiskCache(directory: cacheDir ?? ConfigLocator.defaultCacheDirectory(environment: environment))
    }

    /// The list's entry `target` chooses and its kept images, newest first
    /// (`history`, `save`): the list's and the cache's failures as one line.
    func keptImages(_ target: TargetOptions) throws(Failure) -> (entry: URLEntry, items: [HistoryItem]) {
        let chosen = try target.entry(in: loadList())
        do { return (chosen, try cache.history(chosen.url)) } catch { throw Failure.failed(error.description) }
    }
}

/// How one image is chosen and checked (fetch, render, the screen).
struct PolicyOptions: ParsableArguments {
    // `.unconditional`: a negative number is a value to refuse in words, not
    // a missing one ("Missing value for --keep").
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Seconds a check stays fresh (default 86400, or the list's refreshInterval).",
            valueName: "seconds"
        )
    )
    var refreshInterval: Seconds?

    @Flag(help: "Show the cached copies whatever their age and make no request at all.")
    var offline = false

    @Option(
        help: ArgumentHelp(
            "fixed: refreshInterval after each check (the default); server: the server's Cache-Control, Expires or Last-Modified, capped by refreshInterval.",
            valueName: "rule"
        )
    )
    var freshness: FreshnessChoice?

    @Option(
        help: ArgumentHelp(
            "Of a picture a feed offers in several sizes: largest (what fetch takes unless told), or screen: the smallest that fills the terminal (the screen's default for an entry with no image yet).",
            valueName: "size"
        )
    )
    var fetchSize: SizeChoice?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Distinct images kept for each entry, the current one included (default 7, or the list's keep).",
            valueName: "n"
        )
    )
    var keep: Int?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Seconds a check may take in all, the wait for another urlcache included (default 300, or the list's maxTime).",
            valueName: "seconds"
        )
    )
    var maxTime: Seconds?

    func validate() throws {
        if let keep, keep < 1 { throw ValidationError("--keep must be 1 or more") }
        if let refreshInterval, refreshInterval.value < 0 {
            throw ValidationError("--refresh-interval must be 0 or more seconds (0 checks every time)")
        }
        if let maxTime, maxTime.value <= 0 { throw ValidationError("--max-time must be more than 0 seconds") }
    }

    func controller(cache: DiskCache, list: URLList) -> URLCacheController {
        var cache = cache
        if let count = keep ?? list.settings.keep { cache.keep = count }
        if let bytes = list.settings.maxCacheBytes { cache.maxBytes = Int64(bytes) }
        var limits = TransferLimits()
        if let seconds = list.settings.connectTimeout { limits.connectTimeout = seconds }
        if let seconds = list.settings.stallTimeout { limits.stallTimeout = seconds }
        if let seconds = maxTime?.value ?? list.settings.maxTime { limits.maxTime = seconds }
        if let bytes = list.settings.maxImageBytes { limits.maxBytes = Int64(bytes) }
        let interval = refreshInterval?.value ?? list.settings.refreshInterval ?? RefreshPolicy.defaultInterval
        var controller = URLCacheController(cache: cache, refreshInterval: interval, limits: limits)
        if let bytes = list.settings.maxFeedBytes { controller.maxFeedBytes = Int64(bytes) }
        controller.offline = offline
        controller.freshness = list.settings.freshness ?? .fixed
        controller.commandLineFreshness = freshness?.mode
        controller.sizePolicy = fetchSize?.policy ?? list.settings.size
        return controller
    }
}

/// `--fetch-size`'s value (render's `--size` is its cells).
struct SizeChoice: ExpressibleByArgument {
    var policy: SizePolicy

    init?(argument: String) {
        guard let policy = SizePolicy(rawValue: argument) else { return nil }
        self.policy = policy
    }

    static var allValueStrings: [String] { SizePolicy.allCases.map(\.rawValue) }
}

/// `--freshness`'s value.
struct FreshnessChoice: ExpressibleByArgument {
    var mode: FreshnessMode

    init?(argument: String) {
        guard let mode = FreshnessMode(rawValue: argument) else { return nil }
        self.mode = mode
    }

    static var allValueStrings: [String] { FreshnessMode.allCases.map(\.rawValue) }
}

/// A failure a command reports in one line; `main.swift` prints it and
/// exits with its status.
enum Failure: Error {
    /// Usage or config error: status 2.
    case usage(String)
    /// The check failed but the previous image is still there: status 3.
    case staleKept(String)
    /// Failed and nothing is cached: status 1.
    case failed(String)
    /// The command has already said what failed (a line an entry, `fetch
    /// --all`): only the status is left to give.
    case reported(status: Int32)

    var message: String {
        switch self {
        case let .usage(text), let .staleKept(text), let .failed(text): return text
        case .reported: return ""
        }
    }

    var status: Int32 {
        switch self {
        case .usage: return 2
        case .staleKept: return 3
        case .failed: return 1
        case let .reported(status): return status
        }
    }
}

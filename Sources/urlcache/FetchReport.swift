import FoundationEssentials
import URLCacheKit
import URLCacheSupport

/// What `fetch` says of one entry, in each of its three forms: the lines a
/// person reads, the path alone, or a JSON object for a script. A value,
/// built from the entry and its `DisplayReport`; the command prints it.
struct FetchReport {
    /// The entry's number in the list; nil for `--url`.
    var number: Int?
    var entry: URLEntry
    var report: DisplayReport

    /// The exit status this entry alone would give: 0 (also when an
    /// automatic check was held back by its back-off, image or none), 3 (the
    /// check failed, the previous image is there), 1 (nothing is cached) or
    /// 2 (the list's entry cannot be used: a config error, as for `--entry N`).
    var status: Int32 {
        switch report.result {
        case .failure(.unusableEntry): return 2
        // Held back by its own rule, not failed: a timer's run each hour is
        // no failure, with an image or with none yet (the run that failed said so).
        case .failure(.backingOff): return 0
        case .success: return report.copy == nil ? 1 : 0
        case .failure: return report.copy == nil ? 1 : 3
        }
    }

    /// The one line for stderr when the check failed, naming the URL.
    var errorLine: String? {
        switch report.result {
        case .success:
            return report.copy == nil ? "\(entry.url.absoluteString): the image vanished from the cache" : nil
        // Said in the entry's block, where a timer's log keeps it; stderr (cron's mail) stays quiet.
        case .failure(.backingOff): return nil
        // Its own words say which entry and why: it has no URL to name.
        case let .failure(.unusableEntry(problem)): return problem.description
        case let .failure(error): return "\(entry.url.absoluteString): \(error.description)"
        }
    }

    /// The outcome, "Updated:", the path and the feed's words; with no
    /// image, nothing, or why it was not checked.
    var lines: [String] {
        guard let copy = report.copy else { return heldBack.map { [$0] } ?? [] }
        let outcome: String
        switch report.result {
        case let .success(value): outcome = value.statusLine
        case .failure: outcome = heldBack ?? "Previously cached image (check failed)"
        }
        return [outcome, "Updated: \(UpdatedFormat.string(copy.updated))", copy.imagePath] + captionLines(copy.metadata)
    }

    /// The outcome of an automatic check its back-off held back: "Not
    /// cached (not checked: …)" or "Previously cached image (not checked: …)".
    private var heldBack: String? {
        guard case let .failure(.backingOff(streak)) = report.result else { return nil }
        return (report.copy == nil ? "Not cached" : "Previously cached image")
            + " (not checked: \(FetchError.backingOff(streak)))"
    }

    /// Runs the entry's `onNewImage` (its own, else the list's) when this
    /// check committed a new image; nil when there was nothing to run.
    func runHook(in settings: ListSettings) -> (program: String, run: NewImageHook.Run)? {
        guard let due = NewImageHook.due(after: report, entry: entry, number: number, settings: settings) else {
            return nil
        }
        return (due.program, due.hook.run(with: due.variables))
    }

    /// The block `fetch --all` prints: headed by the entry's number and name.
    var block: [String] {
        ["\(number.map { "\($0). " } ?? "")\(entry.displayName)"] + lines.map { "   " + $0 }
    }

    /// One JSON object on one line: outcome, whether the image is new,
    /// path, Updated (ISO 8601), url, title, credit, error. Every string is
    /// terminal-safe, so a title from a feed cannot reach the terminal raw.
    var json: String {
        let copy = report.copy
        var object = FetchJSON(
            url: entry.problem == nil ? entry.url.absoluteString.terminalSafe : nil,
            new: false,
            entry: number
        )
        switch report.result {
        case let .success(outcome):
            object.outcome = outcome.statusLine.terminalSafe
            object.new = outcome.isNewImage
        case .failure(.backingOff):
            // Not checked, by the entry's own rule: no failure, no error.
            object.outcome = heldBack?.terminalSafe
        case let .failure(error):
            object.outcome = copy == nil ? "failed" : "Previously cached image (check failed)"
            object.error = error.description.terminalSafe
        }
        object.path = copy?.imagePath.terminalSafe
        object.updated = copy.map { UpdatedFormat.iso8601($0.updated) }
        object.title = (copy?.metadata?.caption.title ?? entry.title)?.terminalSafe
        object.credit = copy?.metadata?.caption.credit?.terminalSafe
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(object)) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}

/// The object `fetch --json` prints for an entry. `url` is null for an
/// entry that has none that works; any other field that is nil is left out.
private struct FetchJSON: Encodable {
    var url: String?
    var new: Bool
    var entry: Int?
    var outcome: String?
    var error: String?
    var path: String?
    var updated: String?
    var title: String?
    var credit: String?

    private enum CodingKeys: String, CodingKey {
        case url, new, entry, outcome, error, path, updated, title, credit
    }

    func encode(to encoder: Encoder) throws {
        var keyed = encoder.container(keyedBy: CodingKeys.self)
        try keyed.encode(url, forKey: .url)
        try keyed.encode(new, forKey: .new)
        try keyed.encodeIfPresent(entry, forKey: .entry)
        try keyed.encodeIfPresent(outcome, forKey: .outcome)
        try keyed.encodeIfPresent(error, forKey: .error)
        try keyed.encodeIfPresent(path, forKey: .path)
        try keyed.encodeIfPresent(updated, forKey: .updated)
        try keyed.encodeIfPresent(title, forKey: .title)
        try keyed.encodeIfPresent(credit, forKey: .credit)
    }
}

/// How `fetch` prints: the three lines (a block each with `--all`), the
/// path alone, or JSON.
enum FetchOutput {
    case lines, path, json

    /// What to print for `report`, one string a line.
    func render(_ report: FetchReport, many: Bool) -> [String] {
        switch self {
        case .lines: return many ? report.block : report.lines
        case .path: return report.report.copy.map { [$0.imagePath] } ?? []
        case .json: return [report.json]
        }
    }
}

extension Array where Element == FetchReport {
    /// The worst status of the entries: 2 before 1 before 3 before 0.
    var worstStatus: Int32 {
        let statuses = map(\.status)
        return statuses.contains(2) ? 2 : statuses.contains(1) ? 1 : statuses.contains(3) ? 3 : 0
    }
}

/// A feed's words about the image, a line each, made terminal-safe
/// (`fetch` and `list` print them).
func captionLines(_ metadata: CacheRecord?) -> [String] {
    guard let metadata else { return [] }
    return [
        ("Title", metadata.caption.title), ("Credit", metadata.caption.credit), ("Image", metadata.image.url),
        ("Size", metadata.image.size?.summary),
    ]
    .compactMap { label, value in value.map { "\(label): \($0.terminalSafe)" } }
}

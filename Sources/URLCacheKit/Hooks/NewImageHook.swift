import FoundationEssentials
import URLCacheSupport

#if canImport(Glibc)
import Glibc
#endif

/// `onNewImage`: a program run after a new image is committed (never on a
/// 304, an unchanged body or a failure), to set the wallpaper or send a
/// notification. It is run directly, never through a shell: the list names
/// the program and its arguments, and text from a feed reaches it only in
/// the environment, so no title can become a command. It has `timeout`
/// seconds; its output is handed back; its failure is a warning, and the
/// image is kept either way.
public struct NewImageHook: Sendable, Equatable {
    /// The program (a path, or a name looked up in PATH) and its arguments.
    public var command: [String]
    /// Seconds it may run before it is killed.
    public var timeout: TimeInterval = 30
    /// The most of its output kept, in bytes.
    static let maxOutput = 64 << 10
    /// The longest title or credit passed, in characters.
    static let maxText = 200

    public init(command: [String], timeout: TimeInterval = 30) {
        self.command = command
        self.timeout = timeout
    }

    /// How a run ended.
    public enum Ending: Sendable, Equatable {
        /// It exited with this status.
        case exited(Int32)
        /// A signal ended it.
        case signalled(Int32)
        /// It ran past the timeout and was killed.
        case timedOut(seconds: TimeInterval)
        /// It could not be started: not found, or not executable.
        case notStarted(String)
    }

    /// What one run did: its ending and its output (stdout and stderr
    /// together, bounded; the caller's printer makes it terminal-safe).
    public struct Run: Sendable, Equatable {
        public var ending: Ending
        public var output: String

        /// The warning to give when it did not succeed; nil when it exited 0.
        public func warning(program: String) -> String? {
            let name = program.terminalSafe
            switch ending {
            case .exited(0): return nil
            case let .exited(status): return "onNewImage \(name) exited with status \(status); the image is kept"
            case let .signalled(signal): return "onNewImage \(name) was ended by signal \(signal); the image is kept"
            case let .timedOut(seconds):
                return "onNewImage \(name) ran past \(Int(seconds)) s and was stopped; the image is kept"
            case let .notStarted(reason):
                return "onNewImage \(name) could not be started: \(reason.terminalSafe); the image is kept"
            }
        }
    }

    /// The variables the program gets, besides ours: the image's path and
    /// URL, the entry's number, and the feed's title and credit made
    /// terminal-safe and cut to `maxText` characters.
    public static func environment(
        path: String,
        url: URL,
        entry: Int?,
        title: String?,
        credit: String?
    ) -> [String: String] {
        func text(_ value: String?) -> String {
            let safe = (value ?? "").terminalSafe
            return safe.count > maxText ? String(safe.prefix(maxText)) + "…" : safe
        }
        return [
            "URLCACHE_PATH": path, "URLCACHE_URL": url.absoluteString, "URLCACHE_ENTRY": entry.map(String.init) ?? "",
            "URLCACHE_TITLE": text(title), "URLCACHE_CREDIT": text(credit),
        ]
    }

    /// The variables for `copy` of list entry `number`: the feed's title
    /// and credit, else the entry's title.
    public static func environment(for entry: URLEntry, number: Int?, copy: CachedCopy) -> [String: String] {
        environment(
            path: copy.imagePath,
            url: entry.url,
            entry: number,
            title: copy.metadata?.caption.title ?? entry.title,
            credit: copy.metadata?.caption.credit
        )
    }

    /// A run a check calls for: the hook, its program's name for messages,
    /// and the variables it gets.
    public struct Due: Sendable {
        public let hook: NewImageHook
        public let program: String
        public let variables: [String: String]
    }

    /// The one rule for when the hook runs, for `fetch` and the screen:
    /// after `report` committed a new image, the entry's own hook, else the
    /// list's; nil otherwise.
    public static func due(after report: DisplayReport, entry: URLEntry, number: Int?, settings: ListSettings) -> Due? {
        guard case let .success(outcome) = report.result, outcome.isNewImage, let copy = report.copy,
            let hook = entry.newImageHook(in: settings), let program = hook.command.first
        else { return nil }
        return Due(hook: hook, program: program, variables: environment(for: entry, number: number, copy: copy))
    }

    /// Runs the program with `variables` added to this process's
    /// environment, and waits for it (at most `timeout`).
    public func run(with variables: [String: String]) -> Run {
        guard let program = command.first, !program.isEmpty else {
            return Run(ending: .notStarted("no program named"), output: "")
        }
        guard let executable = HookProcess.locate(program) else {
            return Run(ending: .notStarted("not found in PATH or not executable"), output: "")
        }
        let environment = ProcessInfo.processInfo.environment.merging(variables) { _, ours in ours }
        return HookProcess.run(
            executable,
            arguments: Array(command.dropFirst()),
            environment: environment,
            timeout: timeout
        )
    }
}

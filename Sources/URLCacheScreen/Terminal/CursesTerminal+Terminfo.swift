internal import CNCurses
import URLCacheSupport

#if canImport(Glibc)
import Glibc
#endif

/// What terminfo says of a terminal before ncurses takes it: whether the
/// screen can open at all, and with how many colours.
extension CursesTerminal {
    /// What can be known without ncurses: stdin and stdout are terminals,
    /// and TERM names one that can hold a screen. Returns its colours.
    @discardableResult
    public static func check(environment: [String: String]) throws(ScreenError) -> Int {
        guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else { throw .notATerminal }
        let term = environment["TERM"] ?? ""
        guard !term.isEmpty, term != "dumb" else { throw .unusableTerminal(term: term) }
        switch terminfo(term) {
        case let .usable(colors): return colors
        case .unknown: throw .unknownTerminal(term: term)
        case .noCursor: throw .unusableTerminal(term: term)
        }
    }

    /// The `colors` of terminfo entry `term`, when it exists and can address
    /// the cursor (a terminal that cannot, cannot hold a screen); nil otherwise.
    static func probe(_ term: String) -> Int? {
        if case let .usable(colors) = terminfo(term) { return colors }
        return nil
    }

    /// What terminfo says of a terminal type.
    enum TerminfoEntry: Equatable {
        /// No entry by that name.
        case unknown
        /// An entry, but it cannot move the cursor (no `cup`).
        case noCursor
        case usable(colors: Int)
    }

    static func terminfo(_ term: String) -> TerminfoEntry {
        var status: Int32 = 0
        defer { cnc_release_probe() }
        guard setupterm(term, STDOUT_FILENO, &status) == OK, status == 1 else { return .unknown }
        guard let cup = tigetstr("cup"), Int(bitPattern: cup) != -1 else { return .noCursor }
        return .usable(colors: Int(tigetnum("colors")))
    }
}

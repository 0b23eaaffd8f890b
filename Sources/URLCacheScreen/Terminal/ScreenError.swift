import URLCacheKit
import URLCacheSupport

/// Why the screen could not start. Each says what to do instead.
public enum ScreenError: Error, Equatable, CustomStringConvertible {
    /// stdin or stdout is not a terminal.
    case notATerminal
    /// TERM is unset, dumb, or has no terminfo entry.
    case unusableTerminal(term: String)
    /// No terminfo entry has TERM's name (a typo, or a terminal whose entry
    /// is not installed here, as over ssh from a newer machine).
    case unknownTerminal(term: String)
    /// ncurses could not start on this terminal.
    case cannotStart(term: String)
    /// The pipes the key loop sleeps on could not be made (out of descriptors).
    case eventLoop(Errno)

    public var description: String {
        switch self {
        case .notATerminal:
            return
                "the screen needs a terminal on stdin and stdout; use 'urlcache render' or 'urlcache fetch' in scripts"
        case let .unusableTerminal(term):
            let name = term.isEmpty ? "TERM is not set" : "TERM=\(term.terminalSafe) cannot position the cursor"
            return "\(name); try 'urlcache render IMAGE' to print the image instead"
        case let .unknownTerminal(term):
            return
                "unknown terminal type TERM=\(term.terminalSafe) (no terminfo entry); set TERM to one this machine knows, "
                + "e.g. xterm-256color, or try 'urlcache render IMAGE'"
        case let .cannotStart(term):
            return "ncurses could not start on TERM=\(term.terminalSafe); try 'urlcache render IMAGE'"
        case let .eventLoop(errno):
            return "cannot start the screen's event loop: \(errno)"
        }
    }
}

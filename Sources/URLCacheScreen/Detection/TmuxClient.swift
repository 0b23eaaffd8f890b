import FoundationEssentials
import URLCacheKit

/// Inside tmux the inner TERM says nothing of the terminal outside: tmux
/// draws on that one, and turns colours and pictures into what it can
/// show. tmux itself says what it found there (`client_termfeatures`,
/// `client_termtype`: the outer terminal's XTVERSION answer).
public struct TmuxClient: Sendable, Equatable {
    /// The features tmux uses on its client's terminal (`RGB`, `sixel`, …).
    public var features: Set<String>
    /// The outer terminal's XTVERSION answer, as tmux heard it ("XTerm(379)").
    public var termType: String
    /// The outer terminal's TERM.
    public var termName: String

    /// The format string asked of `tmux display-message -p`.
    static let format = "#{client_termfeatures}|#{client_termtype}|#{client_termname}|#{pane_tty}"

    /// Parses the answer to `format`; nil when it is not one (a tmux older
    /// than 3.2 prints the unknown variables as empty).
    static func parse(_ text: String) -> TmuxClient? {
        let parts = fields(text)
        guard (3...4).contains(parts.count), !(parts[0].isEmpty && parts[2].isEmpty) else { return nil }
        return TmuxClient(
            features: Set(parts[0].split(separator: ",").map(String.init)),
            termType: parts[1].printableASCII(prefix: 80),
            termName: parts[2].printableASCII(prefix: 80)
        )
    }

    /// The pane's tty in the answer to `format` ("/dev/pts/3"); nil when
    /// not said. (Said with no client attached too.)
    static func paneTTY(_ text: String) -> String? {
        let parts = fields(text)
        guard parts.count == 4, parts[3].hasPrefix("/dev/") else { return nil }
        return parts[3].printableASCII(prefix: 80)
    }

    /// The `|`-separated fields of the answer's first line.
    private static func fields(_ text: String) -> [String] {
        let line = text.split(separator: "\n").first.map(String.init) ?? ""
        return line.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
    }

    /// The environment without what tmux set in it: for a program tmux does
    /// not draw for, these name a multiplexer further out.
    static func withoutTmux(_ environment: [String: String]) -> [String: String] {
        var env = environment
        for name in ["TMUX", "TMUX_PANE"] { env[name] = nil }
        if env["TERM_PROGRAM"] == "tmux" {
            env["TERM_PROGRAM"] = nil
            env["TERM_PROGRAM_VERSION"] = nil
        }
        return env
    }

    /// tmux passes direct colour on to its client: it found the RGB
    /// feature there (from the outer terminal's XTVERSION, or its options),
    /// or the client's terminfo entry sets direct colours.
    func truecolor(terminfo: TerminfoDatabase) -> Bool {
        features.contains("RGB") || terminfo.directColor(termName)
    }

    /// Asks the tmux server this process runs under for its client (nil
    /// when none is attached) and the tty of its pane: a program on another
    /// tty (inside GNU screen started in tmux, where TMUX and
    /// TERM_PROGRAM=tmux leaked in) is not tmux's. Nil outside tmux, or
    /// when tmux does not answer within a second (it is then stopped, which
    /// may take two more).
    public static func ask(environment: [String: String]) -> (client: TmuxClient?, paneTTY: String?)? {
        guard let server = server(environment) else { return nil }
        // The pane we run in, so tmux answers for the client that shows it.
        let target = server.pane.map { ["-t", $0] } ?? []
        guard
            let text = run(
                socket: server.socket,
                ["display-message", "-p"] + target + [format],
                environment: environment
            )
        else { return nil }
        return (parse(text), paneTTY(text))
    }

    /// The tmux server this process runs under (`TMUX`'s socket) and its
    /// pane (`TMUX_PANE`); nil outside tmux.
    static func server(_ environment: [String: String]) -> (socket: String, pane: String?)? {
        guard let socket = environment["TMUX"].flatMap({ $0.split(separator: ",").first }), !socket.isEmpty else {
            return nil
        }
        let pane = environment["TMUX_PANE"].flatMap { $0.isEmpty ? nil : $0 }
        return (String(socket), pane)
    }

    /// What a tmux command printed on the server at `socket`; nil when it
    /// failed or took over a second.
    static func run(socket: String, _ arguments: [String], environment: [String: String]) -> String? {
        ProgramOutput.of("tmux", ["-S", socket] + arguments, environment: environment, timeout: 1)
    }
}

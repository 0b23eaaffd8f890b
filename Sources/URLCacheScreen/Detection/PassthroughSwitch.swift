/// tmux's `allow-passthrough` for our own pane only: turned on while
/// pictures go through it (kitty's placeholders, a named format), and put
/// back as it was afterwards, on every way out. tmux drops a wrapped
/// sequence while it is off, and it is off unless the user set it.
public struct PassthroughSwitch: Sendable, Equatable {
    /// The tmux server's socket and our pane (`TMUX`, `TMUX_PANE`).
    let socket: String
    let pane: String
    /// The pane's own value before, empty when it had none (it inherited
    /// the window's or the global one).
    let previous: String

    /// Turns passthrough on for the pane this process runs in. Nil when
    /// nothing was changed: not inside tmux, already on there (set or
    /// inherited), or tmux refused (before 3.3, where there is no such
    /// option and passthrough is always allowed).
    public static func turnOn(environment: [String: String]) -> PassthroughSwitch? {
        guard let server = TmuxClient.server(environment), let pane = server.pane else { return nil }
        let socket = server.socket
        // The pane's own value, then the one in force.
        let asked = TmuxClient.run(
            socket: socket,
            [
                "show-options", "-pqv", "-t", pane, "allow-passthrough", ";",
                "display-message", "-p", "-t", pane, "in force:#{allow-passthrough}",
            ],
            environment: environment
        )
        guard let asked else { return nil }
        let (own, inForce) = parse(asked)
        guard !passesThrough(inForce) else { return nil }
        guard
            TmuxClient.run(
                socket: socket,
                ["set-option", "-p", "-t", pane, "allow-passthrough", "on"],
                environment: environment
            ) != nil
        else { return nil }
        return PassthroughSwitch(socket: socket, pane: pane, previous: own)
    }

    /// Puts the pane's value back. tmux must first have read everything
    /// written before, or it would drop what is still in the pane's pipe:
    /// a DA1, which tmux answers itself in the order it reads, says so.
    public func restore(environment: [String: String]) {
        _ = TerminalQuery.ask(TerminalQuery.barrier)
        let unset = previous.isEmpty
        _ = TmuxClient.run(
            socket: socket,
            ["set-option", "-p"] + (unset ? ["-u"] : []) + ["-t", pane, "allow-passthrough"]
                + (unset ? [] : [previous]),
            environment: environment
        )
    }

    /// The answer to the query in `turnOn`: the pane's own value (empty
    /// when it has none) and the value in force.
    static func parse(_ answer: String) -> (own: String, inForce: String) {
        let lines = answer.split(separator: "\n").map(String.init)
        let inForce = lines.last { $0.hasPrefix("in force:") }.map { String($0.dropFirst("in force:".count)) } ?? ""
        let own = lines.first { !$0.hasPrefix("in force:") } ?? ""
        return (own.printableASCII(prefix: 8), inForce)
    }

    /// A value in force that lets a wrapped sequence through: tmux 3.3
    /// prints the flag as 1, 3.4 its choice as on or all.
    static func passesThrough(_ value: String) -> Bool { ["1", "on", "all"].contains(value) }
}

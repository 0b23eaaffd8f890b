import BlockArt
import FoundationEssentials
import URLCacheSupport

#if canImport(Glibc)
import Glibc
#endif

/// Asks the terminal what it can show: bursts of queries each ending in
/// DA1, the replies read with a deadline. Detection's I/O with the
/// terminal (inside tmux, `TmuxClient` asks tmux instead); what the replies
/// mean is `TerminalReplies`, `TerminalIdentity` and `PictureDetection`,
/// all pure.
///
/// Only CSI queries go first: every terminal parses a CSI, answered or not.
/// DCS and APC strings (kitty's query, XTGETTCAP, DECRQSS) are printed as
/// text by terminals that do not parse them (rxvt-unicode, qterminal,
/// zutty), so they go in a second burst, to terminals whose first answers
/// show that they parse them (`TerminalIdentity.answered`).
public enum TerminalQuery {
    /// The id of kitty's graphics query, so its reply is known as ours.
    static let kittyProbeID = 31

    private static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    /// DA1 closes every burst: every terminal answers it, in order, so its
    /// reply means the others have come.
    private static let primaryAttributes = "\u{1B}[c"

    /// The first burst, CSI only: XTVERSION, DA2, the cell and text-area
    /// size in pixels, DA1.
    public static let identify = bytes("\u{1B}[>0q" + "\u{1B}[>c" + "\u{1B}[16t" + "\u{1B}[14t" + primaryAttributes)

    /// The second burst, for a terminal that parses strings: kitty's
    /// graphics query (a 1×1 image, `a=q`: checked, never stored), DECRQSS
    /// of a direct colour just set (then all attributes reset), XTGETTCAP
    /// for `RGB` and `colors`, and XTSMGRAPHICS for the sixel colour
    /// registers when DA1 said sixel.
    public static func strings(sixel: Bool) -> [UInt8] {
        bytes(
            "\u{1B}_Gi=\(kittyProbeID),s=1,v=1,a=q,t=d,f=24;AAAA\u{1B}\\"
                + "\u{1B}[38;2;1;2;3m\u{1B}P$qm\u{1B}\\\u{1B}[0m"
                + "\u{1B}P+q524742\u{1B}\\" + "\u{1B}P+q636F6C6F7273\u{1B}\\"
                + (sixel ? sixelRegistersQuery : "") + primaryAttributes
        )
    }

    /// XTSMGRAPHICS: how many colour registers sixel may use. A CSI, but one
    /// with a final byte (S, scroll up) that a careless parser might obey,
    /// so it is sent only where sixel is known.
    private static let sixelRegistersQuery = "\u{1B}[?1;1;0S"

    /// For a sixel terminal the environment names (foot, mlterm): its
    /// registers and cell size.
    public static let sixelTerminal = bytes(sixelRegistersQuery + "\u{1B}[16t" + "\u{1B}[14t" + primaryAttributes)

    /// The id of kitty's query for shared memory.
    static let kittyMediumProbeID = 32

    /// Asks kitty whether it reads our shared memory (`t=s`): a 1×1
    /// picture staged in an object (`a=q`: checked, never stored), then
    /// DA1. True when it answered OK and the object is gone: kitty unlinks
    /// what it reads, so a terminal that says OK without reading it (and
    /// would show nothing) is not taken at its word. What is left, we remove.
    public static func readsSharedMemory() -> Bool {
        guard let query = KittyMedium.sharedMemoryQuery(id: kittyMediumProbeID) else { return false }
        defer { KittyMedium.discard(query.name) }
        let answer = ask(query.sequence + bytes(primaryAttributes))
        return answer?.replies.kittySharedMemory == true && !KittyMedium.exists(query.name)
    }

    /// DA1 alone: its answer means the terminal (or tmux) has read
    /// everything written before it.
    public static let barrier = bytes(primaryAttributes)

    /// The most a burst waits for its replies.
    public static let deadline: Duration = .milliseconds(250)

    /// The most a burst waits inside Zellij: it asks the terminal outside
    /// for the cell and window sizes, one query at a time, each up to a
    /// second, before it answers DA1 itself (zellij-server/src/screen.rs,
    /// v0.45.0, `SERVER_FORWARD_TIMEOUT_MS`).
    static func deadline(_ environment: [String: String]) -> Duration {
        (environment["ZELLIJ"] ?? "").isEmpty ? deadline : .milliseconds(1500)
    }

    /// What came back, and how.
    public struct Answer: Sendable {
        /// The replies of every burst asked, parsed together.
        public var replies: TerminalReplies
        /// The bytes they came in.
        var bytes: [UInt8]
        /// How many bytes arrived.
        public var byteCount: Int { bytes.count }
        /// From the burst's write to DA1's reply, or to the deadline.
        public var elapsed: Duration
        /// The deadline passed before DA1's reply.
        public var timedOut: Bool

        /// This answer and a later burst's, as one.
        func followed(by next: Answer) -> Answer {
            let all = bytes + next.bytes
            return Answer(
                replies: TerminalReplies.parse(all),
                bytes: all,
                elapsed: elapsed + next.elapsed,
                timedOut: next.timedOut
            )
        }
    }

    /// Sends `burst` on the controlling terminal and reads the replies
    /// until DA1's or the deadline. Input is switched to raw, no echo, for
    /// that time only, so no reply is shown or reaches the shell; after a
    /// deadline, whatever part of a reply arrived is discarded. Nil when
    /// there is no terminal to ask.
    public static func ask(_ burst: [UInt8], deadline: Duration = deadline) -> Answer? {
        let fd = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var saved = termios()
        guard tcgetattr(fd, &saved) == 0 else { return nil }
        var raw = saved
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 0
            cc[Int(VTIME)] = 0
        }
        guard tcsetattr(fd, TCSANOW, &raw) == 0 else { return nil }
        defer { tcsetattr(fd, TCSANOW, &saved) }
        let clock = ContinuousClock()
        let start = clock.now
        guard (try? writeAll(fd, burst)) != nil else { return nil }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1024)
        var replies = TerminalReplies()
        while !replies.complete {
            let left = deadline - (clock.now - start)
            guard left > .zero else { break }
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ms = Int32(max(1, left.milliseconds.rounded(.down)))
            guard let ready = try? Errno.retryingOnInterrupt({ poll(&pfd, 1, ms) }) else { break }
            guard ready > 0 else { continue }
            guard let n = try? Errno.retryingOnInterrupt({ read(fd, &buffer, buffer.count) }), n > 0 else { break }
            bytes += buffer[0..<n]
            replies = TerminalReplies.parse(bytes)
        }
        let elapsed = clock.now - start
        if !replies.complete { tcflush(fd, TCIFLUSH) }
        return Answer(replies: replies, bytes: bytes, elapsed: elapsed, timedOut: !replies.complete)
    }
}

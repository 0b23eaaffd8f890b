import Foundation
import URLCacheSupport
#if canImport(Glibc)
import Glibc
#endif

/// Asks the terminal what it can show: one burst of queries ending in DA1,
/// the replies read with a deadline. The only I/O of detection; what the
/// replies mean is `TerminalReplies` and `PictureDetection`, both pure.
public enum TerminalQuery {
    /// The id of kitty's graphics query, so its reply is known as ours.
    static let kittyProbeID = 31

    /// kitty's graphics query (a 1×1 image, `a=q`: checked, never stored),
    /// XTSMGRAPHICS for the sixel colour registers, XTGETTCAP for `RGB` and
    /// `colors`, the cell and text-area size in pixels, and DA1 last, which
    /// every terminal answers, so its reply closes the burst.
    public static let burst: [UInt8] = Array((
        "\u{1B}_Gi=\(kittyProbeID),s=1,v=1,a=q,t=d,f=24;AAAA\u{1B}\\"
        + "\u{1B}[?1;1;0S"
        + "\u{1B}P+q524742\u{1B}\\" + "\u{1B}P+q636F6C6F7273\u{1B}\\"
        + "\u{1B}[16t" + "\u{1B}[14t"
        + "\u{1B}[c").utf8)

    /// The most a burst waits for its replies.
    public static let deadline: Duration = .milliseconds(250)

    /// What came back, and how.
    public struct Answer: Sendable {
        public var replies: TerminalReplies
        /// How many bytes arrived.
        public var byteCount: Int
        /// From the burst's write to DA1's reply, or to the deadline.
        public var elapsed: Duration
        /// The deadline passed before DA1's reply.
        public var timedOut: Bool
    }

    /// Sends the burst on the controlling terminal and reads the replies
    /// until DA1's or the deadline. Input is switched to raw, no echo, for
    /// that time only, so no reply is shown or reaches the shell; after a
    /// deadline, whatever part of a reply arrived is discarded. Nil when
    /// there is no terminal to ask.
    public static func ask(deadline: Duration = deadline) -> Answer? {
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
            let ms = Int32(max(1, left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000))
            guard let ready = try? Errno.retryingOnInterrupt({ poll(&pfd, 1, ms) }) else { break }
            guard ready > 0 else { continue }
            guard let n = try? Errno.retryingOnInterrupt({ read(fd, &buffer, buffer.count) }), n > 0 else { break }
            bytes += buffer[0..<n]
            replies = TerminalReplies.parse(bytes)
        }
        let elapsed = clock.now - start
        if !replies.complete { tcflush(fd, TCIFLUSH) }
        return Answer(replies: replies, byteCount: bytes.count, elapsed: elapsed, timedOut: !replies.complete)
    }
}

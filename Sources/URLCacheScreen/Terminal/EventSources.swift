import FoundationEssentials
import Synchronization
import URLCacheSupport

#if canImport(Glibc)
import Glibc
#endif

/// A pipe that wakes the screen's `poll`: another thread (or a signal
/// handler) writes a byte, the key loop reads them all. Both ends are
/// non-blocking, so a full pipe never stalls the writer: one pending byte
/// is as good as many.
public final class WakePipe: Sendable {
    /// The end `poll` watches.
    public let readEnd: Int32
    let writeEnd: Int32

    public init() throws(Errno) {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { throw Errno.current }
        for fd in fds {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        readEnd = fds[0]
        writeEnd = fds[1]
    }

    deinit {
        close(readEnd)
        close(writeEnd)
    }

    /// Wakes the reader; safe from any thread.
    public func wake(_ byte: UInt8 = 1) {
        var value = byte
        _ = write(writeEnd, &value, 1)
    }

    /// Reads every pending byte; returns them (signal numbers, for `SignalPipe`).
    @discardableResult
    public func drain() -> [UInt8] {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64)
        while true {
            let n = read(readEnd, &buffer, buffer.count)
            if n > 0 {
                bytes.append(contentsOf: buffer[0..<n])
            } else if n < 0 && errno == EINTR {
                continue
            } else {
                return bytes
            }
        }
    }
}

/// The write end the signal handler uses: a handler can capture nothing, so
/// it reads this global, atomically.
private let signalWriteEnd = Atomic<Int32>(-1)

/// SIGWINCH, SIGTERM, SIGHUP, SIGINT, SIGQUIT, SIGTSTP and SIGCONT become
/// bytes (their numbers) on a pipe that the key loop polls with the
/// terminal: a resize redraws at once, a stop gives the terminal back first
/// and a continue repaints, and the others leave through the same door as
/// q, restoring the terminal, before the process ends as the signal says.
public enum SignalPipe {
    public static let handled: [Int32] = [SIGWINCH, SIGTERM, SIGHUP, SIGINT, SIGQUIT, SIGTSTP, SIGCONT]

    /// Installs the handlers (replacing ncurses' own SIGWINCH and SIGTSTP
    /// handlers: the screen resizes and suspends itself) and returns the
    /// pipe to poll.
    public static func install() throws(Errno) -> WakePipe {
        let pipe = try WakePipe()
        signalWriteEnd.store(pipe.writeEnd, ordering: .sequentiallyConsistent)
        for signal in handled { catchOnPipe(signal) }
        return pipe
    }

    private static func catchOnPipe(_ signal: Int32) {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { number in
            // write(2) is async-signal-safe; errno is kept for the code it interrupted.
            let saved = errno
            var byte = UInt8(truncatingIfNeeded: number)
            _ = write(signalWriteEnd.load(ordering: .relaxed), &byte, 1)
            errno = saved
        }
        sigemptyset(&action.sa_mask)
        action.sa_flags = SA_RESTART
        sigaction(signal, &action, nil)
    }

    /// Stops the process group as Ctrl-Z does in a cooked terminal (so the
    /// shell sees the job stop), and returns once it is continued (`fg`).
    public static func stopUntilContinued() {
        Glibc.signal(SIGTSTP, SIG_DFL)
        kill(0, SIGTSTP)
        catchOnPipe(SIGTSTP)
    }

    /// Puts the default handlers back (the pipe is about to close).
    public static func uninstall() {
        for signal in handled { Glibc.signal(signal, SIG_DFL) }
        signalWriteEnd.store(-1, ordering: .sequentiallyConsistent)
    }
}

/// What `poll` said of one descriptor.
struct PollResult: Equatable {
    /// There is something to read.
    var readable = false
    /// The other end is gone (the terminal hung up): nothing more will come.
    var hungUp = false
}

/// One `poll` over the loop's descriptors.
enum EventPoll {
    /// Sleeps until one of `descriptors` is readable or `deadline` passes
    /// (nil: no deadline). A signal cuts the sleep short with nothing
    /// readable: its byte is on the signal pipe for the next turn.
    static func wait(_ descriptors: [Int32], until deadline: Date?) -> [PollResult] {
        var fds = descriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        var timeout: Int32 = -1
        if let deadline {
            // Rounded up, so the loop never wakes a hair early and spins.
            let ms = (deadline.timeIntervalSinceNow * 1000).rounded(.up)
            timeout = Int32(max(0, min(ms, Double(Int32.max))))
        }
        guard poll(&fds, nfds_t(fds.count), timeout) > 0 else { return descriptors.map { _ in PollResult() } }
        return fds.map {
            PollResult(
                readable: $0.revents & Int16(POLLIN) != 0,
                hungUp: $0.revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0
            )
        }
    }
}

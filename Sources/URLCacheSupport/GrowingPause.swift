#if canImport(Glibc)
import Glibc
#endif

/// A pause between looks at something another party will finish soon (a
/// lock released, a child's exit): short at first, then twice as long each
/// time up to a cap. A flat pause makes every wait at least that long —
/// four threads of one `fetch --all` polling the cache's lock every 100 ms
/// lost 300 ms to it, and a start in tmux waited 20 ms for a 3 ms answer —
/// while the cap keeps a long wait from spinning.
public struct GrowingPause: Sendable {
    /// The next pause, in microseconds.
    public private(set) var next: UInt32
    /// The longest pause, in microseconds.
    public let cap: UInt32

    /// A pause of `first` microseconds, growing to `cap`.
    public init(first: UInt32, cap: UInt32) {
        self.next = max(1, min(first, cap))
        self.cap = cap
    }

    /// Sleeps for the next pause and doubles the one after it.
    public mutating func sleep() {
        usleep(next)
        next = next > cap / 2 ? cap : next * 2
    }
}

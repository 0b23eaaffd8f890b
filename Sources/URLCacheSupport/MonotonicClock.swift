#if canImport(Glibc)
import Glibc
#endif

/// Seconds on a clock that never jumps (NTP, a changed date): what limits
/// of elapsed time are measured on (the stall rule, `--max-time`, the wait
/// for another process's lock).
public enum MonotonicClock {
    /// Seconds since an arbitrary fixed point.
    public static func seconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }
}

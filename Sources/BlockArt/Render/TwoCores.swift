import Dispatch
import FoundationEssentials
import Synchronization
import URLCacheSupport

/// Work cut in parts, each on a thread of its own, this thread running the
/// first: the renderer's two halves of a grid, the sixel quantizer's two
/// halves of a picture.
///
/// Plain threads rather than `DispatchQueue.concurrentPerform`: the first
/// use of Dispatch's pool cost the renderer more (1.5 ms on a launch) than
/// the second core saved it.
enum TwoCores {
    /// `body(0)`, …, `body(parts − 1)`, in that order, computed at once.
    static func map<T: Sendable>(parts: Int, _ body: @escaping @Sendable (Int) -> T) -> [T] {
        guard parts > 1 else { return [body(0)] }
        let others = Mutex([T?](repeating: nil, count: parts))
        let done = DispatchSemaphore(value: 0)
        for part in 1..<parts {
            DetachedThread.start {
                let result = body(part)
                others.withLock { $0[part] = result }
                done.signal()
            }
        }
        let first = body(0)
        for _ in 1..<parts { done.wait() }
        return [first] + others.withLock { $0.dropFirst().compactMap { $0 } }
    }
}

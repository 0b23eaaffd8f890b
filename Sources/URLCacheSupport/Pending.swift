import Dispatch
import FoundationEssentials
import Synchronization

/// A value worked out on a thread of its own from the moment it is made,
/// and waited for where it is needed: the screen asks tmux or the terminal
/// what it draws while its list, its cache and its picture are read.
package final class Pending<Value: Sendable>: Sendable {
    private let value = Mutex<Value?>(nil)
    private let done = DispatchSemaphore(value: 0)

    /// Starts `work` on a new thread.
    package init(_ work: @escaping @Sendable () -> Value) {
        DetachedThread.start { [self] in
            let result = work()
            value.withLock { $0 = result }
            done.signal()
        }
    }

    /// The value, once `work` has returned.
    package func wait() -> Value {
        while true {
            if let ready = value.withLock({ $0 }) { return ready }
            done.wait()
            // Another waiter may follow.
            done.signal()
        }
    }
}

import Glibc

/// A lock with a condition to wait on, as `NSCondition` had it: `lock`,
/// `wait`, `signal`, `broadcast`, `unlock`.
///
/// `Mutex` has no waiting, and Foundation's `NSCondition` would bring all of
/// swift-corelibs-foundation and ICU into the program (see `DetachedThread`).
/// The pthread objects live on the heap, where they never move.
package final class Condition: @unchecked Sendable {
    // Sendable by construction: the pthread objects are made for sharing between threads.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>

    package init() {
        mutex = .allocate(capacity: 1)
        condition = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    package func lock() { pthread_mutex_lock(mutex) }
    package func unlock() { pthread_mutex_unlock(mutex) }

    /// Unlocks, waits for a signal (or a spurious wake-up), and locks again.
    package func wait() { pthread_cond_wait(condition, mutex) }
    package func signal() { pthread_cond_signal(condition) }
    package func broadcast() { pthread_cond_broadcast(condition) }
}

import Foundation
import Synchronization
import URLCacheKit

/// A clock the test sets.
public struct FixedClock: Clock {
    public var date: Date
    public init(date: Date) { self.date = date }
    public func now() -> Date { date }
}

/// A clock the test moves on while the code under test reads it from
/// other threads.
public final class ManualClock: Clock, Sendable {
    private let current: Mutex<Date>
    public init(_ date: Date) { current = Mutex(date) }
    public func now() -> Date { current.withLock { $0 } }
    /// Moves it `seconds` on.
    public func advance(_ seconds: TimeInterval) { current.withLock { $0 += seconds } }
}

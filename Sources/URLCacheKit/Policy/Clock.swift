import FoundationEssentials

/// Where the controller gets the time, so tests can set it.
public protocol Clock: Sendable {
    func now() -> Date
}

/// The real clock.
public struct SystemClock: Clock {
    public init() {}
    public func now() -> Date { Date() }
}

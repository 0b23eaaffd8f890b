/// A `Duration` as the numbers the rest of the code wants, converted in
/// one place: seconds for the time limits and the animations, milliseconds
/// for `poll` deadlines and the timings that logs and `probe` print.
extension Duration {
    /// The duration in seconds, fractions included.
    public var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }

    /// The duration in milliseconds, fractions included.
    public var milliseconds: Double {
        Double(components.seconds) * 1000 + Double(components.attoseconds) / 1e15
    }
}

import URLCacheScreen

/// A terminfo database the test fills in.
public struct StandInTerminfo: TerminfoDatabase {
    public var entries: [String: Int]
    /// Entries that set direct colours (setrgbf, Tc or RGB).
    public var direct: Set<String> = []
    public init(entries: [String: Int], direct: Set<String> = []) {
        self.entries = entries
        self.direct = direct
    }
    public func colors(_ term: String) -> Int? { entries[term] }
    public func directColor(_ term: String) -> Bool { direct.contains(term) }
}

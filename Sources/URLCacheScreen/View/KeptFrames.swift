import BlockArt

/// An animation's frames as drawn (art rendered, pictures encoded), by what
/// they were made from, while it plays: a loop shown again is neither
/// rendered nor encoded again (#16: "re-render each frame", "encode each
/// frame once and re-send the bytes"). Frames are kept while they fit in
/// `KeptFrameBudget.bytes`; past that, each is made anew as it comes, as before.
struct KeptFrames<Key: Hashable, Value> {
    private var values: [Key: Value] = [:]
    private var bytes = 0

    /// The frame made from `key`, if kept.
    subscript(key: Key) -> Value? { values[key] }

    /// Keeps `value` (costing `size` bytes) if it still fits.
    mutating func keep(_ value: Value, for key: Key, size: Int) {
        guard values[key] == nil, bytes + size <= KeptFrameBudget.bytes else { return }
        values[key] = value
        bytes += size
    }

    /// Lets every frame go: no animation plays.
    mutating func removeAll() {
        guard bytes > 0 else { return }
        values = [:]
        bytes = 0
    }
}

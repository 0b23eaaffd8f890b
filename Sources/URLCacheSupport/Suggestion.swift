/// "Did you mean …?": the known word nearest to a mistyped one.
///
/// One rule for every place a person types a name we know: the list's keys
/// (`refreshIntervall`, `titel`, `fead`) and the command line's commands
/// (`fecth`).
public enum Suggestion {
    /// The candidate nearest to `word`, if it is near enough to be what was
    /// meant: at most a third of the word's letters apart (at least one),
    /// ignoring case. Ties go to the earlier candidate.
    public static func nearest(to word: String, among candidates: [String]) -> String? {
        let typed = Array(word.lowercased())
        let allowed = max(1, typed.count / 3)
        var best: (name: String, distance: Int)?
        for candidate in candidates {
            let distance = editDistance(typed, Array(candidate.lowercased()))
            if distance <= allowed, distance < (best?.distance ?? .max) { best = (candidate, distance) }
        }
        return best?.name
    }

    /// Optimal string alignment distance: insertions, deletions,
    /// substitutions and swaps of neighbours each count one, so "fecth" is
    /// one step from "fetch".
    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var before = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], before[j - 2] + 1)
                }
            }
            (before, previous, current) = (previous, current, before)
        }
        return previous[b.count]
    }
}

/// How many terminal columns text takes: what every piece of laid-out text
/// is measured in (a CJK character or an emoji takes two, a combining mark
/// none), from a table generated out of Unicode's data rather than the
/// process's locale, so that layout is a pure function of the text.
extension Unicode.Scalar {
    /// 0, 1 or 2 columns. Controls count 0: `terminalSafe` replaces them
    /// before anything is shown.
    public var columns: Int {
        let v = value
        if v < 0x20 || (0x7F..<0xA0).contains(v) { return 0 }
        if v < 0x300 { return 1 }
        if WidthTable.contains(v, in: WidthTable.zero) { return 0 }
        if WidthTable.contains(v, in: WidthTable.wide) { return 2 }
        return 1
    }
}

extension Character {
    /// A grapheme's columns: its first visible scalar's, and two when it
    /// asks for emoji presentation (U+FE0F), as terminals draw those.
    ///
    /// An emoji sequence counts every emoji in it: a ZWJ family is three
    /// emoji of two columns, a flag two regional indicators, a skin tone an
    /// emoji of its own. That is how the terminals Debian ships (xterm,
    /// urxvt, st, VTE, kitty without an emoji font) and tmux draw them;
    /// one that joins a sequence into one picture leaves the rest blank,
    /// where a narrower measure would have the picture cover the text after it.
    public var columns: Int {
        var total = 0
        var glyph = 0
        var previous: Unicode.Scalar?
        for scalar in unicodeScalars {
            let startsEmoji =
                previous != nil
                && (previous?.value == 0x200D || scalar.properties.isEmojiModifier
                    || (0x1F1E6...0x1F1FF).contains(scalar.value))
            if startsEmoji {
                total += glyph
                glyph = scalar.columns
            } else if scalar.value == 0xFE0F {
                glyph = 2
            } else if glyph == 0 {
                glyph = scalar.columns
            }
            previous = scalar
        }
        return total + glyph
    }
}

extension String {
    /// The columns the whole string takes.
    public var columns: Int { reduce(0) { $0 + $1.columns } }

    /// The longest start of the string that fits in `width` columns (a wide
    /// character that would straddle the edge is left out).
    public func prefix(columns width: Int) -> String {
        var used = 0
        var end = startIndex
        for index in indices {
            let next = used + self[index].columns
            if next > width { break }
            used = next
            end = self.index(after: index)
        }
        return String(self[..<end])
    }

    /// The string cut to `width` columns, ending in "…" when it was cut.
    public func clipped(toColumns width: Int) -> String {
        if columns <= width { return self }
        guard width > 0 else { return "" }
        return prefix(columns: width - 1) + "…"
    }
}

extension WidthTable {
    /// Binary search over sorted, disjoint ranges.
    static func contains(_ value: UInt32, in ranges: [ClosedRange<UInt32>]) -> Bool {
        var low = 0
        var high = ranges.count
        while low < high {
            let middle = (low + high) / 2
            if ranges[middle].upperBound < value { low = middle + 1 } else { high = middle }
        }
        return low < ranges.count && ranges[low].contains(value)
    }
}

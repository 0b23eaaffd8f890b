internal import CNCurses

#if canImport(Glibc)
import Glibc
#endif

// Text ncursesw cannot write as it is: a grapheme cluster of more than one
// spacing character (an emoji ZWJ family, a flag, a skin tone), which an
// ncurses cell cannot hold, and anything past ASCII outside a UTF-8 locale.

/// A cluster written past ncurses, over cells ncurses keeps blank.
struct WholeCluster: Equatable {
    var character: Character
    var row: Int
    var column: Int
    var style: TextStyle
}

/// What the rows holding clusters hold: the clusters and the text put
/// there. While it stays the same, ncurses writes nothing on those rows and
/// the clusters on the terminal are still right.
struct ClusterRows: Equatable {
    var clusters: [WholeCluster] = []
    var texts: [TextSpan] = []
}

extension CursesTerminal {
    /// Whether the locale's character set is UTF-8 (LANG=C is not), with
    /// the locale set from the environment, as ncursesw needs: once a process.
    public static let localeIsUTF8: Bool = {
        setlocale(LC_ALL, "")
        guard let codeset = nl_langinfo(nl_item(CODESET)) else { return false }
        let name = String(cString: codeset).uppercased()
        return name == "UTF-8" || name == "UTF8"
    }()

    /// The rows that held clusters at the last refresh that wrote them:
    /// ncurses repaints them, so that a cluster gone from the frame leaves
    /// nothing behind.
    var clusterRows: Set<Int> { Set(shownClusterRows.clusters.map(\.row)) }

    /// This frame's clusters (in order) and the text on their rows and last refresh's.
    func clusterRowsNow() -> ClusterRows {
        let rows = clusterRows.union(frameClusters.values.map(\.row))
        guard !rows.isEmpty else { return ClusterRows() }
        return ClusterRows(
            clusters: frameClusters.values.sorted { ($0.row, $0.column) < ($1.row, $1.column) },
            texts: frame.texts.filter { rows.contains($0.row) }
        )
    }

    /// Whether a cluster is an emoji sequence ncurses would split into cells
    /// of their own: one joined by ZWJ, a flag's two regional indicators, a
    /// skin-tone modifier, an emoji after its base. (A letter with combining
    /// marks, or an Indic conjunct, stays with ncurses.)
    static func needsWholeWrite(_ character: Character) -> Bool {
        character.unicodeScalars.dropFirst().contains { scalar in
            scalar.value == 0x200D || (0x1F1E6...0x1F1FF).contains(scalar.value)
                || scalar.properties.isEmojiModifier || scalar.properties.isEmojiPresentation
        }
    }

    /// Drops the clusters this frame put in `columns` of `row`: text put
    /// after them, a box's border or blank, covers them.
    func forgetClusters(row: Int, columns: Range<Int>) {
        guard !frameClusters.isEmpty else { return }
        for x in (columns.lowerBound - 1)..<columns.upperBound where x >= 0 {
            if let cluster = frameClusters[row << 16 | x],
                cluster.column + cluster.character.columns > columns.lowerBound
            {
                frameClusters[row << 16 | x] = nil
            }
        }
    }

    /// Before ncurses' refresh: the rows that held clusters are repainted
    /// from ncurses' own picture, so a cluster no longer in the frame (a
    /// shorter title, a box closed) goes, and a wider rendering than
    /// measured is cut back.
    func repaintClusterRows() {
        for row in clusterRows where row < size.rows { wredrawln(cnc_stdscr(), Int32(row), 1) }
    }

    /// After it: the clusters (`clusterRowsNow`'s, in order), each over its
    /// blank cells, in its style.
    func writeClusters(_ clusters: [WholeCluster]) {
        guard !clusters.isEmpty else { return }
        var bytes: [UInt8] = []
        for cluster in clusters {
            var sgr = "0"
            if cluster.style.contains(.bold) { sgr += ";1" }
            if cluster.style.contains(.dim) { sgr += ";2" }
            if cluster.style.contains(.reverse) { sgr += ";7" }
            bytes += Array("\u{1B}[\(cluster.row + 1);\(cluster.column + 1)H\u{1B}[\(sgr)m\(cluster.character)".utf8)
        }
        writeKeepingCursor(bytes)
    }
}

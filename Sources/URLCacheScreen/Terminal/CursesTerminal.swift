import BlockArt
internal import CNCurses
import FoundationEssentials
import URLCacheSupport

#if canImport(Glibc)
import Glibc
#endif

/// The real terminal, through ncursesw. Truecolour needs a `*-direct`
/// terminfo entry (ncurses ignores COLORTERM), so when COLORTERM asks for it
/// the terminal is opened with such an entry if one is installed.
public final class CursesTerminal: Terminal {
    public let colorMode: ColorMode
    private let screen: OpaquePointer
    private var closed = false
    private var pairs: [PairKey: Int32] = [:]

    private struct PairKey: Hashable {
        var fg: Int32, bg: Int32
    }

    // Art and pictures are not drawn through ncurses but written after its
    // refresh over cells it keeps blank: `FrameCompositor` decides what
    // goes out for each frame, and this carries it out.
    /// The art and pictures this frame.
    private(set) var frame = FrameCompositor.Frame()
    /// What the terminal shows now, past ncurses' text.
    private var shown = FrameCompositor.Shown()
    /// Grapheme clusters of more than one spacing character (an emoji ZWJ
    /// family, a flag, a skin tone) put this frame. An ncurses cell holds one
    /// spacing character: these are written whole after each refresh over
    /// cells ncurses keeps blank, as `fetch` prints them, keyed by row and column.
    var frameClusters: [Int: WholeCluster] = [:]
    /// What the clusters' rows held at the last refresh that wrote them.
    var shownClusterRows = ClusterRows()
    /// The pictures whose first sequence went out, and their
    /// `laterSequence` once made: shown again (a box closed, a repaint),
    /// they go by that (a shared-memory object is read once), encoded once.
    var sent: [UInt32: [UInt8]?] = [:]
    /// The shared-memory objects staged, until kitty reads them.
    var staged = StagedObjects()
    /// A cell's size in pixels, read at the start and on each resize.
    public private(set) var cellPixels = WindowSize.assumedCellPixels

    /// Opens the terminal with `colors` (what `ColorDetection` decided),
    /// or fewer if that is all the terminal can show. Truecolour needs a
    /// `*-direct` terminfo entry: one is used when TERM's entry has none.
    /// `cellPixels` is what detection learnt from the terminal's replies,
    /// for a terminal whose TIOCGWINSZ gives no pixel size.
    public init(
        environment: [String: String],
        colors wanted: ColorMode,
        cellPixels replied: PixelSize? = nil,
        terminfoColors colors: Int
    ) throws(ScreenError) {
        // One terminfo read per entry: `colors` is what the `check` that
        // said the entry can hold a screen found.
        let term = environment["TERM"] ?? ""
        var chosen = term
        if wanted == .truecolor, colors < 1 << 24 {
            let base = term.replacing("-256color", with: "").replacing("-color", with: "")
            if let direct = [base + "-direct", "xterm-direct"].first(where: {
                (CursesTerminal.probe($0) ?? 0) >= 1 << 24
            }) {
                chosen = direct
            }
        }
        guard let screen = cnc_newterm(chosen) else { throw .cannotStart(term: chosen) }
        self.screen = screen
        set_term(screen)
        raw()
        noecho()
        keypad(cnc_stdscr(), true)
        // Input is read only when poll says it is there, so reads never
        // block; ncurses still waits ESCDELAY for the rest of a sequence after ESC.
        nodelay(cnc_stdscr(), true)
        curs_set(0)
        set_escdelay(25)
        _ = mousemask(cnc_mouse_mask(), nil)
        mouseinterval(0)
        var available = ColorMode.none
        if has_colors() && wanted != .none {
            start_color()
            use_default_colors()
            available = ColorDetection.mode(colors: Int(cnc_colors()))
        }
        colorMode = ColorDetection.capped(wanted, at: available)
        cellPixels = WindowSize.cellPixels(WindowSize.of(STDOUT_FILENO), replied: replied)
    }

    deinit { close() }

    /// The colours `init` is expected to open with for `wanted`, before it
    /// is called (the launch's art is rendered in them while ncurses
    /// starts): TERM's entry's, or truecolour through a `*-direct` entry.
    /// A wrong guess costs a render, not the art: the view renders again.
    public static func expectedColors(_ wanted: ColorMode, terminfoColors: Int) -> ColorMode {
        wanted == .truecolor
            ? .truecolor : ColorDetection.capped(wanted, at: ColorDetection.mode(colors: terminfoColors))
    }

    /// Restores the terminal. Safe to call more than once.
    public func close() {
        guard !closed else { return }
        closed = true
        let removals: [PixelPicture]
        (removals, shown) = FrameCompositor.leave(shown)
        if !removals.isEmpty {
            // No picture outlives the screen: kitty's is deleted, a sixel's
            // cells are cleared.
            removals.forEach { writeOut($0.bytes.removal) }
            werase(cnc_stdscr())
            clearok(cnc_stdscr(), true)
            wrefresh(cnc_stdscr())
        }
        endwin()
        delscreen(screen)
        // Its pictures are gone: an object kitty has not read is of no use.
        staged.sweep(now: .now, patience: .zero)
    }

    public var size: CellSize { CellSize(columns: Int(cnc_cols()), rows: Int(cnc_lines())) }

    public func erase() {
        pairs.removeAll(keepingCapacity: true)
        frame = FrameCompositor.Frame()
        frameClusters.removeAll(keepingCapacity: true)
        werase(cnc_stdscr())
    }

    /// Text is made terminal-safe here, where it is shown: whatever path
    /// it took from a server, a feed, the list or the cache's files.
    public func put(_ text: String, row: Int, column: Int, style: TextStyle) {
        // Past ASCII, ncursesw writes blanks in a locale that is not UTF-8.
        let safe = CursesTerminal.localeIsUTF8 ? text.terminalSafe : text.terminalSafe.asciiFallback
        // Kept for the compositor, and replayed over art when ncurses must draw both.
        frame.texts.append(TextSpan(row: row, columns: column..<(column + safe.columns), text: safe, style: style))
        draw(safe, row: row, column: column, style: style)
    }

    private func draw(_ text: String, row: Int, column: Int, style: TextStyle) {
        var attr: attr_t = 0
        if style.contains(.bold) { attr |= cnc_attr_bold() }
        if style.contains(.dim) { attr |= cnc_attr_dim() }
        if style.contains(.reverse) { attr |= cnc_attr_reverse() }
        var x = column
        for character in text {
            let width = character.columns
            guard width > 0 else { continue }  // a lone combining mark
            if x + width > size.columns { break }
            // The bottom-right cell scrolls some terminals: skip what covers it.
            if x >= 0, row >= 0, row < size.rows, !(row == size.rows - 1 && x + width >= size.columns) {
                // Whatever is put over a cluster (a box) replaces it.
                forgetClusters(row: row, columns: x..<(x + width))
                if CursesTerminal.needsWholeWrite(character) {
                    for cell in x..<(x + width) { _ = cnc_put_wch(Int32(row), Int32(cell), wchar_t(32), attr, 0) }
                    frameClusters[row << 16 | x] = WholeCluster(character: character, row: row, column: x, style: style)
                } else {
                    var chars = character.unicodeScalars.prefix(5).map { wchar_t(bitPattern: $0.value) }
                    chars.append(0)
                    if cnc_put_cluster(Int32(row), Int32(x), chars, attr) == ERR {
                        _ = cnc_put_wch(Int32(row), Int32(x), chars[0], attr, 0)
                    }
                }
            }
            x += width
        }
    }

    public func put(_ grid: CellGrid, row: Int, column: Int) {
        frame.arts.append(Placed(grid, row: row, column: column, rows: grid.rows, columns: grid.columns))
    }

    public func put(_ picture: PixelPicture, row: Int, column: Int) {
        frame.pictures.append(Placed(picture, row: row, column: column, rows: picture.rows, columns: picture.columns))
    }

    /// The art through ncurses, a cell at a time.
    private func drawInCurses(_ grid: CellGrid, row: Int, column: Int) {
        for r in 0..<grid.rows {
            for c in 0..<grid.columns {
                let y = row + r
                let x = column + c
                guard y >= 0, y < size.rows, x >= 0, x < size.columns, !(y == size.rows - 1 && x == size.columns - 1)
                else { continue }
                let cell = grid[c, r]
                let pair = pairNumber(color(cell.foreground), color(cell.background))
                _ = cnc_put_wch(Int32(y), Int32(x), wchar_t(bitPattern: cell.glyph.value), 0, pair)
            }
        }
    }

    private func color(_ color: TerminalColor) -> Int32 {
        switch color {
        case .default: return -1
        case let .index(i): return Int32(i)
        case let .rgb(c):
            let value = Int32(c.r) << 16 | Int32(c.g) << 8 | Int32(c.b)
            // Direct-colour terminfo reads 0–7 as the ANSI colours: nudge them.
            return value < 8 ? 0x010000 | value : value
        }
    }

    private func pairNumber(_ fg: Int32, _ bg: Int32) -> Int32 {
        guard colorMode != .none else { return 0 }
        if let pair = pairs[PairKey(fg: fg, bg: bg)] { return pair }
        let pair = alloc_pair(fg, bg)
        let result = pair < 0 ? 0 : pair
        pairs[PairKey(fg: fg, bg: bg)] = result
        return result
    }

    public var kittyFrames: FrameCompositor.KittyFrames? {
        shown.repaintPending ? nil : shown.kittyFrames
    }

    public func refresh() {
        staged.sweep(now: .now)
        let (steps, next) = FrameCompositor.compose(frame, on: shown)
        shown = next
        steps.removals.forEach { writeOut($0.bytes.removal) }
        if !steps.artInCurses.isEmpty {
            steps.artInCurses.forEach { drawInCurses($0.content, row: $0.row, column: $0.column) }
            for text in frame.texts {
                draw(text.text, row: text.row, column: text.columns.lowerBound, style: text.style)
            }
        }
        if steps.repaintAll { clearok(cnc_stdscr(), true) }
        // Cluster rows are repainted and rewritten only when they change:
        // not on every spinner tick.
        let clustersNow = clusterRowsNow()
        let rewriteClusters = steps.repaintAll || shown.art.isCurses || clustersNow != shownClusterRows
        if rewriteClusters { repaintClusterRows() }
        wrefresh(cnc_stdscr())
        // Only this frame's pictures (a box may hide one for now) are shown
        // again: the rest need not be remembered.
        sent = sent.filter { id, _ in frame.pictures.contains { $0.content.id == id } }
        steps.pictures.forEach { writeKeepingCursor(placedBytes($0)) }
        steps.frameSwitches.forEach { writeOut(switchBytes($0)) }
        steps.arts.forEach { writeKeepingCursor(AnsiWriter.placedBytes($0.content, row: $0.row, column: $0.column)) }
        steps.changes.forEach {
            writeKeepingCursor(
                AnsiWriter.placedChangedBytes(from: $0.from, to: $0.to.content, row: $0.to.row, column: $0.to.column)
            )
        }
        if rewriteClusters {
            writeClusters(clustersNow.clusters)
            shownClusterRows = clustersNow
        }
    }

    /// Bytes straight to the terminal, past ncurses, with the cursor and
    /// attributes ncurses left saved and restored around them (DECSC,
    /// DECRC), so that its own bookkeeping stays true.
    func writeKeepingCursor(_ bytes: [UInt8]) {
        writeOut([0x1B, UInt8(ascii: "7")] + bytes + [0x1B, UInt8(ascii: "8")])
    }

    /// Bytes straight to the terminal. A terminal gone away is the key
    /// loop's to notice (it hangs up): nothing to do here.
    private func writeOut(_ bytes: [UInt8]) {
        try? writeAll(STDOUT_FILENO, bytes)
    }

    public var inputDescriptor: Int32 { STDIN_FILENO }

    public func suspend(_ stop: () -> Void) {
        // kitty keeps a picture across screens: delete it. A sixel goes with
        // the alternate screen that endwin leaves.
        let (removals, left) = FrameCompositor.leave(shown)
        removals.forEach { writeOut($0.bytes.removal) }
        // The next refresh takes the terminal back (ncurses restores its
        // modes after endwin) and repaints every cell and the pictures.
        shown = left
        endwin()
        stop()
    }

    public func redrawAll() {
        shown = FrameCompositor.Shown()
    }

    public func resized() {
        guard let size = WindowSize.of(STDOUT_FILENO) else { return }
        resize_term(Int32(size.rows), Int32(size.columns))
        if let cell = size.cellPixels { cellPixels = cell }
        // The old contents are gone: repaint every cell on the next refresh.
        shown.repaintPending = true
    }
}

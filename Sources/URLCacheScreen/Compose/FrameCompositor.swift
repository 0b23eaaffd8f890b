import BlockArt

/// Art or a picture, and the cells it takes.
public struct Placed<Content: Equatable & Sendable>: Equatable, Sendable {
    public var content: Content
    public var row: Int, column: Int
    public var rows: Int, columns: Int

    public init(_ content: Content, row: Int, column: Int, rows: Int, columns: Int) {
        self.content = content
        self.row = row
        self.column = column
        self.rows = rows
        self.columns = columns
    }

    /// Whether it lies over any cell of `span`.
    func overlaps(_ span: TextSpan) -> Bool {
        (row..<(row + rows)).contains(span.row) && (column..<(column + columns)).overlaps(span.columns)
    }

    /// The same cells, whatever is in them.
    func sameCells(as other: Placed) -> Bool {
        row == other.row && column == other.column && rows == other.rows && columns == other.columns
    }
}

/// A piece of text put this frame, and the cells it takes on its row.
public struct TextSpan: Equatable, Sendable {
    public var row: Int
    public var columns: Range<Int>
    /// What it says, and how: a change is ncurses' to write.
    public var text: String
    public var style: TextStyle

    public init(row: Int, columns: Range<Int>, text: String = "", style: TextStyle = .plain) {
        self.row = row
        self.columns = columns
        self.text = text
        self.style = style
    }
}

/// Decides, frame by frame, what reaches the terminal past ncurses' text:
/// block art written straight out (ncurses spends ~10 ms of a first frame
/// formatting a colour pair per cell), pictures of pixels, and when every
/// cell must be repainted. A function of the frame and of what the terminal
/// shows now, so every transition is a unit test (`CursesTerminal` carries
/// the steps out).
///
/// The rules: art and pictures go over cells ncurses keeps blank. A box
/// over art makes ncurses draw both, the box on top, for as long as it is
/// open; a box over a picture takes the picture away (kitty deletes it by
/// id; a sixel or iTerm2 picture only goes when its cells are repainted).
public enum FrameCompositor {
    /// What one frame holds besides ncurses' text.
    public struct Frame: Equatable, Sendable {
        public var arts: [Placed<CellGrid>] = []
        public var pictures: [Placed<PixelPicture>] = []
        /// The text put this frame: a box over art or a picture.
        public var texts: [TextSpan] = []

        public init(arts: [Placed<CellGrid>] = [], pictures: [Placed<PixelPicture>] = [], texts: [TextSpan] = []) {
            self.arts = arts
            self.pictures = pictures
            self.texts = texts
        }

        func covered<Content>(_ placed: Placed<Content>) -> Bool { texts.contains(where: placed.overlaps) }
    }

    /// Who has the art's cells.
    public enum ArtOwner: Equatable, Sendable {
        /// Nobody: ncurses' picture of them is blank.
        case none
        /// Our own write, which ncurses does not know of.
        case written([Placed<CellGrid>])
        /// ncurses, which draws this art with a box over it.
        case curses([Placed<CellGrid>])

        /// ncurses has the art's cells.
        var isCurses: Bool { if case .curses = self { true } else { false } }
    }

    /// What the terminal shows now.
    public struct Shown: Equatable, Sendable {
        public var pictures: [Placed<PixelPicture>] = []
        public var art = ArtOwner.none
        /// The last frame's text: where it changes, ncurses writes.
        public var texts: [TextSpan] = []
        /// Every cell is to be repainted next (the start, a resize, a
        /// continue after a stop): whatever was on the screen is gone.
        public var repaintPending = true
        /// The frames kitty holds of the animation shown (`KittyFrames`).
        public var kittyFrames: KittyFrames?

        public init() {}
    }

    /// What to do for one frame, in this order.
    public struct Steps: Equatable, Sendable {
        /// Before ncurses refreshes: the pictures to take away (their
        /// removal sequences; a sixel's is empty: the repaint erases it).
        public var removals: [PixelPicture] = []
        /// ncurses draws this art, then the frame's text again over it.
        public var artInCurses: [Placed<CellGrid>] = []
        /// ncurses repaints every cell (clears the screen first).
        public var repaintAll = false
        /// After ncurses' refresh: pictures written at their cells.
        public var pictures: [Placed<PixelPicture>] = []
        /// Then the frames kitty switches to (`KittyFrames`).
        public var frameSwitches: [FrameSwitch] = []
        /// Then art written at its cells.
        public var arts: [Placed<CellGrid>] = []
        /// And art that replaces art at the same cells (an animation's
        /// next frame): only the cells that differ are written.
        public var changes: [ArtChange] = []
    }

    /// New art over the art written at the same cells last frame.
    public struct ArtChange: Equatable, Sendable {
        public var from: CellGrid
        public var to: Placed<CellGrid>
    }

    /// The steps for `frame` on a terminal showing `shown`, and what it
    /// shows after them.
    public static func compose(_ frame: Frame, on shown: Shown) -> (steps: Steps, shown: Shown) {
        var steps = Steps()
        var next = shown
        var repaint = shown.repaintPending
        // ncurses may clear a row's blank stretches in one stroke (to the
        // end of the line, or from its start) where its text changed: art
        // and pictures that a repaint erases go out again on those rows.
        let touched = shown.texts == frame.texts ? [] : changedRows(from: shown.texts, to: frame.texts)
        func touches<Content>(_ placed: Placed<Content>) -> Bool {
            touched.contains { (placed.row..<(placed.row + placed.rows)).contains($0) }
        }
        // Pictures under a box are not shown while it is open.
        let wanted = frame.pictures.filter { !frame.covered($0) }
        // Another frame of the animation kitty holds, at its cells: kitty
        // switches to it, and nothing is taken away.
        let switched = { (old: Placed<PixelPicture>) in wanted.contains { $0.continues(old) } }
        for old in shown.pictures where !wanted.contains(old) && !switched(old) {
            steps.removals.append(old.content)
            // A picture of its size at its cells (an animation's next frame)
            // paints it over: no repaint, so that nothing else flickers. (A
            // kitty picture is still deleted first: kitty draws both
            // commands of one write together, and no two are ever up at once.)
            let paintedOver = wanted.contains { $0.sameCells(as: old) && $0.content.paintsOver(old.content) }
            if old.content.erasedByRepaint && !paintedOver { repaint = true }
        }
        // A full repaint starts from a screen ncurses clears itself.
        if repaint, shown.art.isCurses { next.art = .none }
        (next.art, steps.artInCurses, steps.arts, repaint) = art(
            frame,
            owner: next.art,
            repaint: repaint,
            touches: touches
        )
        if !repaint, case let .written(old) = shown.art {
            (steps.arts, steps.changes) = changes(steps.arts, over: old, touches: touches)
        }
        steps.repaintAll = repaint
        // A full repaint clears the screen, and every picture with it.
        let writes = pictureWrites(wanted, shown: shown, repaint: repaint, removed: steps.removals, touches: touches)
        steps.removals += writes.removals
        (steps.pictures, steps.frameSwitches, next.kittyFrames) = (writes.whole, writes.switches, writes.held)
        next.pictures = writes.shown
        next.texts = frame.texts
        next.repaintPending = false
        return (steps, next)
    }

    /// Who draws the frame's art, and whether every cell must be repainted.
    private static func art(
        _ frame: Frame,
        owner: ArtOwner,
        repaint: Bool,
        touches: (Placed<CellGrid>) -> Bool
    )
        -> (owner: ArtOwner, curses: [Placed<CellGrid>], write: [Placed<CellGrid>], repaint: Bool)
    {
        guard !frame.arts.isEmpty else {
            // The art went away. Art ncurses does not know of is cleared by
            // repainting the whole screen; its own it clears itself.
            if case .written = owner { return (.none, [], [], true) }
            return (.none, [], [], repaint)
        }
        let covered = frame.arts.contains(where: frame.covered)
        if covered || owner.isCurses {
            // A box over the art: ncurses draws both, the art first, and keeps
            // the art until a repaint, so that closing the box changes only
            // the box's cells. Art it did not know of is on the screen when
            // the box opens: it repaints every cell, or the box's blank inside
            // would let that art show through.
            if case .written = owner { return (.curses(frame.arts), frame.arts, [], true) }
            // The box gone, new art (an animation's next frame) is ours to
            // write again, after one repaint that makes ncurses forget its copy.
            if !covered, case let .curses(held) = owner, held != frame.arts {
                return (.written(frame.arts), [], frame.arts, true)
            }
            return (.curses(frame.arts), frame.arts, [], repaint)
        }
        guard case let .written(old) = owner else { return (.written(frame.arts), [], frame.arts, repaint) }
        // Art gone from where it was last written would leave the old
        // behind; art added (a thumbnail decoded) is only written.
        let moved = old.contains { written in !frame.arts.contains { $0.sameCells(as: written) } }
        let repaint = repaint || moved
        let write = repaint ? frame.arts : frame.arts.filter { !old.contains($0) || touches($0) }
        return (.written(frame.arts), [], write, repaint)
    }

    /// Of the art to write, what replaces art at the same cells, untouched
    /// by a change of text: only its changed cells need writing.
    private static func changes(
        _ write: [Placed<CellGrid>],
        over old: [Placed<CellGrid>],
        touches: (Placed<CellGrid>) -> Bool
    ) -> (whole: [Placed<CellGrid>], changes: [ArtChange]) {
        var whole: [Placed<CellGrid>] = []
        var changes: [ArtChange] = []
        for art in write {
            if !touches(art), let before = old.first(where: { $0.sameCells(as: art) }),
                before.content.columns == art.content.columns, before.content.rows == art.content.rows
            {
                changes.append(ArtChange(from: before.content, to: art))
            } else {
                whole.append(art)
            }
        }
        return (whole, changes)
    }

    /// The rows whose text differs between two frames.
    static func changedRows(from old: [TextSpan], to new: [TextSpan]) -> Set<Int> {
        let before = Dictionary(grouping: old, by: \.row)
        let after = Dictionary(grouping: new, by: \.row)
        return Set(before.keys).union(after.keys).filter { before[$0] != after[$0] }
    }

    /// The terminal is given back (a stop, the end): the pictures to take
    /// away first, and a state that repaints everything when taken again.
    public static func leave(_ shown: Shown) -> (removals: [PixelPicture], shown: Shown) {
        (shown.pictures.map(\.content), Shown())
    }
}

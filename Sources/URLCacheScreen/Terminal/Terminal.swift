import BlockArt

/// What the screen needs from a terminal, so that layout and state can be
/// tested without a tty (`CursesTerminal` is the real one).
public protocol Terminal: AnyObject {
    /// The size in cells.
    var size: CellSize { get }
    /// The colours it can show.
    var colorMode: ColorMode { get }
    /// Blanks the whole screen (drawn on the next `refresh`).
    func erase()
    /// Writes text at a position, clipped to the screen.
    func put(_ text: String, row: Int, column: Int, style: TextStyle)
    /// Draws block art with its top-left cell at a position.
    func put(_ grid: CellGrid, row: Int, column: Int)
    /// Shows a picture of pixels with its top-left cell at a position.
    func put(_ picture: PixelPicture, row: Int, column: Int)
    /// A cell's size in pixels (`WindowSize.assumedCellPixels` when the
    /// terminal does not say).
    var cellPixels: PixelSize { get }
    /// Shows what was drawn.
    func refresh()
    /// The descriptor input arrives on, for the key loop's `poll`.
    var inputDescriptor: Int32 { get }
    /// The next input already waiting, without blocking; nil when none is.
    func nextEvent() -> InputEvent?
    /// The window changed size (SIGWINCH): take the new size.
    func resized()
    /// Gives the terminal back as it was (pictures taken away, modes
    /// restored, the main screen shown), calls `stop`, which returns when
    /// the process is continued, and takes the terminal again: the next
    /// `refresh` repaints everything, pictures included.
    func suspend(_ stop: () -> Void)
    /// Something else drew on the terminal (a continue after SIGSTOP):
    /// the next `refresh` repaints everything, pictures included.
    func redrawAll()
    /// The frames kitty holds of the animation shown, which the next
    /// frame may switch to: none while a repaint is due (it takes them).
    var kittyFrames: FrameCompositor.KittyFrames? { get }
}

extension Terminal {
    /// A terminal that shows no kitty pictures holds no frames.
    public var kittyFrames: FrameCompositor.KittyFrames? { nil }
}

/// A picture of pixels as sent: its bytes and the cells it covers.
public struct PixelPicture: Equatable, Sendable {
    public var format: PictureFormat
    /// Tells pictures apart (kitty's image id).
    public var id: UInt32
    public var columns: Int, rows: Int
    /// The sequence, the placeholder rows (kitty's inside tmux) and what
    /// takes it away.
    public var bytes: PictureBytes
    /// Its size in pixels, where known (nil: unknown).
    public var width: Int?, height: Int?
    /// A frame of an animation that kitty keeps, all its frames under one
    /// image id: the frame's index in a loop (nil: a picture of its own).
    /// Its `bytes.shared` holds the pixels, to be sent as the picture or
    /// added as a frame (`FrameCompositor.KittyFrames`).
    public var frame: Int?

    public init(
        format: PictureFormat,
        id: UInt32,
        columns: Int,
        rows: Int,
        bytes: PictureBytes,
        width: Int? = nil,
        height: Int? = nil,
        frame: Int? = nil
    ) {
        self.format = format
        self.id = id
        self.columns = columns
        self.rows = rows
        self.bytes = bytes
        self.width = width
        self.height = height
        self.frame = frame
    }

    /// A frame made without its pixels, for a kitty that holds it: only
    /// switched to, never sent.
    var isSwitchOnly: Bool { frame != nil && bytes.shared == nil }

    /// Taken away only by repainting its cells: a sixel or iTerm2 picture
    /// has no removal, and placeholder cells are text on the screen.
    var erasedByRepaint: Bool { bytes.removal.isEmpty || !bytes.rows.isEmpty }

    /// Whether, written at the cells `other` was, it paints over every one
    /// of its pixels: the same format and size in pixels (an animation's
    /// next frame), each pixel set (placeholder rows: each cell written).
    func paintsOver(_ other: PixelPicture) -> Bool {
        format == other.format && width != nil && width == other.width && height == other.height
            && columns == other.columns && rows == other.rows
    }

    /// The same picture: the same format, image id, cells, size in pixels
    /// and frame. Not `bytes`: a kitty frame made without its pixels (kitty
    /// holds it) is the same frame as the one sent with them, and must not
    /// be switched to again; comparing megabytes at every draw would cost
    /// time too.
    public static func == (a: PixelPicture, b: PixelPicture) -> Bool {
        a.format == b.format && a.id == b.id && a.columns == b.columns && a.rows == b.rows && a.width == b.width
            && a.height == b.height && a.frame == b.frame
    }
}

/// A key or mouse event, or a change of size.
public enum InputEvent: Equatable, Sendable {
    case key(Key)
    /// A click (or press) of the first button at a cell.
    case click(row: Int, column: Int)
    /// The first button let go at a cell: where a drag ends.
    case release(row: Int, column: Int)
    /// The wheel turned, with the pointer at a cell.
    case wheel(up: Bool, row: Int, column: Int)
    case resize
}

/// The keys the screen knows.
public enum Key: Equatable, Sendable {
    case character(Character)
    case enter
    case escape
    case left
    case right
    case up
    case down
    case pageUp
    case pageDown
    /// Shift and an arrow: pans a zoomed view.
    case shiftLeft, shiftRight, shiftUp, shiftDown
    /// Ctrl-C, read as a key in raw mode.
    case interrupt
    /// Ctrl-Z, read as a key in raw mode: suspend, as htop, less and vim do.
    case suspend
    case other
}

/// How text is drawn.
public struct TextStyle: OptionSet, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    public static let bold = TextStyle(rawValue: 1)
    public static let dim = TextStyle(rawValue: 2)
    public static let reverse = TextStyle(rawValue: 4)
    public static let plain: TextStyle = []
}

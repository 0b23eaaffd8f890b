import BlockArt
internal import CNCurses
import FoundationEssentials

#if canImport(Glibc)
import Glibc
#endif

/// The terminal's size in cells and, when it reports them, in pixels.
public struct WindowSize: Sendable, Equatable {
    public var columns: Int
    public var rows: Int
    public var pixelWidth: Int
    public var pixelHeight: Int

    public init(columns: Int, rows: Int, pixelWidth: Int = 0, pixelHeight: Int = 0) {
        self.columns = columns
        self.rows = rows
        self.pixelWidth = pixelWidth
        self.pixelHeight = pixelHeight
    }

    /// A cell's width over its height, when the pixel size is known.
    public var cellAspect: Double? {
        guard pixelWidth > 0, pixelHeight > 0, columns > 0, rows > 0 else { return nil }
        return (Double(pixelWidth) / Double(columns)) / (Double(pixelHeight) / Double(rows))
    }

    /// A cell's size in pixels, when the terminal reports its pixel size.
    public var cellPixels: PixelSize? {
        guard pixelWidth >= columns, pixelHeight >= rows, columns > 0, rows > 0 else { return nil }
        return PixelSize(width: pixelWidth / columns, height: pixelHeight / rows)
    }

    /// The cell size assumed when nothing says: a common 8×16.
    public static let assumedCellPixels = PixelSize(width: 8, height: 16)

    /// A cell's size: from `window`'s pixel size, else what the terminal's
    /// replies said, else the assumed 8×16.
    public static func cellPixels(
        _ window: WindowSize?,
        replied: PixelSize?
    ) -> PixelSize {
        window?.cellPixels ?? replied ?? assumedCellPixels
    }

    /// The terminal on `fd`, also when it has not said its size yet: a
    /// window still opening (qterminal starts its shell before it lays
    /// itself out) reports 0×0, and is taken as 80×24 cells, as chafa takes
    /// it, so that it is still asked what it shows. nil when `fd` is no
    /// terminal.
    public static func terminal(_ fd: Int32) -> WindowSize? {
        guard isatty(fd) == 1 else { return nil }
        return of(fd) ?? WindowSize(columns: 80, rows: 24)
    }

    /// The size of the terminal on `fd`, or nil when it is not a terminal
    /// or has no size yet.
    public static func of(_ fd: Int32) -> WindowSize? {
        var size = winsize()
        guard isatty(fd) == 1, ioctl(fd, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 else {
            return nil
        }
        return WindowSize(
            columns: Int(size.ws_col),
            rows: Int(size.ws_row),
            pixelWidth: Int(size.ws_xpixel),
            pixelHeight: Int(size.ws_ypixel)
        )
    }
}

/// The terminfo database, asked without taking the terminal over. Behind a
/// protocol so that detection stays a function of its inputs in tests.
public protocol TerminfoDatabase {
    /// The `colors` capability of entry `term`; nil when there is no such entry.
    func colors(_ term: String) -> Int?
    /// Entry `term` sets direct colours: tmux's rule for passing them on
    /// (`setrgbf`, or the `Tc` or `RGB` flag).
    func directColor(_ term: String) -> Bool
}

extension TerminfoDatabase {
    public func directColor(_ term: String) -> Bool { false }
}

/// The system's terminfo, through ncurses.
public struct SystemTerminfo: TerminfoDatabase {
    public init() {}

    public func colors(_ term: String) -> Int? {
        var status: Int32 = 0
        defer { cnc_release_probe() }
        guard setupterm(term, -1, &status) == OK else { return nil }
        return Int(tigetnum("colors"))
    }

    public func directColor(_ term: String) -> Bool {
        var status: Int32 = 0
        defer { cnc_release_probe() }
        guard setupterm(term, -1, &status) == OK else { return false }
        // tigetstr answers (char *)-1 for a name that is no string capability.
        let notString = UnsafeMutablePointer<CChar>(bitPattern: -1)
        if let setrgbf = tigetstr("setrgbf"), setrgbf != notString { return true }
        // RGB may be a flag, a number (RGB#8) or a string (RGB=8/8/8).
        if let rgb = tigetstr("RGB"), rgb != notString { return true }
        return tigetflag("Tc") > 0 || tigetflag("RGB") > 0 || tigetnum("RGB") > 0
    }
}

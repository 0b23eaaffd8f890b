import BlockArt
import URLCacheKit

extension ScreenApp {
    /// What the screen is started with: the list, the controller, and how
    /// the terminal is drawn on.
    public struct Options: Sendable {
        public var list: URLList
        public var controller: URLCacheController
        public var symbols: SymbolSet
        public var dither: Dither
        public var background: RGB8
        public var cellAspect: Double
        public var logPath: String?
        /// Quit as soon as the first image is on screen (for Benchmarks/).
        public var exitAfterFirstImage = false
        /// The entry the screen opens at (0 is the first).
        public var startIndex = 0
        /// The colours the terminal is expected to open with: the launch's
        /// art is rendered in them while the picture decodes, before it is
        /// open (if it opens with others, the art is rendered again).
        public var launchColors = ColorMode.truecolor
        /// How pictures are shown, as detection found the terminal: the
        /// view draws with these.
        public var pictures = ScreenView.PictureSettings()

        public init(
            list: URLList,
            controller: URLCacheController,
            symbols: SymbolSet = .halves,
            dither: Dither = .none,
            background: RGB8 = RGB8(0, 0, 0),
            cellAspect: Double = 0.5,
            logPath: String? = nil
        ) {
            self.list = list
            self.controller = controller
            self.symbols = symbols
            self.dither = dither
            self.background = background
            self.cellAspect = cellAspect
            self.logPath = logPath
        }
    }
}

import BlockArt
import Foundation
import URLCacheKit

/// The interactive screen: the original sample's one view, in a terminal.
public final class ScreenApp {
    public struct Options: Sendable {
        public var list: URLList
        public var controller: URLCacheController
        public var symbols: SymbolSet
        public var dither: Dither
        public var background: RGB8
        public var cellAspect: Double
        public var logPath: String?

        public init(list: URLList, controller: URLCacheController, symbols: SymbolSet = .halves,
                    dither: Dither = .none, background: RGB8 = RGB8(0, 0, 0), cellAspect: Double = 0.5, logPath: String? = nil) {
            self.list = list
            self.controller = controller
            self.symbols = symbols
            self.dither = dither
            self.background = background
            self.cellAspect = cellAspect
            self.logPath = logPath
        }
    }

    private let options: Options
    private let terminal: Terminal
    private let view: ScreenView
    private let loader = Loader()
    private let log: Log
    private var state: ScreenState

    public init(options: Options, terminal: Terminal) {
        self.options = options
        self.terminal = terminal
        log = Log(path: options.logPath)
        view = ScreenView(renderOptions: RenderOptions(symbols: options.symbols, colors: terminal.colorMode, dither: options.dither),
                          cellAspect: options.cellAspect, interval: options.controller.refreshInterval)
        state = ScreenState(entries: options.list.entries)
    }

    /// Runs until q, Ctrl-C or a signal. At launch it does Display Image by
    /// itself, as the original does.
    public func run() {
        Signals.install()
        log.write("screen started: \(terminal.size.columns)x\(terminal.size.rows), colours \(terminal.colorMode)")
        perform([.display(force: false)])
        // Drawn again only when something changed, or every tick while the
        // spinner turns: an idle screen costs nothing.
        var dirty = true
        while !state.quitting {
            if Signals.received != 0 {
                log.write("signal \(Signals.received): quitting")
                perform([.cancel, .quit])
                break
            }
            if poll() || state.loading != nil { dirty = true }
            if dirty {
                view.draw(state, on: terminal, now: Date())
                dirty = false
            }
            guard let event = terminal.readEvent(timeout: 100) else { continue }
            dirty = true
            if event == .resize { continue }  // the next draw lays out and renders anew
            let toolbarRow = Layout(columns: terminal.size.columns, rows: terminal.size.rows)?.toolbarRow
            perform(ScreenLogic.handle(event, &state, toolbar: Toolbar(width: terminal.size.columns), toolbarRow: toolbarRow))
        }
        log.write("screen closed")
    }

    private func perform(_ effects: [Effect]) {
        for effect in effects {
            switch effect {
            case let .display(force): startLoad(force: force, automatic: false)
            case .cancel: loader.cancel()
            case .clearCache:
                let result = Result { () throws(CacheError) in try options.controller.clearCache() }
                log.write("clear cache: \(result)")
                ScreenLogic.cleared(result, &state)
            case .quit:
                state.quitting = true
            }
        }
    }

    private func startLoad(force: Bool, automatic: Bool) {
        guard !loader.running else { return }
        let entry = state.entry
        state.loading = ScreenState.Loading(index: state.index, started: Date(), progress: nil, automatic: automatic)
        log.write("display \(entry.url.absoluteString) force=\(force) automatic=\(automatic)")
        let area = decodeArea()
        // The pixmap has twice the sub-cells each way, so half the raster samples each.
        let samples = Renderer.samples(options.symbols)
        loader.start(controller: options.controller, url: entry.url, force: force, automatic: automatic, index: state.index,
                     background: options.background, samples: (max(1, samples.x / 2), max(1, samples.y / 2)),
                     decodeSize: area)
    }

    /// The pixmap size to decode at: twice what the current image area
    /// needs (headroom for a larger window), never more than the source.
    private func decodeArea() -> @Sendable (SourceInfo) -> (width: Int, height: Int) {
        let size = terminal.size
        let layout = Layout(columns: max(size.columns, Layout.minimum.columns), rows: max(size.rows, Layout.minimum.rows))
        let columns = (layout?.columns ?? 80) * 2, rows = (layout?.imageRows ?? 20) * 2
        let symbols = options.symbols, aspect = options.cellAspect
        return { info in
            Renderer.artSize(for: info, columns: columns, rows: rows, cellAspect: aspect, symbols: symbols, atMostSource: true).pixmap
        }
    }

    /// Takes a finished load, updates progress, and checks by itself when
    /// the image's interval runs out while the screen stays open. Returns
    /// whether anything changed.
    private func poll() -> Bool {
        if let result = loader.takeResult() {
            if case let .failure(error) = result.report.result { log.write("display failed: \(error)") }
            if result.index == state.index {
                ScreenLogic.finished(result.report, image: result.image, automatic: result.automatic, now: Date(), &state)
            } else {
                state.loading = nil
            }
            return true
        }
        if state.loading != nil {
            state.loading?.progress = loader.currentProgress
        } else if ScreenLogic.dueForAutomaticCheck(state, now: Date(), interval: options.controller.refreshInterval) {
            startLoad(force: false, automatic: true)
            return true
        }
        return false
    }
}

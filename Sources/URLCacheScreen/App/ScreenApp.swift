import BlockArt
import Foundation
import URLCacheKit
#if canImport(Glibc)
import Glibc
#endif

/// How the screen ended: q (or Ctrl-C, or the terminal gone), or a signal
/// that the process must then end by, once the terminal is restored, so the
/// shell sees 143 for SIGTERM, 129 for SIGHUP.
public enum ScreenEnd: Equatable, Sendable {
    case quit
    case signal(Int32)
}

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
        /// Quit as soon as the first image is on screen (for Benchmarks/).
        public var exitAfterFirstImage = false
        /// Pixels to use where the state asks for them (`.symbols`: none),
        /// and the sixel registers.
        public var pictureFormat: PictureFormat = .symbols
        public var registers = SixelEncoder.defaultRegisters
        /// How pictures reach the terminal inside tmux (passthrough,
        /// kitty's placeholders), or not.
        public var route = PictureRoute.direct
        /// How kitty is given the pixels (shared memory on this machine).
        public var kittyMedium = KittyMedium.direct

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

    let options: Options
    let terminal: Terminal
    let view: ScreenView
    private let loader: Loader
    /// Zoomed views: their decodes, newest request first.
    private var zoomed: ZoomedViews
    /// The gallery's thumbnails, decoded as the tiles come on screen.
    let thumbnails: ThumbnailDecoder
    /// Written by the loader when it has progress or a result.
    private let wakeups: WakePipe
    let log: Log
    var state: ScreenState
    /// A Display Image asked for while the loader was busy: started when it is done.
    private var queuedLoad: (force: Bool, automatic: Bool, asked: Bool)?
    /// How pictures are decoded: the loader's, the zoom's and the frames'.
    let decodeContext: DecodeContext
    /// The animation on screen, and the last picture checked for being one.
    var player: FramePlayer?
    var animationChecked: AnimationCheck?
    /// A paused or played-out animation reloaded (a check): it stays so.
    var carried: (path: String, paused: Bool, ended: Bool)?

    /// Starts the launch's Display Image, then calls `openTerminal`: ncurses'
    /// start-up (terminfo reads, colour pairs) overlaps the cache lookup and
    /// the decode, so the first frame comes sooner. `window` (TIOCGWINSZ's
    /// size) and `cellPixels` size that first decode; a window that turns
    /// out larger gets the image decoded again, as after a resize.
    public init(options: Options, window: (columns: Int, rows: Int), cellPixels: (width: Int, height: Int),
                openTerminal: () throws(ScreenError) -> Terminal) throws(ScreenError) {
        do { wakeups = try WakePipe() } catch { throw .eventLoop(error) }
        let context = DecodeContext(background: options.background, samples: Renderer.samples(options.symbols), wakeups: wakeups)
        decodeContext = context
        loader = Loader(context)
        zoomed = ZoomedViews(decoder: ViewDecoder(context))
        thumbnails = ThumbnailDecoder(context)
        self.options = options
        log = Log(path: options.logPath)
        state = ScreenState(entries: options.list.entries)
        state.offline = options.controller.offline
        state.pixelsAvailable = options.pictureFormat.isPixels
        ScreenApp.startLoad(loader, &state, options: options, force: false, automatic: false, log: log,
                            decodeSize: ScreenApp.decodeArea(window, cell: cellPixels, options: options))
        do { terminal = try openTerminal() } catch {
            // As when q is pressed during a download: nothing half-written is kept.
            loader.cancel()
            throw error
        }
        view = ScreenView(renderOptions: RenderOptions(symbols: options.symbols, colors: terminal.colorMode, dither: options.dither),
                          cellAspect: options.cellAspect, interval: options.controller.refreshInterval)
        view.pictureFormat = options.pictureFormat
        view.registers = options.registers
        view.route = options.route
        view.kittyMedium = options.kittyMedium
    }

    /// How long the first frame waits for the first image (seconds).
    static let firstFrameWait: TimeInterval = 0.1

    /// Runs until q, Ctrl-C or a signal. The launch's Display Image (the
    /// original does one by itself) started in `init`.
    ///
    /// The loop sleeps in one `poll` on the terminal, the loader's wake-up
    /// pipe and the signal pipe. It has no tick: it wakes on its own only
    /// while the spinner turns and when the image is due for a check by
    /// itself, so an idle screen makes no system call at all.
    @discardableResult
    public func run() throws(ScreenError) -> ScreenEnd {
        var end = ScreenEnd.quit
        let signals: WakePipe
        do { signals = try SignalPipe.install() } catch { throw .eventLoop(error) }
        defer { SignalPipe.uninstall() }
        log.write("screen started: \(terminal.size.columns)x\(terminal.size.rows), colours \(terminal.colorMode)")
        // A start from a fresh cache has its image within milliseconds: the
        // first frame waits a moment for it rather than drawing "Loading"
        // first. A download shows its spinner after that moment.
        if EventPoll.wait([wakeups.readEnd], until: Date().addingTimeInterval(ScreenApp.firstFrameWait))[0].readable {
            wakeups.drain()
            _ = takeLoad()
        }
        var dirty = true
        while !state.quitting {
            dirty = advanceAnimation(now: Date()) || dirty
            if dirty {
                firstFrameForZoom()
                showView()
                requestThumbnails()
                view.serverFreshness = options.controller.mode(for: state.entry) == .server
                view.draw(state, on: terminal, now: Date())
                zoomed.drawn(log: log)
                dirty = false
                if options.exitAfterFirstImage && state.image != nil { break }
            }
            // After the draw: a large animation's still is not kept waiting
            // while its frames are counted.
            if syncAnimation() {
                dirty = true
                continue
            }
            // The screen re-checks by itself when the copy goes stale: after
            // the fixed interval, or as soon as the server's freshness runs out.
            let interval = state.freshFor ?? options.controller.refreshInterval
            let deadline = ScreenLogic.nextWake(state, now: Date(), interval: interval, spinnerPeriod: ScreenView.spinnerPeriod)
            let ready = EventPoll.wait([terminal.inputDescriptor, wakeups.readEnd, signals.readEnd], until: deadline)
            if ready[0].hungUp {
                log.write("the terminal hung up: quitting")
                perform([.cancel, .quit])
                break
            }
            if ready[2].readable {
                for byte in signals.drain() where state.quitting == false {
                    switch Int32(byte) {
                    case SIGWINCH:
                        terminal.resized()
                        redecodeIfGrown()
                    case SIGTSTP: suspend()
                    case SIGCONT: terminal.redrawAll()
                    case let number:
                        log.write("signal \(number): quitting")
                        perform([.cancel, .quit])
                        end = .signal(number)
                    }
                }
                dirty = true
            }
            if ready[1].readable {
                wakeups.drain()
                // A load's new picture (even of the same file: a new version)
                // is looked at afresh for being an animation.
                let before = state.image
                if takeLoad() {
                    dirty = true
                    if state.image != before { stopAnimation() }
                }
                if let queued = queuedLoad, !loader.running {
                    queuedLoad = nil
                    startLoad(force: queued.force, automatic: queued.automatic, asked: queued.asked)
                }
                dirty = zoomed.take(&state, log: log) || dirty
                dirty = takeThumbnails() || dirty
            }
            if ready[0].readable {
                while !state.quitting, let event = terminal.nextEvent() {
                    dirty = true
                    if event == .resize {
                        redecodeIfGrown()
                        continue  // the next draw lays out and renders anew
                    }
                    let layout = Layout(columns: terminal.size.columns, rows: terminal.size.rows)
                    let box = layout.flatMap(state.box(in:))
                    let geometry = layout.flatMap { view.geometry(state, $0, cell: terminal.cellPixels) }
                    let grid = state.gallery == nil ? nil : layout.map(view.galleryLayout)
                    let galleryOpen = state.gallery != nil
                    perform(ScreenLogic.handle(event, &state, toolbar: Toolbar(width: terminal.size.columns),
                                               toolbarRow: layout?.toolbarRow, box: box, geometry: geometry, gallery: grid))
                    // Thumbnails still waiting are for a gallery gone.
                    if galleryOpen && state.gallery == nil { thumbnails.cancel() }
                }
            }
            if state.loading != nil {
                // The spinner turns and the progress bar moves.
                let current = loader.current
                state.loading?.progress = current.progress
                state.loading?.waiting = current.waiting
                dirty = true
            } else if ScreenLogic.dueForAutomaticCheck(state, now: Date(), interval: interval) {
                startLoad(force: false, automatic: true)
                dirty = true
            }
        }
        log.write("screen closed")
        return end
    }

    /// Ctrl-Z or SIGTSTP: the terminal as it was before the screen, the
    /// process group stopped until `fg`, then everything drawn again.
    private func suspend() {
        log.write("suspended")
        terminal.suspend { SignalPipe.stopUntilContinued() }
        log.write("continued")
    }

    private func perform(_ effects: [Effect]) {
        for effect in effects {
            switch effect {
            case let .display(force, asked): startLoad(force: force, automatic: false, asked: asked)
            case .cancel: loader.cancel()
            case let .history(step): showHistory(step: step)
            case .clearCache:
                let result = Result { () throws(CacheError) in try options.controller.clearCache() }
                log.write("clear cache: \(result)")
                ScreenLogic.cleared(result, &state)
            case .suspend: suspend()
            case .save: save()
            case .view: break  // shown with the next draw (showView)
            case .playback: playbackToggled()
            case .nextFrame:
                _ = advanceAnimation(now: Date(), asked: true)
                log.write("animation stepped to frame \((state.playback?.frame ?? 0) + 1)")
            case let .gallery(kind): openGallery(kind)
            case .quit:
                state.quitting = true
            }
        }
    }

    private func startLoad(force: Bool, automatic: Bool, asked: Bool = false) {
        guard !loader.running else {
            // The loader is busy (a decode of a kept image or for a larger
            // window, or a download just cancelled): this load follows it.
            queuedLoad = (force, automatic, asked)
            return
        }
        ScreenApp.startLoad(loader, &state, options: options, force: force, automatic: automatic, log: log, decodeSize: decodeArea())
        state.loading?.asked = asked
    }

    /// Display Image on the loader's thread.
    private static func startLoad(_ loader: Loader, _ state: inout ScreenState, options: Options, force: Bool, automatic: Bool,
                                  log: Log, decodeSize: @escaping @Sendable (SourceInfo) -> (width: Int, height: Int)) {
        let entry = state.entry
        state.loading = ScreenState.Loading(index: state.index, started: Date(), progress: nil, automatic: automatic)
        log.write("display \(entry.url.absoluteString) force=\(force) automatic=\(automatic)")
        var controller = options.controller
        controller.offline = state.offline
        loader.start(controller: controller, entry: entry, check: true, force: force, automatic: automatic,
                     index: state.index, offerEarly: state.image == nil, decodeSize: decodeSize)
    }

    /// `[` `]`: another of the entry's kept images, decoded from its file
    /// with no check; the status says which.
    private func showHistory(step: Int) {
        guard !loader.running, !state.isBundled else { return }
        let items = (try? options.controller.cache.history(state.entry.url)) ?? []
        guard !items.isEmpty else {
            state.status = "No earlier images kept for this entry"
            return
        }
        let shown = state.historyIndex ?? 0
        let index = min(max(0, shown + step), items.count - 1)
        ScreenLogic.showHistory(items, index: index, &state)
        guard index != shown else { return }
        loader.start(controller: options.controller, entry: state.entry, check: false, force: false, automatic: true,
                     index: state.index, offerEarly: false, decodeSize: decodeArea(), path: items[index].path)
    }

    /// `s`: the image on screen (the kept one `[` shows, else the
    /// current one) copied out of the cache.
    private func save() {
        let environment = ProcessInfo.processInfo.environment
        let result = Result { () throws(SaveError) -> SavedCopy.Outcome in
            let items: [HistoryItem]
            do throws(CacheError) { items = try options.controller.cache.history(state.entry.url) } catch { throw .cache(error) }
            // The file the picture on screen was decoded from: a kept one
            // `[` chose, else the current one.
            guard case let .file(path)? = state.imageSource, let item = items.first(where: { $0.path == path }) else {
                throw .nothingCached(entry: state.entry.displayName)
            }
            // Looked up when a copy is made, not at every start.
            return try SavedCopy.save(item, of: state.entry, to: PicturesFolder.locate(environment: environment))
        }
        log.write("save: \(result)")
        ScreenLogic.saved(result, home: environment["HOME"] ?? "", &state)
    }

    /// A zoomed view whose region is not on screen yet (a key, the wheel,
    /// a resize, `f`) is asked for, decoded for the image area as it is now.
    private func showView() {
        guard state.viewport.isZoomed, let layout = Layout(columns: terminal.size.columns, rows: terminal.size.rows),
              let geometry = view.geometry(state, layout, cell: terminal.cellPixels) else { return }
        zoomed.show(&state, geometry: geometry, log: log, size: decodeArea())
    }

    /// The window grew past what the image was decoded for: decode the
    /// cached file again at the new size, with no check and no spinner, so
    /// that the art is as sharp as `render` would print it.
    private func redecodeIfGrown() {
        guard !loader.running, state.loading == nil, !state.isBundled, (state.historyIndex ?? 0) == 0, let image = state.image,
              let layout = Layout(columns: terminal.size.columns, rows: terminal.size.rows) else { return }
        let need = ScreenApp.decodeSize(for: image.info, columns: layout.columns, rows: layout.imageRows, options: options,
                                        cell: terminal.cellPixels)
        guard need.width > image.pixmap.width || need.height > image.pixmap.height else { return }
        log.write("window grew: decoding again at \(need.width)x\(need.height)")
        loader.start(controller: options.controller, entry: state.entry, check: false, force: false, automatic: true,
                     index: state.index, offerEarly: false, decodeSize: decodeArea())
    }

    /// The pixmap size to decode at: exactly what the image area needs now,
    /// as `render` decodes, so that the art needs no second resampling; a
    /// window that grows later gets `redecodeIfGrown`. Never more than the source.
    private func decodeArea() -> @Sendable (SourceInfo) -> (width: Int, height: Int) {
        ScreenApp.decodeArea(terminal.size, cell: terminal.cellPixels, options: options)
    }

    private static func decodeArea(_ size: (columns: Int, rows: Int), cell: (width: Int, height: Int),
                                   options: Options) -> @Sendable (SourceInfo) -> (width: Int, height: Int) {
        let layout = Layout(columns: max(size.columns, Layout.minimum.columns), rows: max(size.rows, Layout.minimum.rows))
        let columns = layout?.columns ?? 80, rows = layout?.imageRows ?? 20
        return { info in ScreenApp.decodeSize(for: info, columns: columns, rows: rows, options: options, cell: cell) }
    }

    /// What the art needs, or, with pixels on, the picture's pixel box if
    /// larger (`f` switches between them without decoding again).
    static func decodeSize(for info: SourceInfo, columns: Int, rows: Int, options: Options,
                           cell: (width: Int, height: Int)) -> (width: Int, height: Int) {
        let art = Renderer.artSize(for: info, columns: columns, rows: rows, cellAspect: options.cellAspect, symbols: options.symbols,
                                   atMostSource: true).pixmap
        guard options.pictureFormat.isPixels else { return art }
        let box = PixelPlacement.fit(imageWidth: info.width, imageHeight: info.height, columns: columns, rows: rows,
                                     cellWidth: cell.width, cellHeight: cell.height, centred: true)
        return (max(art.width, min(box.width, info.width)), max(art.height, min(box.height, info.height)))
    }

    /// `onNewImage` on a thread of its own: the screen never waits for it,
    /// and what it says goes to the log, never to the terminal.
    private func runHook(_ due: NewImageHook.Due, number: Int) {
        let log = self.log
        Thread {
            log.write("onNewImage \(due.program) for entry \(number)")
            let run = due.hook.run(with: due.variables)
            run.output.split(separator: "\n").forEach { log.write("onNewImage: " + $0) }
            log.write(run.warning(program: due.program) ?? "onNewImage \(due.program) finished")
        }.start()
    }

    /// Takes the bundled picture or a finished load, if there is one;
    /// returns whether it changed anything.
    private func takeLoad() -> Bool {
        var changed = false
        if let early = loader.takeEarly(), early.index == state.index {
            switch early.picture {
            case let .bundled(image):
                log.write("showing the bundled picture until the first download")
                ScreenLogic.showBundled(image, &state)
            case let .revalidating(image, copy):
                log.write("showing the copy while it is checked (stale-while-revalidate)")
                ScreenLogic.showRevalidating(image, copy: copy, &state)
            }
            changed = true
        }
        guard let result = loader.takeResult() else { return changed }
        guard let report = result.report else {
            // A decode for a larger window: only the pixels change.
            if result.index == state.index, case let .success(decoded)? = result.image {
                let source = result.path.map(ScreenState.PictureSource.file)
                // A kept image (`[` `]`) arrives here: a view of the one before is not its.
                if source != state.imageSource { state.resetView() }
                state.image = decoded
                state.imageSource = source
                // The window may have grown again while this decoded (a
                // drag): that resize found the loader busy and asked nothing.
                redecodeIfGrown()
            }
            return true
        }
        if case let .failure(error) = report.result { log.write("display failed: \(error)") }
        if case let .success(decoded)? = result.image {
            log.write("picture ready: \(decoded.info.width)x\(decoded.info.height) \(decoded.info.format)")
        }
        if state.entries.indices.contains(result.index),
           let due = NewImageHook.due(after: report, entry: state.entries[result.index], number: result.index + 1,
                                      settings: options.list.settings) {
            runHook(due, number: result.index + 1)
        }
        // A check from the gallery (r) shows in its tile.
        ScreenLogic.refreshTile(entry: result.index, copy: report.copy, &state)
        if result.index == state.index {
            ScreenLogic.finished(report, image: result.image, automatic: result.automatic, now: Date(), source: result.path, &state)
            // A no-store image is not asked for again every minute: the fixed interval.
            state.freshFor = report.result == .success(.notStored) ? nil : report.copy.map { options.controller.interval(for: state.entry, $0) }
            // Decoded for the window as it was when the load started: the
            // launch's before ncurses gave its size, or any before a resize.
            redecodeIfGrown()
        } else {
            state.loading = nil
        }
        return true
    }
}

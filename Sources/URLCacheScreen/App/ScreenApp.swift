import BlockArt
import FoundationEssentials
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
    let options: Options
    let terminal: Terminal
    let view: ScreenView
    /// The loader, the decoders, their wake-up pipe and the log.
    var services: ScreenServices
    var state: ScreenState
    /// The animation on screen (its decoder); the rest of its state is
    /// `state.animation`.
    var player: FramePlayer?

    /// Starts the launch's Display Image, then calls `openTerminal`, which
    /// asks the terminal what it draws and opens it: the answers, ncurses'
    /// start-up (terminfo reads, colour pairs), the cache lookup and the
    /// decode all go on at once, so the first frame comes sooner.
    ///
    /// The decode is sized by `window` (TIOCGWINSZ's size), `cellPixels`
    /// and `options.pictures`, the environment's word on the terminal;
    /// `openTerminal` returns the pictures as its answers have them. When
    /// those need more pixels (a window larger than it said, tmux passing
    /// sixel on), the picture is decoded again, as after a resize, and the
    /// first frame waits for that. `options.symbols` must be what the
    /// answers would pick: the decode's sampling follows them.
    public init(
        options: Options,
        window: CellSize,
        cellPixels: PixelSize,
        openTerminal: () throws(ScreenError) -> (Terminal, ScreenView.PictureSettings)
    ) throws(ScreenError) {
        let wakeups: WakePipe
        do { wakeups = try WakePipe() } catch { throw .eventLoop(error) }
        services = ScreenServices(options, wakeups: wakeups)
        state = ScreenState(
            entries: options.list.entries,
            offline: options.controller.offline,
            refreshInterval: options.controller.refreshInterval,
            rules: options.list.entries.map(options.controller.rule(for:))
        )
        ScreenLogic.openAt(options.startIndex, &state)
        let terminalOpen = ArtGate()
        ScreenApp.startDisplay(
            services.loader,
            &state,
            force: false,
            automatic: false,
            asked: false,
            log: services.log,
            target: ScreenApp.decodeTarget(
                window,
                cell: cellPixels,
                options: options,
                render: RenderOptions(symbols: options.symbols, colors: options.launchColors, dither: options.dither),
                gate: terminalOpen
            ),
            size: ScreenApp.sizeAsk(window, cell: cellPixels, options: options)
        )
        var answered = options
        do { (terminal, answered.pictures) = try openTerminal() } catch {
            // As when q is pressed during a download: nothing half-written is kept.
            services.loader.cancel()
            throw error
        }
        terminalOpen.open()
        self.options = answered
        state.pixelsAvailable = answered.pictures.format.isPixels
        view = ScreenView(
            renderOptions: RenderOptions(symbols: options.symbols, colors: terminal.colorMode, dither: options.dither),
            cellAspect: options.cellAspect
        )
        view.pictures = answered.pictures
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
        services.log.write(
            "screen started: \(terminal.size.columns)x\(terminal.size.rows), colours \(terminal.colorMode)"
        )
        awaitFirstPicture()
        var dirty = true
        while !state.quitting {
            dirty = advanceAnimation(now: Date()) || dirty
            if dirty {
                draw()
                if let due = state.animation.frameDue { state.animation.timing.record(due: due, drawn: Date()) }
                state.animation.frameDue = nil
                dirty = false
                if options.exitAfterFirstImage && state.image != nil { break }
            }
            // After the draw: a large animation's still is not kept waiting
            // while its frames are counted.
            if syncAnimation() {
                dirty = true
                continue
            }
            // Once the picture is known to stay: a frame made ready for a
            // picture just replaced would be thrown away. (Nothing to do
            // when one is ready, or nothing moves.)
            prepareNextFrame()
            let deadline = ScreenLogic.nextWake(
                state,
                now: Date(),
                interval: state.checkInterval,
                spinnerPeriod: ScreenView.spinnerPeriod
            )
            let woken = Woken(
                EventPoll.wait([terminal.inputDescriptor, services.wakeups.readEnd, signals.readEnd], until: deadline)
            )
            if woken.terminal.hungUp {
                services.log.write("the terminal hung up: quitting")
                perform(ScreenLogic.quit(&state))
                break
            }
            if woken.signals.readable {
                end = takeSignals(signals) ?? end
                dirty = true
            }
            if woken.loads.readable { dirty = takeWakeups() || dirty }
            if woken.terminal.readable { dirty = takeInput() || dirty }
            dirty = tick() || dirty
        }
        logFrameTiming()
        services.log.write("screen closed")
        return end
    }

    /// A start from a fresh cache has its image within milliseconds: the
    /// first frame waits a moment for it rather than drawing "Loading"
    /// first. A download shows its spinner after that moment. A picture
    /// decoded on the environment's word that the terminal's answers want
    /// larger is waited for again, decoded anew.
    private func awaitFirstPicture() {
        let deadline = Date().addingTimeInterval(ScreenApp.firstFrameWait)
        while EventPoll.wait([services.wakeups.readEnd], until: deadline)[0].readable {
            services.wakeups.drain()
            guard takeLoad().redecoding else { break }
        }
    }

    /// What woke the key loop, by name.
    private struct Woken {
        /// A key, a click or a resize; or the terminal hung up.
        var terminal: PollResult
        /// The loader, the zoom's decoder or the thumbnails have something.
        var loads: PollResult
        /// A signal's byte is on the signal pipe.
        var signals: PollResult

        init(_ results: [PollResult]) {
            (terminal, loads, signals) = (results[0], results[1], results[2])
        }
    }

    /// The state drawn: a held frame's pixels made if its art is lost, and
    /// the gallery's thumbnails asked for first.
    func draw() {
        madeHeldFrame()
        requestThumbnails()
        view.draw(state, on: terminal, now: Date())
        services.zoomed.drawn(log: services.log)
    }

    /// The signals that came; the one the process must end by, if any.
    private func takeSignals(_ signals: WakePipe) -> ScreenEnd? {
        var end: ScreenEnd?
        for byte in signals.drain() where state.quitting == false {
            switch Int32(byte) {
            case SIGWINCH:
                terminal.resized()
                redecodeIfGrown()
                showZoomedView()
            case SIGTSTP: suspend()
            case SIGCONT: terminal.redrawAll()
            case let number:
                services.log.write("signal \(number): quitting")
                perform(ScreenLogic.quit(&state))
                end = .signal(number)
            }
        }
        return end
    }

    /// A load, a zoomed view or thumbnails are ready: whether anything changed.
    func takeWakeups() -> Bool {
        services.wakeups.drain()
        var changed = false
        // A load's new picture (even of the same file: a new version)
        // is looked at afresh for being an animation. So is the same
        // picture brought again while a later frame is up: a frame the
        // screen held left the pixels of an earlier one (the first, it may
        // be) in the state, so equal pixels prove nothing.
        let before = state.image
        let taken = takeLoad()
        if taken.changed {
            changed = true
            if state.image != before || taken.picture && state.animation.heldFrameUp { stopAnimation() }
        }
        if let queued = state.queuedLoad, !services.loader.running {
            state.queuedLoad = nil
            startLoad(force: queued.force, automatic: queued.automatic, asked: queued.asked)
        }
        changed = services.zoomed.take(&state, log: services.log) || changed
        return takeThumbnails() || changed
    }

    /// Every key and click waiting: whether there were any.
    func takeInput() -> Bool {
        var any = false
        while !state.quitting, let event = terminal.nextEvent() {
            any = true
            if event == .resize {
                redecodeIfGrown()
                continue  // the next draw lays out and renders anew
            }
            let layout = Layout(columns: terminal.size.columns, rows: terminal.size.rows)
            let box = layout.flatMap(state.box(in:))
            let geometry = layout.flatMap { view.geometry(state, $0, cell: terminal.cellPixels) }
            let grid = state.gallery == nil ? nil : layout.map(view.galleryLayout)
            let galleryOpen = state.gallery != nil
            perform(
                ScreenLogic.handle(
                    event,
                    &state,
                    toolbar: Toolbar(width: terminal.size.columns),
                    toolbarRow: layout?.toolbarRow,
                    box: box,
                    geometry: geometry,
                    gallery: grid
                )
            )
            // Thumbnails still waiting are for a gallery gone.
            if galleryOpen && state.gallery == nil { services.thumbnails.cancel() }
        }
        // The keys' `.view`, and any other change of the view's region (a
        // resize, `f`), asked for once all the keys read are handled: `+ +
        // +` typed fast is one decode, not three.
        if any { showZoomedView() }
        return any
    }

    /// Each pass: a load's progress, or the copy's check by itself when it
    /// goes stale (after the fixed interval, or as soon as the server's
    /// freshness runs out). Whether the screen must be drawn again.
    private func tick() -> Bool {
        if state.loading != nil {
            // The spinner turns and the progress bar moves.
            let current = services.loader.current
            ScreenLogic.progressed(current.progress, waiting: current.waiting, &state)
            return true
        }
        guard ScreenLogic.dueForAutomaticCheck(state, now: Date(), interval: state.checkInterval) else { return false }
        startLoad(force: false, automatic: true)
        return true
    }

    /// A zoomed view whose region is not on screen yet (a key, the wheel,
    /// a resize, `f`): an animation's first frame put up, and the region
    /// cut from the pixels at hand or asked of `ViewDecoder`, decoded for
    /// the image area as it is now. Nothing when it is on screen already.
    func showZoomedView() {
        firstFrameForZoom()
        guard state.viewport.isZoomed, let layout = Layout(columns: terminal.size.columns, rows: terminal.size.rows),
            let geometry = view.geometry(state, layout, cell: terminal.cellPixels)
        else { return }
        services.zoomed.show(&state, geometry: geometry, log: services.log, size: decodeArea())
    }
}

import BlockArt
import FoundationEssentials
import URLCacheKit
import URLCacheSupport

/// The screen's loads: Display Image, a kept image, a decode again for a
/// larger window, the size each decodes at, and what each brings back.
extension ScreenApp {
    func startLoad(force: Bool, automatic: Bool, asked: Bool = false) {
        guard !services.loader.running else {
            // The loader is busy (a decode of a kept image or for a larger
            // window, or a download just cancelled): this load follows it.
            state.queuedLoad = ScreenState.QueuedLoad(force: force, automatic: automatic, asked: asked)
            return
        }
        ScreenApp.startDisplay(
            services.loader,
            &state,
            force: force,
            automatic: automatic,
            asked: asked,
            log: services.log,
            target: decodeTarget(),
            size: ScreenApp.sizeAsk(terminal.size, cell: terminal.cellPixels, options: options)
        )
    }

    /// Display Image on the loader's thread.
    static func startDisplay(
        _ loader: Loader,
        _ state: inout ScreenState,
        force: Bool,
        automatic: Bool,
        asked: Bool,
        log: Log,
        target: DecodeTarget,
        size: SizeAsk
    ) {
        let request = ScreenLogic.displayStarted(force: force, automatic: automatic, asked: asked, now: Date(), &state)
        log.write("display \(state.entry.url.absoluteString) force=\(force) automatic=\(automatic)")
        loader.start(request, entry: state.entry, index: state.index, target: target, size: size)
    }

    /// Which size of a picture offered in several the screen takes: the
    /// list's `size` or `--fetch-size`, else the one that fills the picture area
    /// (`screenFirst`), in the terminal's pixels (its cells' size times
    /// the area's cells): block art samples a cell no finer than that.
    static func sizeAsk(_ size: CellSize, cell: PixelSize, options: Options) -> SizeAsk {
        let layout = Layout(
            columns: max(size.columns, Layout.minimum.columns),
            rows: max(size.rows, Layout.minimum.rows)
        )
        let area = PixelSize(
            width: (layout?.columns ?? 80) * cell.width,
            height: (layout?.imageRows ?? 20) * cell.height
        )
        return options.controller.sizeAsk(area: area, screenDefault: true)
    }

    /// `[` `]`: another of the entry's kept images, decoded from its file
    /// with no check; the status says which.
    func showHistory(step: Int) {
        guard !services.loader.running, !state.isBundled else { return }
        let items = (try? options.controller.cache.history(state.entry.url)) ?? []
        guard let request = ScreenLogic.stepHistory(items, step: step, &state) else { return }
        services.loader.start(request, entry: state.entry, index: state.index, target: decodeTarget())
    }

    /// The window grew past what the image was decoded for, or the
    /// terminal's answers want pixels the launch's decode did not make:
    /// decode the cached file again at the new size, with no check and no
    /// spinner, so that the art is as sharp as `render` would print it.
    /// Whether it did.
    @discardableResult
    func redecodeIfGrown() -> Bool {
        guard !services.loader.running, state.loading == nil, !state.isBundled, (state.historyIndex ?? 0) == 0,
            let image = state.image,
            let layout = Layout(columns: terminal.size.columns, rows: terminal.size.rows)
        else { return false }
        let need = ScreenApp.decodeSize(
            for: image.info,
            columns: layout.columns,
            rows: layout.imageRows,
            options: options,
            cell: terminal.cellPixels
        )
        guard need.width > image.pixmap.width || need.height > image.pixmap.height else { return false }
        services.log.write("window grew: decoding again at \(need.width)x\(need.height)")
        services.loader.start(.redecode, entry: state.entry, index: state.index, target: decodeTarget())
        return true
    }

    /// The pixmap size to decode at: exactly what the image area needs now,
    /// as `render` decodes, so that the art needs no second resampling; a
    /// window that grows later gets `redecodeIfGrown`. Never more than the source.
    func decodeArea() -> @Sendable (SourceInfo) -> PixelSize {
        decodeTarget().size
    }

    /// What Display Image decodes to now: `decodeArea`'s size, and the
    /// art the view would render of it, made while it decodes.
    func decodeTarget() -> DecodeTarget {
        ScreenApp.decodeTarget(terminal.size, cell: terminal.cellPixels, options: options, render: view.renderOptions)
    }

    /// The decode target for a window of `size` cells of `cell` pixels,
    /// its art in `render`'s options (none while pictures are pixels),
    /// rendered as the rows come once `gate` is open.
    static func decodeTarget(
        _ size: CellSize,
        cell: PixelSize,
        options: Options,
        render: RenderOptions,
        gate: ArtGate? = nil
    ) -> DecodeTarget {
        let layout = Layout(
            columns: max(size.columns, Layout.minimum.columns),
            rows: max(size.rows, Layout.minimum.rows)
        )
        let columns = layout?.columns ?? 80
        let rows = layout?.imageRows ?? 20
        var target = DecodeTarget { info in
            ScreenApp.decodeSize(for: info, columns: columns, rows: rows, options: options, cell: cell)
        }
        guard !options.pictures.format.isPixels else { return target }
        let aspect = options.cellAspect
        target.art = { info in
            let cells = Renderer.artSize(
                for: info,
                columns: columns,
                rows: rows,
                cellAspect: aspect,
                symbols: render.symbols
            ).cells
            return ArtPlan(columns: cells.columns, rows: cells.rows, options: render, waitsFor: gate)
        }
        return target
    }

    /// What the art needs, or, with pixels on, the picture's pixel box if
    /// larger (`f` switches between them without decoding again).
    static func decodeSize(
        for info: SourceInfo,
        columns: Int,
        rows: Int,
        options: Options,
        cell: PixelSize
    ) -> PixelSize {
        let art = Renderer.artSize(
            for: info,
            columns: columns,
            rows: rows,
            cellAspect: options.cellAspect,
            symbols: options.symbols,
            atMostSource: true
        ).pixmap
        guard options.pictures.format.isPixels else { return art }
        let box = PixelPlacement.fit(
            imageWidth: info.width,
            imageHeight: info.height,
            columns: columns,
            rows: rows,
            cellWidth: cell.width,
            cellHeight: cell.height,
            centred: true
        )
        let shown = info.atMost(PixelSize(width: box.width, height: box.height))
        return PixelSize(width: max(art.width, shown.width), height: max(art.height, shown.height))
    }

    /// `onNewImage` on a thread of its own: the screen never waits for it,
    /// and what it says goes to the log, never to the terminal.
    func runHook(_ due: NewImageHook.Due, number: Int) {
        let log = services.log
        DetachedThread.start {
            log.write("onNewImage \(due.program) for entry \(number)")
            let run = due.hook.run(with: due.variables)
            run.output.split(separator: "\n").forEach { log.write("onNewImage: " + $0) }
            log.write(run.warning(program: due.program) ?? "onNewImage \(due.program) finished")
        }
    }

    /// What taking a load did.
    struct TakenLoad {
        /// Anything on screen changed.
        var changed = false
        /// A picture was put in the state for the entry on screen: perhaps
        /// the very pixels it had (a check that found the file current).
        var picture = false
        /// The picture is being decoded again with more pixels.
        var redecoding = false
    }

    /// Takes the bundled picture or a finished load, if there is one.
    func takeLoad() -> TakenLoad {
        var taken = takeEarly() ? TakenLoad(changed: true, picture: true) : TakenLoad()
        guard let result = services.loader.takeResult() else { return taken }
        guard let report = result.report else {
            // A decode for a larger window: only the pixels change.
            if result.index == state.index, case let .success(decoded)? = result.image {
                ScreenLogic.redecoded(decoded, source: result.path.map(ScreenState.PictureSource.file), &state)
                if let art = result.art { view.offer(art, for: decoded) }
                taken.picture = true
                // The window may have grown again while this decoded (a
                // drag): that resize found the loader busy and asked nothing.
                taken.redecoding = redecodeIfGrown()
            }
            taken.changed = true
            return taken
        }
        if case let .failure(error) = report.result { services.log.write("display failed: \(error)") }
        if case let .success(decoded)? = result.image {
            services.log.write("picture ready: \(decoded.info.width)x\(decoded.info.height) \(decoded.info.format)")
        }
        if state.entries.indices.contains(result.index),
            let due = NewImageHook.due(
                after: report,
                entry: state.entries[result.index],
                number: result.index + 1,
                settings: options.list.settings
            )
        {
            runHook(due, number: result.index + 1)
        }
        // A check from the gallery (r) shows in its tile.
        ScreenLogic.refreshTile(entry: result.index, copy: report.copy, &state)
        if result.index == state.index {
            // A no-store image is not asked for again every minute: the fixed interval.
            let freshFor =
                report.result == .success(.notStored)
                ? nil : report.copy.map(state.rule.interval)
            ScreenLogic.finished(
                report,
                image: result.image,
                automatic: result.automatic,
                now: Date(),
                source: result.path,
                freshFor: freshFor,
                &state
            )
            if case let .success(decoded)? = result.image {
                taken.picture = true
                if let art = result.art { view.offer(art, for: decoded) }
            }
            // Decoded for the window as it was when the load started (the
            // launch's before ncurses gave its size and the terminal its
            // answers, or any before a resize).
            taken.redecoding = redecodeIfGrown()
        } else {
            ScreenLogic.finishedElsewhere(&state)
        }
        taken.changed = true
        return taken
    }

    /// The picture shown while the first check goes on (the bundled one, or
    /// a copy in its stale-while-revalidate window), if one came for the
    /// entry on screen.
    private func takeEarly() -> Bool {
        guard let early = services.loader.takeEarly(), early.index == state.index else { return false }
        switch early.picture {
        case let .bundled(image):
            services.log.write("showing the bundled picture until the first download")
            ScreenLogic.showBundled(image, &state)
        case let .revalidating(image, copy):
            services.log.write("showing the copy while it is checked (stale-while-revalidate)")
            ScreenLogic.showRevalidating(image, copy: copy, &state)
        }
        return true
    }
}

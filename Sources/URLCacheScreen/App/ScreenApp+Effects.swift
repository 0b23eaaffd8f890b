import FoundationEssentials
import URLCacheKit

#if canImport(Glibc)
import Glibc
#endif

/// The shell's side of the logic's effects: each `Effect` performed, by
/// the loader, the cache or the terminal.
extension ScreenApp {
    /// Ctrl-Z or SIGTSTP: the terminal as it was before the screen, the
    /// process group stopped until `fg`, then everything drawn again.
    func suspend() {
        services.log.write("suspended")
        terminal.suspend { SignalPipe.stopUntilContinued() }
        services.log.write("continued")
    }

    func perform(_ effects: [Effect]) {
        for effect in effects {
            switch effect {
            case let .display(force, asked): startLoad(force: force, automatic: false, asked: asked)
            case .cancel: services.loader.cancel()
            case let .history(step): showHistory(step: step)
            case .clearCache:
                let result = Result { () throws(CacheError) in try options.controller.clearCache() }
                services.log.write("clear cache: \(result)")
                ScreenLogic.cleared(result, &state)
            case .suspend: suspend()
            case .save: save()
            case .view: break  // asked for once the pass's keys are read (takeInput)
            case .playback: playbackToggled()
            case .nextFrame:
                _ = advanceAnimation(now: Date(), asked: true)
                services.log.write("animation stepped to frame \((state.playback?.frame ?? 0) + 1)")
            case let .gallery(kind): openGallery(kind)
            case let .addSource(name): addSource(name)
            case .quit: break  // ScreenLogic.quit set it: the loop ends
            }
        }
    }

    /// `a`, then Enter: the catalogue's source added at the end of the list
    /// the screen reads (the person's own, made from the built-in list the
    /// first time), then shown and checked; one line when it cannot be.
    private func addSource(_ name: String) {
        let environment = ProcessInfo.processInfo.environment
        guard let entry = Catalogue.source(named: name)?.entry(environment: environment) else { return }
        let source = options.list.source
        let path = source == ConfigLocator.builtInSource ? ConfigLocator.userListPath(environment: environment) : source
        do {
            let edited = try ListFile.add(entry, to: path, seed: ConfigLocator.builtInData)
            services.log.write("added \(name) as entry \(edited.number) of \(path)")
            let rules = edited.list.entries.map(options.controller.rule(for:))
            perform(ScreenLogic.sourceAdded(edited.list, number: edited.number, rules: rules, &state))
        } catch {
            ScreenLogic.sourceNotAdded("could not add \(name): \(error)", &state)
        }
    }

    /// `s`: the image on screen (the kept one `[` shows, else the
    /// current one) copied out of the cache.
    private func save() {
        let environment = ProcessInfo.processInfo.environment
        let result = Result { () throws(SaveError) -> SavedCopy.Outcome in
            let items: [HistoryItem]
            do throws(CacheError) { items = try options.controller.cache.history(state.entry.url) } catch {
                throw .cache(error)
            }
            // The file the picture on screen was decoded from: a kept one
            // `[` chose, else the current one.
            guard case let .file(path)? = state.imageSource, let item = items.first(where: { $0.path == path }) else {
                throw .nothingCached(entry: state.entry.displayName)
            }
            // Looked up when a copy is made, not at every start.
            return try SavedCopy.save(item, of: state.entry, to: PicturesFolder.locate(environment: environment))
        }
        services.log.write("save: \(result)")
        ScreenLogic.saved(result, home: environment["HOME"] ?? "", &state)
    }
}

import BlockArt
import FoundationEssentials
import URLCacheKit

/// What the event loop must do after an event.
public enum Effect: Equatable, Sendable {
    /// Display Image for the entry on screen. `asked`: a person pressed
    /// Display Image or re-check, and a failure is worth a box; the launch,
    /// moving to another entry and going online report on the status line.
    case display(force: Bool, asked: Bool = true)
    /// Cancel the download under way (the cache stays as it was).
    case cancel
    case clearCache
    case quit
    /// Show the entry's kept image `step` older (negative: newer).
    case history(step: Int)
    /// Ctrl-Z: give the terminal back and stop until `fg`.
    case suspend
    /// `s`: copy the image on screen out of the cache.
    case save
    /// The viewport changed: show its region (at once from the pixels at
    /// hand, then sharp).
    case view
    /// `g` `G`: open the gallery of what the cache holds.
    case gallery(Gallery.Kind)
    /// `space`: the animation was paused or plays again (then its next frame shows now).
    case playback
    /// `.` while paused: the animation's next frame.
    case nextFrame
    /// `a`, then Enter: the catalogue source named added to the list.
    case addSource(String)
}

/// The screen's behaviour: events in, new state and effects out.
public enum ScreenLogic {
    /// Handles one key or click.
    /// `box` is the open box as drawn, for its buttons and its scrolling.
    /// `geometry` is the zoom's, for the image on screen; `gallery` the
    /// gallery's layout, while it is open.
    public static func handle(
        _ event: InputEvent,
        _ state: inout ScreenState,
        toolbar: Toolbar,
        toolbarRow: Int?,
        box: Box? = nil,
        geometry: ViewGeometry? = nil,
        gallery: GalleryLayout? = nil
    ) -> [Effect] {
        // Every press starts afresh: a drag begins only on the picture.
        if case .click = event { state.dragStart = nil }
        if state.gallery != nil, state.overlay == nil, event != .key(.suspend) {
            return handleGallery(event, &state, layout: gallery, toolbar: toolbar, toolbarRow: toolbarRow)
        }
        if let effects = handleView(event, &state, geometry: geometry) { return effects }
        if case let .click(row, column) = event {
            if state.overlay != nil {
                // A box's buttons answer as their keys do; elsewhere a click does nothing.
                guard let key = box?.key(atRow: row, column: column) else { return [] }
                return handle(.key(key), &state, toolbar: toolbar, toolbarRow: toolbarRow, box: box)
            }
            guard row == toolbarRow, let button = toolbar.button(at: column) else { return [] }
            return press(button, &state)
        }
        guard case let .key(key) = event else { return [] }
        // Ctrl-Z works whatever is open or running: the state stays as it is.
        if KeyTable.command(for: key, in: .anywhere) == .suspend { return [.suspend] }
        if case let .catalogue(chosen)? = state.overlay { return handleCatalogue(chosen, key, &state, box: box) }
        if let overlay = state.overlay { return handleBox(overlay, key, &state, box: box) }
        guard let command = KeyTable.command(for: key, in: .screen) else { return [] }
        if let effects = anytime(command, &state) { return effects }
        // A button's key presses the button (`press` disables all but quit
        // while loading, as the original did).
        if let button = Button.allCases.first(where: { $0.command == command }) { return press(button, &state) }
        // While loading, Esc cancels and nothing else works.
        if state.loading != nil { return command == .cancel ? [.cancel] : [] }
        switch command {
        case .older: return [.history(step: 1)]
        case .newer: return [.history(step: -1)]
        case .addSource:
            state.overlay = .catalogue(chosen: 0)
            state.boxScroll = 0
            return []
        case .offline:
            state.offline.toggle()
            // Going online checks at once what offline left alone.
            return state.offline ? [] : [.display(force: false, asked: false)]
        default: return []
        }
    }

    /// The commands that work while a download runs: they read the cache
    /// only, or change only how the picture is shown. nil for the others.
    private static func anytime(_ command: Command, _ state: inout ScreenState) -> [Effect]? {
        switch command {
        case .pixels:
            togglePixels(&state)
            return []
        // The gallery reads the cache only: it may open while a download runs.
        case .gallery: return [.gallery(.entries)]
        case .galleryHistory: return [.gallery(.history)]
        case .about:
            state.overlay = .about
            return []
        case .playback, .nextFrame: return handlePlayback(command, &state)
        // A copy reads the cache only: it may be taken while a download runs.
        case .save:
            guard state.image != nil, !state.isBundled else {
                state.status = .info(nothingToSaveStatus)
                return []
            }
            return [.save]
        default: return nil
        }
    }

    /// What `f` says where the terminal shows no pixels.
    public static let noPixelsStatus = "This terminal shows no pixels here: block art only (urlcache probe says why)"

    /// What `s` says with no cached image on screen.
    public static let nothingToSaveStatus = "Nothing cached to save yet: Display Image first"

    /// A save ended: the status line says where the copy is (the home
    /// folder as ~), or why there is none.
    public static func saved(_ result: Result<SavedCopy.Outcome, SaveError>, home: String, _ state: inout ScreenState) {
        switch result {
        case let .success(outcome):
            var path = outcome.path
            if !home.isEmpty, home != "/", path.hasPrefix(home + "/") { path = "~" + path.dropFirst(home.count) }
            if case .alreadyThere = outcome {
                state.status = .info("Already saved as \(path)")
            } else {
                state.status = .info("Saved to \(path)")
            }
        case let .failure(error):
            state.status = .error("Not saved: \(error.description)")
        }
    }

    /// How far a box's scroll key moves (a line, or a page of the box as
    /// drawn); nil for a key that does not scroll.
    static func scrollStep(_ command: Command?, box: Box?) -> Int? {
        let page = max(1, (box?.lines.count ?? 1) - 1)
        switch command {
        case .scrollDown: return 1
        case .scrollUp: return -1
        case .pageDown: return page
        case .pageUp: return -page
        default: return nil
        }
    }

    /// A key while a box is open: it answers the box, or scrolls its text.
    private static func handleBox(
        _ overlay: ScreenState.Overlay,
        _ key: Key,
        _ state: inout ScreenState,
        box: Box?
    ) -> [Effect] {
        // Space and b page only where they close nothing: an alert's Space is its OK.
        let reading = overlay == .about || overlay == .help
        let command = reading ? KeyTable.command(for: key, in: .box, .reading) : KeyTable.command(for: key, in: .box)
        let scroll = scrollStep(command, box: box)
        if let scroll, let box, box.scrolls {
            state.boxScroll = max(0, min(box.maxScroll, box.first + scroll))
            return []
        }
        switch (overlay, key) {
        case (.alert, .enter), (.alert, .escape), (.alert, .character(" ")), (.alert, .character("q")):
            state.overlay = nil
        case (.confirmClear, .enter), (.confirmClear, .character("y")), (.confirmClear, .character("Y")):
            state.overlay = nil
            return [.clearCache]
        // q closes a question as it closes every other box: it is not swallowed.
        case (.confirmClear, .escape), (.confirmClear, .character("n")), (.confirmClear, .character("N")),
            (.confirmClear, .character("q")):
            state.overlay = nil
        case (.help, _), (.about, _):
            state.overlay = nil
        case (_, .interrupt):
            return quit(&state)
        default:
            break
        }
        return []
    }

    /// What a toolbar button does.
    public static func press(_ button: Button, _ state: inout ScreenState) -> [Effect] {
        if state.loading != nil && button != .quit { return [] }
        switch button {
        case .displayImage: return [.display(force: false)]
        case .recheck: return [.display(force: true)]
        case .clearCache:
            state.overlay = .confirmClear
            return []
        case .previous, .next:
            guard state.entries.count > 1 else { return [.display(force: false, asked: false)] }
            let step = button == .next ? 1 : state.entries.count - 1
            state.index = (state.index + step) % state.entries.count
            state.clearImage()
            return [.display(force: false, asked: false)]
        case .help:
            state.overlay = .help
            return []
        case .quit:
            return quit(&state)
        }
    }

    /// The screen opens at entry `index` (`--entry`), if the list has it.
    public static func openAt(_ index: Int, _ state: inout ScreenState) {
        guard state.entries.indices.contains(index) else { return }
        state.index = index
    }

    static func quit(_ state: inout ScreenState) -> [Effect] {
        state.quitting = true
        return state.loading != nil ? [.cancel, .quit] : [.quit]
    }

    /// When the image on screen is due for a check by itself: its interval
    /// runs out while the screen stays open. Checks by itself come at most
    /// once a minute whatever the interval (0 means "always check on Display
    /// Image", not "hammer the server"), and after a check failed or was
    /// cancelled they wait five minutes (or the interval, if shorter). nil while loading or while a
    /// box is open, or with nothing shown.
    public static func nextAutomaticCheck(_ state: ScreenState, interval: TimeInterval) -> Date? {
        guard state.loading == nil, state.overlay == nil, !state.offline, let updated = state.updated else {
            return nil
        }
        let spacing = max(interval, 60)
        var due = updated.addingTimeInterval(spacing)
        if let failed = state.lastFailedCheck { due = max(due, failed.addingTimeInterval(min(spacing, 300))) }
        if let until = state.backOffUntil { due = max(due, until) }
        return due
    }

    /// Whether that time has come.
    public static func dueForAutomaticCheck(_ state: ScreenState, now: Date, interval: TimeInterval) -> Bool {
        guard let due = nextAutomaticCheck(state, interval: interval) else { return false }
        return now >= due
    }

    /// When the key loop must wake by itself: at the spinner's next frame
    /// while loading, else at the next automatic check or the animation's
    /// next frame, whichever comes first; nil: only an event
    /// wakes it.
    public static func nextWake(
        _ state: ScreenState,
        now: Date,
        interval: TimeInterval,
        spinnerPeriod: TimeInterval
    ) -> Date? {
        if let loading = state.loading {
            let frames = (now.timeIntervalSince(loading.started) / spinnerPeriod).rounded(.down) + 1
            let tick = loading.started.addingTimeInterval(frames * spinnerPeriod)
            return nextFrameWake(state).map { min($0, tick) } ?? tick
        }
        let check = nextAutomaticCheck(state, interval: interval)
        guard let frame = nextFrameWake(state) else { return check }
        return check.map { min($0, frame) } ?? frame
    }
}

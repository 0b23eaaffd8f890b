import BlockArt
import FoundationEssentials
import URLCacheKit

/// What the screen asks the loader for.
enum LoadRequest: Sendable, Equatable {
    /// Display Image: the policy decides whether the network is asked
    /// (`force`: re-check; `automatic`: the screen's own check; `offline`:
    /// the screen's switch). With `offerEarly` (nothing on screen yet), a
    /// picture is handed over first (`takeEarly`) while the check goes on:
    /// with nothing cached, the one the binary carries for the entry, if
    /// any; a copy in its stale-while-revalidate window.
    case display(force: Bool, automatic: Bool, offline: Bool, offerEarly: Bool)
    /// `[` `]`: an earlier image the cache keeps, decoded from its file.
    case keptImage(path: String)
    /// The cached copy decoded again, for a window that grew: no check.
    case redecode
}

/// The loads' changes to the state: what starts one, its progress, and
/// what it brings back.
extension ScreenLogic {
    /// Display Image starts (the spinner turns): what the loader is asked.
    /// `asked`: a person pressed Display Image or re-check.
    static func displayStarted(
        force: Bool,
        automatic: Bool,
        asked: Bool,
        now: Date,
        _ state: inout ScreenState
    ) -> LoadRequest {
        state.loading = ScreenState.Loading(
            index: state.index,
            started: now,
            progress: nil,
            automatic: automatic,
            asked: asked
        )
        return .display(force: force, automatic: automatic, offline: state.offline, offerEarly: state.image == nil)
    }

    /// How far the load has come, and whom it waits for.
    static func progressed(_ progress: TransferProgress?, waiting: ScreenState.Waiting?, _ state: inout ScreenState) {
        state.loading?.progress = progress
        state.loading?.waiting = waiting
    }

    /// `[` `]` over the entry's kept images (newest first): the one `step`
    /// older goes on screen, and the loader is asked for its file; nil when
    /// it is the one shown already, or there is none.
    static func stepHistory(_ items: [HistoryItem], step: Int, _ state: inout ScreenState) -> LoadRequest? {
        guard !items.isEmpty else {
            state.status.text = "No earlier images kept for this entry"
            return nil
        }
        let shown = state.historyIndex ?? 0
        let index = min(max(0, shown + step), items.count - 1)
        showHistory(items, index: index, &state)
        return index == shown ? nil : .keptImage(path: items[index].path)
    }

    /// A decode with no check (a kept image, or for a larger window) is
    /// ready: only the pixels change.
    static func redecoded(_ image: DecodedImage, source: ScreenState.PictureSource?, _ state: inout ScreenState) {
        // A kept image (`[` `]`) arrives here: a view of the one before is not its.
        if source != state.imageSource { state.resetView() }
        state.image = image
        state.imageSource = source
    }

    /// A check of another entry than the one on screen (the gallery's `r`)
    /// ended: its tile shows it, and the spinner stops.
    static func finishedElsewhere(_ state: inout ScreenState) {
        state.loading = nil
    }

    /// The kept image number `index` of `items` (newest first) is going on
    /// screen: its words, and "3 of 7 · 19 Nov 2026".
    public static func showHistory(_ items: [HistoryItem], index: Int, _ state: inout ScreenState) {
        guard items.indices.contains(index) else { return }
        if index != (state.historyIndex ?? 0) { state.resetView() }
        state.historyIndex = index
        state.caption = ScreenState.Caption(items[index].metadata)
        var text = "\(index + 1) of \(items.count) · \(UpdatedFormat.day(items[index].firstSeen))"
        if index == 0 { text += " (current)" }
        state.status = .info(text)
    }

    /// The bundled picture is ready while the first check goes on: shown,
    /// and labelled, unless an image came first.
    public static func showBundled(_ image: DecodedImage, _ state: inout ScreenState) {
        guard state.image == nil else { return }
        state.image = image
        state.imageSource = .bundled(state.entry.url)
        state.updated = nil
        state.status = .info(BundledImage.statusLine)
    }

    /// The copy is in its stale-while-revalidate window: shown at once,
    /// and said to be checked, unless an image came first.
    public static func showRevalidating(_ image: DecodedImage, copy: CachedCopy, _ state: inout ScreenState) {
        guard state.image == nil else { return }
        state.image = image
        state.imageSource = .file(copy.imagePath)
        state.updated = copy.updated
        state.caption = ScreenState.Caption(copy.metadata)
        state.loading?.revalidating = true
    }

    /// What the status line says while a stale copy is shown and checked.
    public static let revalidatingStatus = "Stale copy shown while it is checked (stale-while-revalidate)"

    /// A Display Image finished (or failed, or was cancelled). A cached
    /// copy replaces a bundled picture; without one, the picture stays.
    /// `source`: the file `image` was decoded from; `freshFor`: how long
    /// the copy stays fresh, when the server's word sets it (nil, the
    /// default, is the fixed interval: pass it on every load that checked).
    public static func finished(
        _ report: DisplayReport,
        image: Result<DecodedImage, DecodeError>?,
        automatic: Bool,
        now: Date,
        source: String? = nil,
        freshFor: TimeInterval? = nil,
        _ state: inout ScreenState
    ) {
        state.freshFor = freshFor
        let asked = state.loading?.asked ?? !automatic
        // A zoomed view stays on the same picture (a check that found it
        // current, or failed); a new image, or another, goes back to fit.
        let isNew = (try? report.result.get())?.isNewImage ?? false
        let samePicture = state.image != nil && !state.isBundled && state.historyIndex == nil && !isNew
        if !samePicture { state.resetView() }
        state.loading = nil
        state.fieldsCleared = false
        state.historyIndex = nil
        // Failures in a row push the next check by itself back (5 min, 10, 20…).
        // With no image yet, the streak comes with the check that it held back.
        if case let .failure(.backingOff(streak)) = report.result {
            state.backOffUntil = streak.until
        } else {
            state.backOffUntil = report.copy?.metadata?.remembered.failures?.until
        }
        if let copy = report.copy {
            state.updated = copy.updated
            state.caption = ScreenState.Caption(copy.metadata)
        }
        switch image {
        case let .success(decoded)?:
            // A check that found the copy current brings the same pixels
            // from the same file: the picture stays the one drawn, so its
            // art and its kitty image are not made again.
            let source = source.map(ScreenState.PictureSource.file)
            if !(samePicture && source == state.imageSource && decoded == state.image) {
                state.image = decoded
                state.imageSource = source
            }
        case let .failure(error)?:
            state.image = nil
            state.imageSource = nil
            state.resetView()
            state.status = .error(error.description)
            if asked { state.overlay = .alert(error.description) }
            return
        case nil: break
        }
        reportCheck(report.result, copied: report.copy != nil, image: image, asked: asked, now: now, &state)
    }

    /// What the check came to, on the status line (and in an alert when
    /// it was asked for and failed).
    private static func reportCheck(
        _ result: Result<DisplayOutcome, FetchError>,
        copied: Bool,
        image: Result<DecodedImage, DecodeError>?,
        asked: Bool,
        now: Date,
        _ state: inout ScreenState
    ) {
        switch result {
        case let .success(outcome):
            var text = outcome.statusLine
            // A damaged file that could still be shown says so.
            if case let .success(decoded)? = image, !decoded.warnings.isEmpty {
                text += " (" + decoded.warnings.map(\.description).joined(separator: "; ") + ")"
            }
            state.status = .info(text)
            state.lastFailedCheck = nil
        case let .failure(error):
            // Any check that failed or was cancelled holds the next one by
            // itself back: a stale copy's Esc was undone at once by a check
            // by itself, and a lock another process held was waited for
            // again and again.
            state.lastFailedCheck = now
            if error.isCancellation {
                state.status = .info(copied ? "Download cancelled; showing the cached image" : "Download cancelled")
                return
            }
            state.status = .error(
                copied ? "Check failed, showing the cached image: \(error.description)" : error.description
            )
            if asked { state.overlay = .alert(error.description) }
        }
    }

    /// Clear Cache finished: the image and its fields are emptied, as in the original.
    public static func cleared(_ result: Result<Int, CacheError>, _ state: inout ScreenState) {
        switch result {
        case .success:
            state.clearImage()
            state.fieldsCleared = true
        case let .failure(error):
            state.overlay = .alert(error.description)
        }
    }
}

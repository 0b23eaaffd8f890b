import BlockArt
import Foundation
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
}

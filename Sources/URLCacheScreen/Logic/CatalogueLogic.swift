import FoundationEssentials
import URLCacheKit

/// `a`: the catalogue's sources in a box, one to pick: ↑ ↓ (j k) move the
/// mark, Enter adds the marked source to the list and goes to it, checked
/// at once; Esc (or q) leaves everything as it was.
extension ScreenLogic {
    /// A key while the catalogue's box is open, `chosen` marked.
    static func handleCatalogue(_ chosen: Int, _ key: Key, _ state: inout ScreenState, box: Box?) -> [Effect] {
        let count = Catalogue.sources.count
        if let step = scrollStep(KeyTable.command(for: key, in: .box), box: box) {
            let next = max(0, min(count - 1, chosen + step))
            state.overlay = .catalogue(chosen: next)
            // The mark stays in the part of the list the box shows.
            let shown = box?.lines.count ?? count
            if next < state.boxScroll { state.boxScroll = next }
            if next >= state.boxScroll + shown { state.boxScroll = next - shown + 1 }
            return []
        }
        switch key {
        case .enter:
            state.overlay = nil
            return Catalogue.sources.indices.contains(chosen) ? [.addSource(Catalogue.sources[chosen].name)] : []
        case .escape, .character("q"):
            state.overlay = nil
            return []
        case .interrupt:
            return quit(&state)
        default:
            return []
        }
    }

    /// The source was added to the list as entry `number` (or was there
    /// already): the screen goes to it, and Display Image checks it.
    public static func sourceAdded(
        _ list: URLList,
        number: Int,
        rules: [FreshnessRule],
        _ state: inout ScreenState
    ) -> [Effect] {
        state.entries = list.entries
        state.rules = rules
        state.index = max(0, min(number - 1, list.entries.count - 1))
        state.clearImage()
        return [.display(force: false, asked: true)]
    }

    /// The source could not be added: why, on the status line; nothing moves.
    public static func sourceNotAdded(_ reason: String, _ state: inout ScreenState) {
        state.status = .error(reason)
    }
}

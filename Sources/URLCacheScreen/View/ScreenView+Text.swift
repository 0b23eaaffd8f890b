import BlockArt
import FoundationEssentials
import URLCacheKit
import URLCacheSupport

/// The screen's words: the title line, the status, Updated and the info
/// lines, and the box over the picture.
extension ScreenView {
    func drawTitle(_ state: ScreenState, _ layout: Layout, _ terminal: Terminal) {
        var position = state.entries.count > 1 ? "  \(state.index + 1) of \(state.entries.count)" : ""
        var name = state.entry.displayName
        if let gallery = state.gallery {
            (name, position) = ScreenView.galleryTitle(gallery, state)
        } else if let caption = state.caption {
            if let title = caption.title?.terminalSafe, title != name { name += " · " + title }
            if let credit = caption.credit?.terminalSafe { name += " © " + credit }
        }
        let room = layout.columns - 2 - "urlcache · ".columns - position.columns
        let title = "urlcache · " + name.clipped(toColumns: max(0, room)) + position
        terminal.put(title, row: layout.titleRow, column: 1, style: .bold)
    }

    func drawStatus(_ state: ScreenState, _ layout: Layout, _ terminal: Terminal, now: Date) {
        guard let loading = state.loading else {
            var status = state.offline ? "[offline] " + state.status.text : state.status.text
            if let gallery = state.gallery {
                status = ScreenView.galleryStatus(gallery, status)
            } else if let zoom = geometry(state, layout, cell: terminal.cellPixels)?.describe(state.viewport) {
                // "×4 · view at 38%, 61%" leads while zoomed.
                status = status.isEmpty ? zoom : zoom + " · " + status
            } else if state.image != nil, let frame = state.playback?.status {
                // "frame 12 of 48 · paused" leads while an animation stands still.
                status = status.isEmpty ? frame : frame + " · " + status
            }
            terminal.put(
                clip(status, layout.columns - 2),
                row: layout.statusRow,
                column: 1,
                style: state.status.isError ? .bold : .plain
            )
            return
        }
        let elapsed = now.timeIntervalSince(loading.started)
        let frame = ScreenView.spinner[Int(elapsed / ScreenView.spinnerPeriod) % ScreenView.spinner.count]
        var text = "\(frame) " + (loading.revalidating ? ScreenLogic.revalidatingStatus : "Loading")
        if let waiting = loading.waiting {
            text =
                "\(frame) waiting for another urlcache\(waiting.pid.map { " (pid \($0))" } ?? "") to finish with this image"
        } else if let progress = loading.progress, progress.received > 0 {
            text = "\(frame) \(ByteCount.format(progress.received))"
            if let total = progress.total, total > 0 {
                let fraction = min(1, Double(progress.received) / Double(total))
                text += " of \(ByteCount.format(total)) \(Int(fraction * 100))%"
                let barWidth = max(0, min(30, layout.columns - text.columns - 24))
                if barWidth >= 5 {
                    let filled = Int(fraction * Double(barWidth))
                    text +=
                        " [" + String(repeating: "█", count: filled) + String(repeating: "·", count: barWidth - filled)
                        + "]"
                }
            }
            if elapsed > 0.2 { text += " \(ByteCount.format(Int64(Double(progress.received) / elapsed)))/s" }
        }
        text += "  (Esc cancels)"
        terminal.put(clip(text, layout.columns - 2), row: layout.statusRow, column: 1, style: .plain)
    }

    func drawOverlay(_ box: Box, _ terminal: Terminal) {
        let (top, left, width, height) = (box.top, box.left, box.width, box.height)
        // A terminal whose locale is not UTF-8 puts these in ASCII (+ - |).
        terminal.put("┌" + String(repeating: "─", count: width - 2) + "┐", row: top, column: left, style: .plain)
        for row in 1..<(height - 1) {
            terminal.put(
                "│" + String(repeating: " ", count: width - 2) + "│",
                row: top + row,
                column: left,
                style: .plain
            )
        }
        terminal.put(
            "└" + String(repeating: "─", count: width - 2) + "┘",
            row: top + height - 1,
            column: left,
            style: .plain
        )
        terminal.put(clip(box.heading, width - 4), row: top + 1, column: left + 2, style: .bold)
        for (i, text) in box.lines.enumerated() {
            terminal.put(clip(text, width - 4), row: top + 2 + i, column: left + 2, style: .plain)
        }
        if let hint = box.scrollHint {
            terminal.put(clip(hint, width - 4), row: box.hintRow, column: left + 2, style: .dim)
        }
        for button in box.buttons {
            terminal.put(button.label, row: button.row, column: button.column, style: .reverse)
        }
    }

    func clip(_ text: String, _ width: Int) -> String {
        text.clipped(toColumns: width)
    }

    /// The check interval as the status line says it: "24 hours".
    public static func describe(_ interval: TimeInterval) -> String { DurationText.exactly(interval) }
}

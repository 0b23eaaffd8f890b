import BlockArt
import FoundationEssentials

/// `render` of an animation in kitty itself: kitty plays it (its animation
/// protocol), so each frame is decoded, encoded and sent once, however long
/// it plays and however often it loops, and nothing is kept here. The first
/// frame is shown as a still is; the others are added as they are decoded,
/// kitty playing what it has meanwhile; then it loops as the file says.
/// urlcache waits for `--duration`, for the loops to play out, or for
/// Ctrl-C (which takes the picture away); at `--duration` the picture stays
/// on the frame it had reached. The cursor is hidden meanwhile and always
/// shown again.
struct KittyPlayback {
    var options: PictureOptions
    var cells: CellSize
    var duration: Double?
    /// Runs once it stops, before a signal that stopped it ends the process.
    var ending: () -> Void = {}

    func play(_ animation: AnimationDecoder) throws(DecodeError) {
        let id = options.imageID
        let rows = cells.rows
        // Stopped where it is at --duration or Ctrl-C; its loops played
        // out, kitty stops on the last frame itself (told to stop then, a
        // kitty that fell behind, reading the frames, stayed on an earlier one).
        var stop = true
        Interruption.install()
        defer {
            var last = (stop ? KittyGraphics.animate(id: id, .stopped) : []) + Array("\u{1B}8\u{1B}[\(rows)B\r".utf8)
            if Interruption.happened { last += KittyGraphics.delete(id: id) }
            write(last + Array("\u{1B}[?25h".utf8))
            ending()
            Interruption.finish()
        }
        let clock = ContinuousClock()
        let end = duration.map { clock.now + .seconds($0) }
        guard let first = try animation.next() else { return }
        let picture = first.pixmap.pixelImage().bytes(
            .kitty,
            options: options,
            route: .direct,
            columns: cells.columns,
            rows: rows
        )
        // Room for the picture first (nothing scrolls later), the cursor
        // kept at its top, then the picture, playing what it has.
        write(
            Array("\u{1B}[?25l".utf8) + Array(String(repeating: "\n", count: rows).utf8)
                + Array("\u{1B}[\(rows)A\u{1B}7".utf8)
                + (picture?.firstSequence() ?? []) + KittyGraphics.gap(id: id, frame: 1, first.delay)
                + KittyGraphics.animate(id: id, .loading)
        )
        let shown = clock.now
        var loop = first.delay
        var frames = 1
        while !Interruption.happened, end.map({ clock.now < $0 }) ?? true, let frame = try animation.next() {
            write(KittyGraphics.frame(frame.pixmap.pixelImage(), id: id, gap: frame.delay, options: options))
            loop += frame.delay
            frames += 1
        }
        guard frames > 1, !Interruption.happened else { return }
        let loops = animation.loopCount
        write(KittyGraphics.animate(id: id, .looping, loops: loops))
        // Until --duration, or the loops' end (counted from the first
        // frame's showing), whichever comes first; for ever, until a signal.
        let played = loops == 0 ? nil : Optional(shown + loop * loops)
        let until = [end, played].compactMap { $0 }.min()
        _ = AnimationPlayer<Void>.wait(until: until ?? clock.now + .seconds(86400 * 365), end: until, clock: clock)
        if let played, until == played, !Interruption.happened { stop = false }
    }

    private func write(_ bytes: [UInt8]) {
        Console.write(bytes)
    }
}

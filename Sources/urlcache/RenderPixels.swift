import BlockArt
import FoundationEssentials
import URLCacheScreen

#if canImport(Glibc)
import Glibc
#endif

/// `render` in a pixel format: kitty, sixel or iTerm2, straight to the
/// terminal or through tmux (its passthrough, or kitty's placeholders).
extension Render {
    /// The picture in a pixel format: decoded straight to the exact pixel
    /// box it is shown in, so that the terminal never rescales it.
    func renderPixels(_ input: Input, format: PictureFormat, terminal: WindowSize?, detection: Detection?) throws {
        let clock = ContinuousClock()
        let start = clock.now
        let area = area(terminal)
        let cell = WindowSize.cellPixels(terminal, replied: detection?.cellPixels)
        var cells = CellSize(columns: 1, rows: 1)
        let size = { (info: SourceInfo) -> PixelSize in
            let p = PixelPlacement.fit(
                imageWidth: info.width,
                imageHeight: info.height,
                columns: area.columns,
                rows: area.rows,
                cellWidth: cell.width,
                cellHeight: cell.height,
                centred: false
            )
            cells = CellSize(columns: p.columns, rows: p.rows)
            return PixelSize(width: p.width, height: p.height)
        }
        let env = list.environment
        let route = detection?.route(for: format) ?? (!(env["TMUX"] ?? "").isEmpty ? .passthrough : .direct)
        let options = pictureOptions(route: route, detection: detection, terminal: terminal)
        // Inside tmux, passthrough on for our pane until tmux has read the
        // picture (a file or pipe gets the bytes and no switch).
        let switchOn = { route.needsPassthrough && terminal != nil ? PassthroughSwitch.turnOn(environment: env) : nil }
        if let animation = try animation(input, terminal: terminal, samples: (1, 1), size: size) {
            let kittyKeeps = format == .kitty && route == .direct && detection?.kittyAnimates == true
            let pictures = AnimatedPictures(format: format, options: options, cells: cells, route: route)
            return try playPictures(animation, input: input, pictures, kittyKeeps: kittyKeeps, switchOn: switchOn)
        }
        let decoded = try decode(input, samples: (1, 1), size: size).image
        let decodedAt = clock.now
        let image = decoded.pixmap.pixelImage()
        guard
            let picture = image.bytes(format, options: options, route: route, columns: cells.columns, rows: cells.rows)
        else {
            throw Failure.failed("\(input.name): could not encode the picture as \(format.rawValue)")
        }
        // The cursor ends below the picture's last row (sixel) or to its right
        // (kitty, iTerm2): a newline leaves the prompt under it. Placeholders
        // are lines of text, each with its newline.
        let encodedAt = clock.now
        // From staging a shared-memory object to putting tmux's passthrough
        // back, a signal waits: nothing is left behind.
        Interruption.install()
        var bytes = picture.firstSequence()
        bytes += picture.rows.isEmpty ? [UInt8(ascii: "\n")] : picture.rows.flatMap { $0 + [UInt8(ascii: "\n")] }
        let passthrough = switchOn()
        Console.write(bytes)
        passthrough?.restore(environment: env)
        Interruption.finish()
        if timings {
            Render.printTimings(start: start, decoded: decodedAt, encoded: encodedAt, asking: terminal != nil)
        }
        for warning in decoded.warnings { printError("urlcache: \(input.name): \(warning)") }
    }

    /// `--timings` for a picture: decode, encode, write and, on a terminal,
    /// when it had read the picture (it answers a DA1 sent after it).
    static func printTimings(
        start: ContinuousClock.Instant,
        decoded decodedAt: ContinuousClock.Instant,
        encoded encodedAt: ContinuousClock.Instant,
        asking terminal: Bool
    ) {
        let clock = ContinuousClock()
        let writtenAt = clock.now
        let read = terminal && TerminalQuery.ask(TerminalQuery.barrier)?.timedOut == false
        printError(
            "timings: decode+scale \(Render.ms(decodedAt - start)) ms, encode \(Render.ms(encodedAt - decodedAt)) ms, write \(Render.ms(writtenAt - encodedAt)) ms"
                + (read
                    ? ", terminal read it \(Render.ms(clock.now - writtenAt)) ms later, \(Render.ms(clock.now - start)) ms in all"
                    : "")
        )
    }

    /// How an animation's frames are made into pictures.
    struct AnimatedPictures {
        var format: PictureFormat
        var options: PictureOptions
        var cells: CellSize
        var route: PictureRoute
    }

    /// An animation in pixels: kitty keeps the frames and plays them where
    /// it can (`kittyKeeps`), else each frame is sent when it is due,
    /// tmux's passthrough on for our pane until the last.
    private func playPictures(
        _ animation: AnimationDecoder,
        input: Input,
        _ pictures: AnimatedPictures,
        kittyKeeps: Bool,
        switchOn: () -> PassthroughSwitch?
    ) throws {
        if kittyKeeps {
            let kitty = KittyPlayback(options: pictures.options, cells: pictures.cells, duration: duration)
            return try play(animation, input: input) { decoder throws(DecodeError) in try kitty.play(decoder) }
        }
        let env = list.environment
        let passthrough = switchOn()
        let player = Render.picturePlayer(
            format: pictures.format,
            options: pictures.options,
            cells: pictures.cells,
            route: pictures.route,
            duration: duration,
            ending: { passthrough?.restore(environment: env) }
        )
        return try play(animation, input: input) { decoder throws(DecodeError) in try player.play(decoder) }
    }

    /// What a picture by `route` needs besides its pixels. Inside tmux its
    /// id must be one the placeholder cells can name; a local kitty that
    /// said it reads our shared memory gets the pixels there (`--kitty-medium`
    /// decides, but only on a terminal: a file or pipe is read later).
    private func pictureOptions(route: PictureRoute, detection: Detection?, terminal: WindowSize?) -> PictureOptions {
        let env = list.environment
        let seed = UInt32(truncatingIfNeeded: getpid())
        let id = route == .placeholders ? KittyPlaceholders.imageID(seed) : seed & 0xFFFFFF | 1
        // Compression pays where bytes are dear (over ssh), not on a local
        // terminal or into a file, where zlib costs more time than it saves.
        let compress = env["SSH_CONNECTION"] != nil || env["SSH_TTY"] != nil
        // (Shared memory is for pictures that go straight: `bytes` holds to that.)
        let medium = terminal == nil ? .direct : kittyMedium ?? detection?.kittyMedium ?? .direct
        return PictureOptions(
            imageID: id,
            registers: registers ?? detection?.registers ?? SixelEncoder.defaultRegisters,
            moveCursor: true,
            compress: compress,
            medium: medium
        )
    }

    /// An animation in a picture format: `rows` lines are made first (so
    /// that nothing scrolls later), the cursor is saved at their top, and
    /// each frame is drawn from there, a kitty picture replacing the last
    /// one under the same id, a sixel painting over it. Placeholders are
    /// printed once, under the first frame's upload: the later uploads
    /// replace the image they name. `ending` runs last, before a signal
    /// that stopped it ends the process.
    static func picturePlayer(
        format: PictureFormat,
        options: PictureOptions,
        cells: CellSize,
        route: PictureRoute,
        duration: Double?,
        ending: @escaping () -> Void
    ) -> AnimationPlayer<PictureBytes> {
        let rows = cells.rows
        let empty = PictureBytes(sequence: [])
        var player = AnimationPlayer<PictureBytes>(
            duration: duration,
            prepare: { frame in
                let bytes =
                    frame.pixmap.pixelImage().bytes(
                        format,
                        options: options,
                        route: route,
                        columns: cells.columns,
                        rows: rows
                    ) ?? empty
                return (bytes, bytes.byteCount)
            },
            output: { bytes, previous in
                var out =
                    previous == nil
                    ? Array(String(repeating: "\n", count: rows).utf8) + Array("\u{1B}[\(rows)A\u{1B}7".utf8) : []
                // Each showing from a new shared-memory object: kitty unlinks one once read.
                out += Array("\u{1B}8".utf8) + bytes.firstSequence()
                if previous == nil, !bytes.rows.isEmpty {
                    out += Array("\u{1B}8".utf8) + bytes.rows.flatMap { $0 + Array("\r\n".utf8) }
                }
                return out
            },
            closing: Array("\u{1B}8\u{1B}[\(rows)B\r".utf8),
            interrupted: PictureBytes.removal(format, id: options.imageID, route: route)
        )
        player.ending = ending
        return player
    }
}

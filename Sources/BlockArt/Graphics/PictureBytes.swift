/// A picture as written to the terminal.
public struct PictureBytes: Sendable, Equatable {
    /// Sent with the cursor on the picture's top-left cell. Empty when the
    /// pixels go by `shared`.
    public var sequence: [UInt8]
    /// Unicode placeholders: each row's text, written from the picture's
    /// left column on that row. Empty when the terminal draws the pixels
    /// from `sequence` alone.
    public var rows: [[UInt8]]
    /// What takes the picture away (kitty: delete by id, routed as the
    /// sequence was); empty when only repainting its cells does (sixel,
    /// iTerm2).
    public var removal: [UInt8]
    /// kitty on this machine: the pixels to stage in shared memory when
    /// the picture is first sent (only then, so that a picture never sent
    /// leaves no object behind), and as base64 for a send after the first:
    /// kitty unlinks an object once read.
    public var shared: SharedMemoryUpload?

    public init(sequence: [UInt8], rows: [[UInt8]] = [], removal: [UInt8] = [], shared: SharedMemoryUpload? = nil) {
        self.sequence = sequence
        self.rows = rows
        self.removal = removal
        self.shared = shared
    }

    /// What keeping it costs, in bytes.
    public var byteCount: Int {
        sequence.count + rows.reduce(0) { $0 + $1.count } + removal.count + (shared?.byteCount ?? 0)
    }

    /// What sends the picture the first time: from shared memory where
    /// that was asked for and the object could be made, else `sequence`.
    public func firstSequence() -> [UInt8] {
        firstSend().bytes
    }

    /// `firstSequence`, and the shared-memory object it staged, if any.
    public func firstSend() -> (bytes: [UInt8], staged: String?) {
        shared?.send() ?? (sequence, nil)
    }

    /// What sends the picture again, once the first has gone out.
    public func laterSequence() -> [UInt8] {
        shared?.base64() ?? sequence
    }

    /// What takes a picture in `format` with `id` away, sent by `route`:
    /// kitty's delete by id (wrapped for tmux unless it goes straight);
    /// nothing for the formats that only a repaint of their cells erases.
    public static func removal(_ format: PictureFormat, id: UInt32, route: PictureRoute) -> [UInt8] {
        guard format == .kitty else { return [] }
        let delete = KittyGraphics.delete(id: id)
        return route == .direct ? delete : TmuxPassthrough.wrap(delete)
    }
}

extension PixelImage {
    /// The picture in `format` by `route`, filling `columns` × `rows` cells
    /// (placeholders need them; the others show the pixels as they are).
    /// Nil for `.symbols`, for placeholders of another format than kitty's,
    /// and when encoding fails.
    public func bytes(
        _ format: PictureFormat,
        options: PictureOptions,
        route: PictureRoute,
        columns: Int,
        rows: Int
    ) -> PictureBytes? {
        let id = options.imageID
        let removal = PictureBytes.removal(format, id: id, route: route)
        switch (route, format) {
        case (.placeholders, .kitty):
            // Past the marks' table a cell cannot say where it is: kitty fits
            // the picture into the fewer cells.
            let columns = min(columns, KittyPlaceholders.maxSpan)
            let rows = min(rows, KittyPlaceholders.maxSpan)
            let upload = KittyPlaceholders.upload(
                self,
                id: id,
                columns: columns,
                rows: rows,
                compress: options.compress
            )
            return PictureBytes(
                sequence: TmuxPassthrough.wrap(upload),
                rows: (0..<rows).map { KittyPlaceholders.row($0, columns: columns, id: id) },
                removal: removal
            )
        case (.placeholders, _): return nil
        case (.direct, .kitty) where options.medium == .sharedMemory:
            let shared = KittyGraphics.sharedUpload(
                self,
                id: id,
                moveCursor: options.moveCursor,
                compress: options.compress
            )
            return PictureBytes(sequence: [], removal: removal, shared: shared)
        case (.direct, _), (.passthrough, _):
            guard let sequence = sequence(format, options: options) else { return nil }
            return PictureBytes(
                sequence: route == .passthrough ? TmuxPassthrough.wrap(sequence) : sequence,
                removal: removal
            )
        }
    }
}

/// How a picture reaches the terminal: block art, or real pixels through
/// one of the three graphics protocols. The names follow chafa's `-f`.
public enum PictureFormat: String, Sendable, CaseIterable {
    /// Block art (the renderer's cells): every terminal, pipes, tmux.
    case symbols
    /// The kitty graphics protocol.
    case kitty
    /// Sixel.
    case sixel
    /// iTerm2's inline images.
    case iterm

    /// Whether the format sends pixels rather than cells.
    public var isPixels: Bool { self != .symbols }
}

/// What a pixel picture's sequence needs besides the pixels.
public struct PictureOptions: Sendable, Equatable {
    /// kitty: the image id (one per picture, so it can be deleted by id).
    public var imageID: UInt32
    /// sixel: the colour registers to use.
    public var registers: Int
    /// Whether the cursor may move past the picture (`render`) or must
    /// stay (the screen).
    public var moveCursor: Bool
    /// kitty: zlib-compress the data where that saves a tenth (worth it
    /// over ssh or into a file; on a local terminal it costs more time
    /// than it saves).
    public var compress: Bool
    /// kitty: how the pixels are given (shared memory on this machine);
    /// `PixelImage.bytes` reads it, `sequence` always gives base64.
    public var medium: KittyMedium

    public init(
        imageID: UInt32 = 1,
        registers: Int = SixelEncoder.defaultRegisters,
        moveCursor: Bool = true,
        compress: Bool = false,
        medium: KittyMedium = .direct
    ) {
        self.imageID = imageID
        self.registers = registers
        self.moveCursor = moveCursor
        self.compress = compress
        self.medium = medium
    }
}

extension PixelImage {
    /// The escape sequence that shows this picture at the cursor in a pixel
    /// `format`; nil for `.symbols` (block art is rendered, not encoded) and
    /// if PNG encoding fails.
    public func sequence(_ format: PictureFormat, options: PictureOptions) -> [UInt8]? {
        switch format {
        case .symbols: return nil
        case .kitty:
            return KittyGraphics.display(
                self,
                id: options.imageID,
                moveCursor: options.moveCursor,
                compress: options.compress
            )
        case .sixel: return SixelEncoder.encode(self, registers: options.registers)
        case .iterm: return ITermImage.display(self, moveCursor: options.moveCursor)
        }
    }
}

/// tmux's passthrough: a sequence wrapped in `ESC P tmux;` with every ESC
/// doubled reaches the outer terminal (with `allow-passthrough on`).
public enum TmuxPassthrough {
    /// Wraps each string sequence of `sequence` (each up to its `ESC \`)
    /// on its own: tmux drops a passthrough longer than its input buffer
    /// (1 MiB), and a kitty upload is many chunks of 4 KiB.
    public static func wrap(_ sequence: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(sequence.count + sequence.count / 64 + 16)
        var start = 0
        var i = 0
        while i < sequence.count {
            let endsString = sequence[i] == 0x1B && i + 1 < sequence.count && sequence[i + 1] == UInt8(ascii: "\\")
            i += endsString ? 2 : 1
            if endsString || i == sequence.count {
                wrapOne(sequence[start..<i], into: &out)
                start = i
            }
        }
        return out
    }

    private static func wrapOne(_ sequence: ArraySlice<UInt8>, into out: inout [UInt8]) {
        out += Array("\u{1B}Ptmux;".utf8)
        for byte in sequence {
            if byte == 0x1B { out.append(0x1B) }
            out.append(byte)
        }
        out += [0x1B, UInt8(ascii: "\\")]
    }
}

/// How a picture reaches the terminal that draws it, inside tmux or not.
public enum PictureRoute: String, Sendable, Equatable {
    /// Straight: not inside tmux, or tmux draws the format itself (sixel
    /// in tmux 3.4 and later, built with it).
    case direct
    /// Wrapped in tmux's passthrough to the outer terminal. tmux does not
    /// know of the picture, so its next redraw of the pane wipes it: for a
    /// format named on the command line where nothing better is known.
    case passthrough
    /// kitty's Unicode placeholders: the upload goes through the
    /// passthrough, and the picture is text cells that tmux keeps in its
    /// grid and draws again after a window switch or a scroll.
    case placeholders

    /// Whether tmux's `allow-passthrough` must be on for the pane.
    public var needsPassthrough: Bool { self != .direct }
}

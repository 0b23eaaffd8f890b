/// tmux's passthrough: a sequence wrapped in `ESC P tmux;` with every ESC
/// doubled reaches the outer terminal (with `allow-passthrough on`).
public enum TmuxPassthrough {
    public static func wrap(_ sequence: [UInt8]) -> [UInt8] {
        var out = Array("\u{1B}Ptmux;".utf8)
        out.reserveCapacity(sequence.count + sequence.count / 64 + 16)
        for byte in sequence {
            if byte == 0x1B { out.append(0x1B) }
            out.append(byte)
        }
        out += [0x1B, UInt8(ascii: "\\")]
        return out
    }
}

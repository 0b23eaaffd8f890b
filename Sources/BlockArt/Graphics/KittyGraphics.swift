internal import CImageShim

/// The kitty graphics protocol (kitty, Ghostty, WezTerm, Konsole): RGB data,
/// base64 in chunks, shown at the cursor at its own pixel size.
public enum KittyGraphics {
    /// The most base64 bytes one escape sequence carries (the protocol's limit).
    static let chunkSize = 4096

    /// Transmits `image` as image `id` and shows it at the cursor, at its
    /// pixel size (no `c`/`r`: the terminal never rescales). The data is
    /// zlib-compressed (`o=z`) with `compress`, when that saves at least a
    /// tenth of it.
    /// `moveCursor` false keeps the cursor where it is (`C=1`), as the
    /// screen needs; `render` lets it move below the picture.
    public static func display(_ image: PixelImage, id: UInt32, moveCursor: Bool, compress: Bool = false) -> [UInt8] {
        transmit(image.rgb, control: displayControl(image, id: id, moveCursor: moveCursor), compress: compress)
    }

    /// `display`'s picture, its pixels to be staged in shared memory
    /// (with `staging` off: kept, and sent as base64 when it is sent).
    public static func sharedUpload(
        _ image: PixelImage,
        id: UInt32,
        moveCursor: Bool,
        compress: Bool,
        staging: Bool = true
    ) -> SharedMemoryUpload {
        SharedMemoryUpload(
            control: displayControl(image, id: id, moveCursor: moveCursor),
            pixels: image.rgb,
            compress: compress,
            staging: staging,
            width: image.width,
            height: image.height
        )
    }

    private static func displayControl(_ image: PixelImage, id: UInt32, moveCursor: Bool) -> String {
        "a=T,f=24,s=\(image.width),v=\(image.height),i=\(id),q=2" + (moveCursor ? "" : ",C=1")
    }

    /// The escape sequences that carry `pixels` (RGB) with the keys in
    /// `control`: base64 in chunks of `chunkSize`, the first with the keys,
    /// the others with `continuation`'s (if any), each with `m=1` but the
    /// last.
    static func transmit(_ pixels: [UInt8], control: String, compress: Bool, continuation: String = "") -> [UInt8] {
        var control = control
        var payload = pixels
        if compress, let packed = deflate(pixels), packed.count * 10 <= pixels.count * 9 {
            payload = packed
            control += ",o=z"
        }
        var encoded: [UInt8] = []
        Base64.encode(payload, into: &encoded)
        var out: [UInt8] = []
        out.reserveCapacity(encoded.count + encoded.count / chunkSize * 16 + 64)
        var start = 0
        repeat {
            let end = min(encoded.count, start + chunkSize)
            let more = end < encoded.count
            out += [0x1B, UInt8(ascii: "_"), UInt8(ascii: "G")]
            out += Array(
                ((start == 0 ? control + "," : continuation.isEmpty ? "" : continuation + ",") + "m=\(more ? 1 : 0)")
                    .utf8
            )
            out.append(UInt8(ascii: ";"))
            out += encoded[start..<end]
            out += [0x1B, UInt8(ascii: "\\")]
            start = end
        } while start < encoded.count
        return out
    }

    /// Deletes image `id` and its placements, freeing its data.
    public static func delete(id: UInt32) -> [UInt8] {
        Array("\u{1B}_Ga=d,d=I,i=\(id),q=2\u{1B}\\".utf8)
    }

    /// The data compressed at zlib's fastest level: what pays for a picture
    /// sent once over a pipe or ssh, at little cost on a local terminal.
    private static func deflate(_ bytes: [UInt8]) -> [UInt8]? {
        takeCBuffer { cimg_deflate(bytes, bytes.count, 1, &$0, &$1) }
    }
}

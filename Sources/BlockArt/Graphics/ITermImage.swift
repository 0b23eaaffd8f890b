internal import CImageShim

/// iTerm2's inline images (iTerm2, WezTerm, VS Code): a PNG, base64, in
/// one OSC 1337 sequence, sized in pixels so that it is shown 1:1.
public enum ITermImage {
    /// `image` as an inline PNG at the cursor. Nil only if libpng fails
    /// (out of memory).
    public static func display(_ image: PixelImage, moveCursor: Bool) -> [UInt8]? {
        guard let png = png(image) else { return nil }
        var bytes = Array(
            "\u{1B}]1337;File=inline=1;size=\(png.count);width=\(image.width)px;height=\(image.height)px;preserveAspectRatio=0"
                .utf8
        )
        if !moveCursor { bytes += Array(";doNotMoveCursor=1".utf8) }
        bytes.append(UInt8(ascii: ":"))
        Base64.encode(png, into: &bytes)
        bytes.append(0x07)
        return bytes
    }

    /// A PNG of `image` (what `display` sends), for tests and tools.
    public static func png(_ image: PixelImage) -> [UInt8]? {
        takeCBuffer { cimg_png_encode_rgb(image.rgb, UInt32(image.width), UInt32(image.height), 1, &$0, &$1) }
    }
}

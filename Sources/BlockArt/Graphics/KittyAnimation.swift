import URLCacheSupport

/// kitty's animation protocol: frames added to a picture kitty already
/// shows, each with its gap, which kitty then plays by itself. Frame 1 is
/// the picture as first shown; ours are whole and opaque, so each frame
/// replaces the canvas (`X=1`) and needs no frame beneath it.
extension KittyGraphics {
    /// What `a=a` sets an animation doing (its `s` key).
    public enum Playing: Int, Sendable {
        case stopped = 1
        /// Plays the frames it has and waits at the last for more: while
        /// they are still being sent.
        case loading = 2
        case looping = 3
    }

    /// `image` added to image `id` as its next frame, shown for `gap`, by
    /// `options.medium` (shared memory where kitty reads ours).
    public static func frame(_ image: PixelImage, id: UInt32, gap: Duration, options: PictureOptions) -> [UInt8] {
        frameUpload(
            image.rgb,
            width: image.width,
            height: image.height,
            id: id,
            gap: gap,
            compress: options.compress,
            staging: options.medium == .sharedMemory
        ).send().bytes
    }

    /// The upload that adds RGB `pixels` to image `id` as its next frame,
    /// whole and opaque (`X=1`: it replaces the canvas, and needs no frame
    /// beneath it), shown for `gap` when kitty plays it.
    ///
    /// In base64, every chunk says `a=f` and the image again: kitty before
    /// its commit d805e28 (Debian's 0.26 among them) reads a chunk with `m`
    /// alone as the rest of a picture, and puts the frame's data in place
    /// of the first frame's. Both read a chunk with the keys as ours.
    static func frameUpload(
        _ pixels: [UInt8],
        width: Int,
        height: Int,
        id: UInt32,
        gap: Duration?,
        compress: Bool,
        staging: Bool
    ) -> SharedMemoryUpload {
        let gapKey = gap.map { ",z=\(milliseconds($0))" } ?? ""
        return SharedMemoryUpload(
            control: "a=f,f=24,s=\(width),v=\(height),i=\(id),X=1\(gapKey),q=2",
            pixels: pixels,
            compress: compress,
            continuation: "a=f,i=\(id),q=2",
            staging: staging,
            width: width,
            height: height
        )
    }

    /// Shows frame `number` (1-based, the first frame is the picture
    /// itself) of image `id` now; its animation stays as it was (stopped,
    /// unless asked to play): kitty switches and draws at once.
    public static func show(frame number: Int, id: UInt32) -> [UInt8] {
        Array("\u{1B}_Ga=a,i=\(id),c=\(number),q=2\u{1B}\\".utf8)
    }

    /// How long frame `frame` (1-based) of image `id` stays: the first
    /// frame's, which its picture could not say.
    public static func gap(id: UInt32, frame: Int, _ gap: Duration) -> [UInt8] {
        Array("\u{1B}_Ga=a,i=\(id),r=\(frame),z=\(milliseconds(gap)),q=2\u{1B}\\".utf8)
    }

    /// Sets image `id`'s animation `playing`; looping, `loops` times (0:
    /// for ever, as a GIF's loop count says).
    public static func animate(id: UInt32, _ playing: Playing, loops: Int = 0) -> [UInt8] {
        // kitty's v: 1 loops for ever, n plays n − 1 loops.
        let count = playing == .looping ? ",v=\(loops == 0 ? 1 : loops + 1)" : ""
        return Array("\u{1B}_Ga=a,i=\(id),s=\(playing.rawValue)\(count),q=2\u{1B}\\".utf8)
    }

    /// A gap in whole milliseconds, at least 1 (kitty reads 0 as "unset").
    private static func milliseconds(_ gap: Duration) -> Int {
        max(1, Int(gap.milliseconds.rounded()))
    }
}

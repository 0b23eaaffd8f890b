import BlockArt

/// An animation in kitty, its frames kept by kitty (#16: "upload the frames
/// once with the animation protocol"): the first frame shown is the
/// picture itself, each other is added to it as a frame (`a=f`) the first
/// time it is shown, and from then on showing a frame is one short
/// sequence (`a=a,c=N`) that has kitty switch to it. The screen still says
/// when each frame is due, so pausing, stepping, the status line and
/// passing over frames behind a slow terminal are the same as elsewhere;
/// kitty's own playback stays stopped.
extension Placed where Content == PixelPicture {
    /// Another frame of the animation `other` shows, at its cells: kitty,
    /// holding both, switches from one to the other.
    func continues(_ other: Placed<PixelPicture>) -> Bool {
        let (mine, theirs) = (content, other.content)
        return mine.frame != nil && theirs.frame != nil && mine.format == .kitty && theirs.format == .kitty
            && mine.id == theirs.id && sameCells(as: other)
    }
}

extension FrameCompositor {
    /// The frames kitty holds of the animation on screen, one image's.
    public struct KittyFrames: Equatable, Sendable {
        /// The image the frames are added to.
        public var id: UInt32
        /// kitty's number for each frame held (1: the picture itself), by
        /// the frame's index in a loop.
        public var numbers: [Int: Int]

        /// kitty's number for frame `index`, and whether it is new: added
        /// now, as the image's next frame.
        mutating func number(for index: Int) -> (number: Int, add: Bool) {
            if let number = numbers[index] { return (number, false) }
            let number = numbers.count + 1
            numbers[index] = number
            return (number, true)
        }

        /// The most an animation's frames may take in kitty (RGB, at the
        /// size shown) for kitty to keep them: kitty refuses frames past
        /// five times its 320 MB quota, counted over every image it holds,
        /// so half of that. Past it, each frame is a picture of its own.
        public static let mostBytes = 800 << 20

        /// Whether kitty keeps the frames of an animation of `count`
        /// frames (nil: not known) of `width` × `height` pixels.
        public static func fit(count: Int?, width: Int, height: Int) -> Bool {
            guard let count, count > 1 else { return false }
            return count * width * height * 3 <= mostBytes
        }
    }

    /// A frame kitty holds, or is given now, shown by switching to it.
    public struct FrameSwitch: Equatable, Sendable {
        public var picture: Placed<PixelPicture>
        /// kitty's number for the frame.
        public var number: Int
        /// The frame's pixels go first, added to the image (`a=f`).
        public var add: Bool
    }

    /// The pictures to write whole and the frames to switch to, the
    /// removals that go first (an image whose frames kitty holds is taken
    /// away before it is sent whole again: sending it again replaces only
    /// its first frame), the frames kitty holds afterwards, and the
    /// pictures then shown.
    ///
    /// A repaint clears kitty's pictures, frames and all: the frame is
    /// then sent whole, as the first of a new set.
    static func pictureWrites(
        _ wanted: [Placed<PixelPicture>],
        shown: Shown,
        repaint: Bool,
        removed: [PixelPicture],
        touches: (Placed<PixelPicture>) -> Bool
    )
        -> (
            whole: [Placed<PixelPicture>], switches: [FrameSwitch], removals: [PixelPicture], held: KittyFrames?,
            shown: [Placed<PixelPicture>]
        )
    {
        var whole: [Placed<PixelPicture>] = []
        var switches: [FrameSwitch] = []
        var removals: [PixelPicture] = []
        // Each with the frame that stays up in its place, if any.
        var unsent: [(picture: Placed<PixelPicture>, stays: Placed<PixelPicture>?)] = []
        var held = repaint ? nil : shown.kittyFrames
        for picture in wanted {
            let up = shown.pictures.first(where: picture.continues)
            if let up, let index = picture.content.frame, var frames = held, frames.id == picture.content.id {
                guard up != picture else { continue }
                let (number, add) = frames.number(for: index)
                // A frame made without its pixels that kitty does not hold
                // after all is not shown (`unsent`): the frame before stays
                // up, and the next is made with its pixels.
                guard !(add && picture.content.isSwitchOnly) else {
                    unsent.append((picture, up))
                    continue
                }
                held = frames
                switches.append(FrameSwitch(picture: picture, number: number, add: add))
                continue
            }
            guard repaint || !shown.pictures.contains(picture) || (picture.content.erasedByRepaint && touches(picture))
            else { continue }
            guard !picture.content.isSwitchOnly else {
                unsent.append((picture, repaint ? nil : up))
                continue
            }
            whole.append(picture)
            guard let index = picture.content.frame else { continue }
            if shown.kittyFrames?.id == picture.content.id, !removed.contains(where: { $0.id == picture.content.id }) {
                removals.append(picture.content)
            }
            held = KittyFrames(id: picture.content.id, numbers: [index: 1])
        }
        // Frames of a picture no longer shown went with its removal.
        let shownNow = wanted.compactMap { picture in unsent.first { $0.picture == picture }.map(\.stays) ?? picture }
        if let id = held?.id, !shownNow.contains(where: { $0.content.id == id && $0.content.frame != nil }) {
            held = nil
        }
        return (whole, switches, removals, held, shownNow)
    }
}

import BlockArt
import FoundationEssentials

/// The image on screen in pixels: fitted to the exact box, encoded once
/// and kept while it is the same; an animation's frames kept here, or in
/// kitty itself (`FrameCompositor.KittyFrames`).
extension ScreenView {
    /// A picture encoded for a box, and what it was made from.
    struct FittedPicture {
        var key: PictureKey
        var picture: PixelPicture
    }

    struct PictureKey: Hashable {
        var placement: PixelPlacement
        var drawn: Drawn
        var format: PictureFormat
        /// Made as a frame for kitty to keep (a still before its
        /// animation was known is not one).
        var kittyFrame = false
        /// A frame kitty holds: made without its pixels.
        var switchOnly = false
    }

    /// The picture in pixels and where it goes: scaled from the pixels in
    /// memory to the exact box, as large as fits, centred on whole cells.
    /// `bytes`: the image's sRGB bytes, if they are at hand.
    /// `held`: the frames kitty holds (`Terminal.kittyFrames`).
    func picture(
        _ image: DecodedImage,
        bytes: PixelImage? = nil,
        _ layout: Layout,
        cell: PixelSize,
        held: FrameCompositor.KittyFrames? = nil
    ) -> (PixelPicture, PixelPlacement)? {
        guard
            let (picture, placement) = fittedPicture(
                image,
                bytes: bytes,
                columns: layout.columns,
                rows: layout.imageRows,
                cell: cell,
                cache: drawCache.cachedPicture,
                kept: drawCache.keptPictures,
                held: held
            )
        else { return nil }
        drawCache.cachedPicture = picture
        // kitty keeps its frames itself.
        if drawCache.animating, picture.picture.frame == nil {
            drawCache.keptPictures.keep(picture, for: picture.key, size: picture.picture.bytes.byteCount)
        }
        return (picture.picture, placement)
    }

    /// `image` in pixels, as large as fits `columns` × `rows` cells and
    /// centred on whole cells in them: `cache` when it was made the same,
    /// or a frame `kept`, else encoded now (from `bytes`, `image`'s own,
    /// when they are the size it is shown at); nil when encoding fails.
    /// An animation's frame that kitty `held` already is made without its
    /// pixels: kitty is only told to show it.
    func fittedPicture(
        _ image: DecodedImage,
        bytes: PixelImage? = nil,
        columns: Int,
        rows: Int,
        cell: PixelSize,
        cache: FittedPicture?,
        kept: KeptFrames<PictureKey, FittedPicture>? = nil,
        held: FrameCompositor.KittyFrames? = nil
    ) -> (FittedPicture, PixelPlacement)? {
        let placement = PixelPlacement.fit(
            imageWidth: image.info.width,
            imageHeight: image.info.height,
            columns: columns,
            rows: rows,
            cellWidth: cell.width,
            cellHeight: cell.height,
            centred: true
        )
        let framesID = framesInKitty(placement) ? framesImageID(placement) : nil
        let switchOnly = framesID != nil && held?.id == framesID && held?.numbers[drawCache.shownFrame] != nil
        let key = PictureKey(
            placement: placement,
            drawn: drawn(image),
            format: pictures.format,
            kittyFrame: framesID != nil,
            switchOnly: switchOnly
        )
        if let cache, cache.key == key { return (cache, placement) }
        if let frame = kept?[key] { return (frame, placement) }
        if let framesID, switchOnly {
            return (FittedPicture(key: key, picture: kittyFrame(nil, id: framesID, placement)), placement)
        }
        let exact = bytes.flatMap { $0.width == placement.width && $0.height == placement.height ? $0 : nil }
        let pixels = exact ?? image.pixmap.resampled(width: placement.width, height: placement.height).pixelImage()
        let picture = framesID.map { kittyFrame(pixels, id: $0, placement) } ?? encode(pixels, placement)
        return picture.map { (FittedPicture(key: key, picture: $0), placement) }
    }

    /// `pixels`, the placement's size, encoded with a new id.
    func encode(_ pixels: PixelImage, _ placement: PixelPlacement) -> PixelPicture? {
        let id = newPictureID()
        let options = PictureOptions(
            imageID: id,
            registers: pictures.registers,
            moveCursor: false,
            medium: pictures.kittyMedium
        )
        guard
            let bytes = pixels.bytes(
                pictures.format,
                options: options,
                route: pictures.route,
                columns: placement.columns,
                rows: placement.rows
            )
        else {
            return nil
        }
        return PixelPicture(
            format: pictures.format,
            id: id,
            columns: placement.columns,
            rows: placement.rows,
            bytes: bytes,
            width: placement.width,
            height: placement.height
        )
    }

    /// A new id for a picture (kitty's images are told apart by it).
    func newPictureID() -> UInt32 {
        // Placeholder cells name the image by a colour: an id they can say.
        let id =
            pictures.route == .placeholders
            ? KittyPlaceholders.imageID(drawCache.idSeed &+ drawCache.nextPictureID) : drawCache.nextPictureID
        drawCache.nextPictureID = drawCache.nextPictureID % 0xFFFFFF + 1
        return id
    }

    /// Whether the animation drawn goes to kitty as frames it keeps: kitty
    /// itself, straight, not through tmux, and frames that fit what it keeps.
    func framesInKitty(_ placement: PixelPlacement) -> Bool {
        drawCache.animating && pictures.kittyAnimates && pictures.format == .kitty && pictures.route == .direct
            && FrameCompositor.KittyFrames.fit(
                count: drawCache.animationFrames,
                width: placement.width,
                height: placement.height
            )
    }

    /// The kitty image the animation's frames go to at `placement`: the
    /// one they went to, or a new one (a new size is a new set of frames).
    func framesImageID(_ placement: PixelPlacement) -> UInt32 {
        if let framesImage = drawCache.framesImage, framesImage.placement == placement { return framesImage.id }
        let id = newPictureID()
        drawCache.framesImage = (placement, id)
        return id
    }

    /// An animation's frame for kitty, image `id`: its pixels, unencoded
    /// (none for a frame kitty holds); the compositor sends it as the
    /// picture, adds it as a frame, or only switches to it.
    func kittyFrame(_ pixels: PixelImage?, id: UInt32, _ placement: PixelPlacement) -> PixelPicture {
        let upload = pixels.map {
            KittyGraphics.sharedUpload(
                $0,
                id: id,
                moveCursor: false,
                compress: false,
                staging: pictures.kittyMedium == .sharedMemory
            )
        }
        let bytes = PictureBytes(
            sequence: [],
            removal: PictureBytes.removal(.kitty, id: id, route: .direct),
            shared: upload
        )
        return PixelPicture(
            format: .kitty,
            id: id,
            columns: placement.columns,
            rows: placement.rows,
            bytes: bytes,
            width: placement.width,
            height: placement.height,
            frame: drawCache.shownFrame
        )
    }

    /// Another animation (or none) is on screen: its frames go to a new
    /// kitty image, never to the last one's (the same file may hold a new
    /// animation, at the same size).
    public func animationChanged() {
        drawCache.framesImage = nil
        drawCache.animationGeneration += 1
    }
}

import BlockArt
internal import CNCurses
import FoundationEssentials
import Glibc
import URLCacheSupport

/// A picture's bytes as the terminal is given them past ncurses: sent
/// whole the first time, by its later sequence after that, a kitty frame
/// added then shown, and a shared-memory object noted until kitty reads it.
extension CursesTerminal {
    /// A picture's bytes at its place: the sequence from its top-left cell,
    /// and placeholder rows each from its own row's left cell.
    func placedBytes(_ picture: Placed<PixelPicture>) -> [UInt8] {
        func move(_ row: Int) -> [UInt8] { Array("\u{1B}[\(row + 1);\(picture.column + 1)H".utf8) }
        let sequence: [UInt8]
        let id = picture.content.id
        if picture.content.frame != nil, let upload = picture.content.bytes.shared {
            // A frame kitty will hold: its own pixels, a new object each
            // time (its frames share the id, so `sent` cannot tell them apart).
            sequence = stage(upload.send())
        } else if let again = sent[id] {
            sequence = again ?? picture.content.bytes.laterSequence()
            sent[id] = sequence
        } else {
            sequence = stage(picture.content.bytes.firstSend())
            sent[id] = .some(nil)
        }
        var bytes = move(picture.row) + sequence
        for (i, text) in picture.content.bytes.rows.enumerated() { bytes += move(picture.row + i) + text }
        return bytes
    }

    /// A frame kitty holds, shown: added first if it is new. Neither moves
    /// the cursor.
    func switchBytes(_ change: FrameCompositor.FrameSwitch) -> [UInt8] {
        let picture = change.picture.content
        let added = change.add ? picture.bytes.shared.map { stage($0.asFrame(of: picture.id).send()) } ?? [] : []
        return added + KittyGraphics.show(frame: change.number, id: picture.id)
    }

    /// A send's bytes, its object (if it staged one) noted until kitty reads it.
    func stage(_ send: (bytes: [UInt8], staged: String?)) -> [UInt8] {
        staged.add(send.staged, at: .now)
        return send.bytes
    }
}

import BlockArt
internal import CNCurses

#if canImport(Glibc)
import Glibc
#endif

// Keys, clicks and resizes, as ncurses reads them, and the replies of a
// terminal that answered detection too late, which are not keys at all.
extension CursesTerminal {
    public func nextEvent() -> InputEvent? {
        var ch: wint_t = 0
        let result = wget_wch(cnc_stdscr(), &ch)
        if result == ERR { return nil }
        if result == KEY_CODE_YES {
            let code = Int32(ch)
            if code == cnc_key_resize() { return .resize }
            if code == cnc_key_left() { return .key(.left) }
            if code == cnc_key_right() { return .key(.right) }
            if code == cnc_key_enter() { return .key(.enter) }
            if code == cnc_key_up() { return .key(.up) }
            if code == cnc_key_down() { return .key(.down) }
            if code == cnc_key_page_up() { return .key(.pageUp) }
            if code == cnc_key_page_down() { return .key(.pageDown) }
            if code == cnc_key_shift_left() { return .key(.shiftLeft) }
            if code == cnc_key_shift_right() { return .key(.shiftRight) }
            if code == cnc_key_shift_up() { return .key(.shiftUp) }
            if code == cnc_key_shift_down() { return .key(.shiftDown) }
            if code == cnc_key_mouse() {
                var y: Int32 = 0
                var x: Int32 = 0
                let kind = cnc_mouse_event(&y, &x)
                let (row, column) = (Int(y), Int(x))
                switch kind {
                case 1: return .click(row: row, column: column)
                case 2: return .release(row: row, column: column)
                case 3: return .wheel(up: true, row: row, column: column)
                case 4: return .wheel(up: false, row: row, column: column)
                // Other buttons are nothing: not even a key that closes a box.
                default: return nil
                }
            }
            return .key(.other)
        }
        switch ch {
        case 27:
            // A terminal's reply that came after detection's deadline (DA1,
            // kitty's, XTGETTCAP, a size report) is not typed keys: it is
            // read to its end and dropped, so its "c" is never Clear Cache.
            return swallowReply() ? .key(.other) : .key(.escape)
        case 10, 13: return .key(.enter)
        case 3: return .key(.interrupt)
        case 26: return .key(.suspend)
        default:
            guard let scalar = Unicode.Scalar(UInt32(ch)) else { return .key(.other) }
            return .key(.character(Character(scalar)))
        }
    }

    /// After an ESC: if what follows at once is a CSI, APC, DCS or OSC,
    /// reads it to its final byte or string terminator and returns true.
    /// A lone Esc key has nothing after it and stays a key.
    func swallowReply() -> Bool {
        var ch: wint_t = 0
        guard wget_wch(cnc_stdscr(), &ch) == OK else { return false }
        let introducer = UInt32(ch)
        guard
            [
                UInt32(UInt8(ascii: "[")), UInt32(UInt8(ascii: "_")), UInt32(UInt8(ascii: "P")),
                UInt32(UInt8(ascii: "]")),
            ]
            .contains(introducer)
        else {
            unget_wch(wchar_t(bitPattern: introducer))
            return false
        }
        var previous: UInt32 = 0
        // At most a few kilobytes: a reply never runs longer, and a stream
        // of garbage must not hold the loop.
        for _ in 0..<4096 {
            guard wget_wch(cnc_stdscr(), &ch) != ERR else { return true }
            let c = UInt32(ch)
            if introducer == UInt32(UInt8(ascii: "[")) {
                if (0x40...0x7E).contains(c) { return true }
            } else if c == 0x07 || (previous == 0x1B && c == UInt32(UInt8(ascii: "\\"))) {
                return true
            }
            previous = c
        }
        return true
    }
}

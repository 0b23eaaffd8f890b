/// Text for a terminal whose locale is not UTF-8 (LANG=C): ASCII only, and
/// each character as many columns wide as before, so that a layout measured
/// in columns (the toolbar's click spans, the boxes) stays true.
extension String {
    /// Box drawing, arrows and the screen's own marks by their look; any
    /// other character past ASCII by "?" a column (a wide one "??"; a
    /// combining mark, no column, by nothing).
    public var asciiFallback: String {
        var out = ""
        for character in self {
            guard !character.isASCII, let scalar = character.unicodeScalars.first else {
                out.append(character)
                continue
            }
            if let look = Self.asciiLooks[scalar] {
                out.append(look)
            } else if (0x2800...0x28FF).contains(scalar.value) {
                // The spinner's braille dots: a turning bar.
                out.append(["|", "/", "-", "\\"][Int(scalar.value) % 4])
            } else {
                out += String(repeating: "?", count: character.columns)
            }
        }
        return out
    }

    private static let asciiLooks: [Unicode.Scalar: Character] = [
        "─": "-", "│": "|", "┌": "+", "┐": "+", "└": "+", "┘": "+", "├": "+", "┤": "+",
        "←": "<", "→": ">", "↑": "^", "↓": "v", "▲": "^", "▼": "v",
        "·": ".", "•": "*", "©": "c", "–": "-", "—": "-", "…": ".", "×": "x", "°": "o",
        "█": "#", "▌": "#", "▐": "#", "‘": "'", "’": "'", "“": "\"", "”": "\"", "\u{FFFD}": "?",
    ]
}

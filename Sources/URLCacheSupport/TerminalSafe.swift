/// Text from outside (servers, config files, file names, decoder messages)
/// made safe to print: the one rule for everything urlcache shows.
extension String {
    /// The string with every control character (C0, DEL, C1: ESC included)
    /// and every bidirectional override replaced by U+FFFD, so that no
    /// server, file or config can send escape sequences to the terminal or
    /// make a printed line lie about its order. Tabs become spaces.
    public var terminalSafe: String {
        var out = String.UnicodeScalarView()
        for scalar in unicodeScalars {
            switch scalar.value {
            case 0x09: out.append(" ")
            case 0x00...0x1F, 0x7F...0x9F: out.append("\u{FFFD}")
            case 0x202A...0x202E, 0x2066...0x2069: out.append("\u{FFFD}")
            default: out.append(scalar)
            }
        }
        return String(out)
    }
}

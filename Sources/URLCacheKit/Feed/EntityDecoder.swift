/// Character references in feed and page text: XML's five, numeric ones,
/// and the HTML names image-of-the-day feeds use. Nothing a document
/// declares itself is ever expanded; an unknown name stays as written.
enum EntityDecoder {
    static let named: [String: Unicode.Scalar] = [
        "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'",
        "nbsp": "\u{A0}", "ndash": "–", "mdash": "—", "hellip": "…", "lsquo": "‘", "rsquo": "’",
        "ldquo": "“", "rdquo": "”", "laquo": "«", "raquo": "»", "copy": "©", "reg": "®", "trade": "™",
        "deg": "°", "middot": "·", "bull": "•", "times": "×", "eacute": "é", "egrave": "è", "aacute": "á",
        "agrave": "à", "oacute": "ó", "iacute": "í", "uacute": "ú", "ntilde": "ñ", "ouml": "ö", "uuml": "ü",
        "auml": "ä", "szlig": "ß", "ccedil": "ç", "aring": "å", "oslash": "ø", "euro": "€", "pound": "£",
    ]

    static func decode(_ bytes: ArraySlice<UInt8>) -> String {
        guard bytes.contains(UInt8(ascii: "&")) else { return String(decoding: bytes, as: UTF8.self) }
        return decode(String(decoding: bytes, as: UTF8.self))
    }

    static func decode(_ text: String) -> String {
        guard text.contains("&") else { return text }
        var out = String.UnicodeScalarView()
        let scalars = Array(text.unicodeScalars)
        var i = 0
        while i < scalars.count {
            let c = scalars[i]
            guard c == "&" else {
                out.append(c)
                i += 1
                continue
            }
            // A reference is short: look for its ';' within 12 scalars.
            var j = i + 1
            while j < scalars.count, j - i <= 12, scalars[j] != ";", scalars[j] != "&" { j += 1 }
            guard j < scalars.count, scalars[j] == ";", j > i + 1 else {
                out.append(c)
                i += 1
                continue
            }
            let name = String(String.UnicodeScalarView(scalars[(i + 1)..<j]))
            if let scalar = reference(name) {
                out.append(scalar)
                i = j + 1
            } else {
                out.append(c)
                i += 1
            }
        }
        return String(out)
    }

    private static func reference(_ name: String) -> Unicode.Scalar? {
        if name.hasPrefix("#") {
            let digits = name.dropFirst()
            let value: UInt32?
            if digits.first == "x" || digits.first == "X" {
                value = UInt32(digits.dropFirst(), radix: 16)
            } else {
                value = UInt32(digits, radix: 10)
            }
            guard let value else { return nil }
            // NUL and what is no scalar (surrogates, past U+10FFFF) become U+FFFD.
            guard value != 0, let scalar = Unicode.Scalar(value) else { return "\u{FFFD}" }
            return scalar
        }
        return named[name]
    }
}

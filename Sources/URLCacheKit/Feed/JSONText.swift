/// JSON as feeds really send it, made into JSON that a strict parser reads:
/// JSONP's `callback( … );` around the document (Flickr's `format=json`),
/// and the `\'` escape that JavaScript allows and JSON does not.
enum JSONText {
    /// The document inside a JSONP call, with `\'` made `'`; other bytes
    /// as they are (a strict parser then judges them).
    static func unwrapped(_ bytes: [UInt8]) -> [UInt8] {
        unescapingQuotes(callArgument(bytes) ?? bytes[...])
    }

    /// The argument of `name( … )` or `name( … );`: a JavaScript name
    /// (letters, digits, `_`, `$`, `.`) first, the parentheses last.
    static func callArgument(_ bytes: [UInt8]) -> ArraySlice<UInt8>? {
        var start = bytes.startIndex
        while start < bytes.endIndex, isSpace(bytes[start]) { start += 1 }
        var i = start
        while i < bytes.endIndex, isNameByte(bytes[i]) { i += 1 }
        guard i > start else { return nil }
        while i < bytes.endIndex, isSpace(bytes[i]) { i += 1 }
        guard i < bytes.endIndex, bytes[i] == UInt8(ascii: "(") else { return nil }
        var end = bytes.endIndex
        while end > i + 1, isSpace(bytes[end - 1]) || bytes[end - 1] == UInt8(ascii: ";") { end -= 1 }
        guard end > i + 1, bytes[end - 1] == UInt8(ascii: ")") else { return nil }
        return bytes[(i + 1)..<(end - 1)]
    }

    /// `\'` becomes `'`; every other escape (`\\` included, so `\\'` is a
    /// backslash and a quote) is left for the parser.
    static func unescapingQuotes<C: Collection>(_ bytes: C) -> [UInt8] where C.Element == UInt8 {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var escaped = false
        for b in bytes {
            if escaped {
                if b != UInt8(ascii: "'") { out.append(UInt8(ascii: "\\")) }
                out.append(b)
                escaped = false
            } else if b == UInt8(ascii: "\\") {
                escaped = true
            } else {
                out.append(b)
            }
        }
        if escaped { out.append(UInt8(ascii: "\\")) }
        return out
    }

    /// Whether the bytes open a JSONP call (for sniffing).
    static func looksLikeCall(_ bytes: [UInt8]) -> Bool {
        var i = bytes.startIndex
        while i < bytes.endIndex, isSpace(bytes[i]) { i += 1 }
        let start = i
        while i < bytes.endIndex, isNameByte(bytes[i]) { i += 1 }
        guard i > start, !(bytes[start] >= UInt8(ascii: "0") && bytes[start] <= UInt8(ascii: "9")) else { return false }
        while i < bytes.endIndex, isSpace(bytes[i]) { i += 1 }
        guard i + 1 < bytes.endIndex, bytes[i] == UInt8(ascii: "(") else { return false }
        var j = i + 1
        while j < bytes.endIndex, isSpace(bytes[j]) { j += 1 }
        return j < bytes.endIndex && (bytes[j] == UInt8(ascii: "{") || bytes[j] == UInt8(ascii: "["))
    }

    private static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }
    private static func isNameByte(_ b: UInt8) -> Bool {
        (b | 0x20) >= UInt8(ascii: "a") && (b | 0x20) <= UInt8(ascii: "z")
            || (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9"))
            || b == UInt8(ascii: "_") || b == UInt8(ascii: "$") || b == UInt8(ascii: ".")
    }

    /// How deep arrays and objects nest, outside strings. A parser refuses
    /// past its own limit in words that say only "not valid JSON"; this
    /// lets the refusal say why.
    static func nesting(_ bytes: [UInt8]) -> Int {
        var depth = 0
        var deepest = 0
        var inString = false
        var escaped = false
        for byte in bytes {
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
                deepest = max(deepest, depth)
            case UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1
            default: break
            }
        }
        return deepest
    }

    /// Deeper than any feed nests (APOD's is 2, Bing's 3), and within what
    /// Foundation's parser takes.
    static let maxNesting = 500
}

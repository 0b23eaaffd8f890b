/// One piece of an XML or HTML document.
enum MarkupEvent: Equatable {
    /// An opening tag; names are lowercased, attribute values decoded.
    case start(name: String, attributes: [String: String])
    /// A closing tag, lowercased.
    case end(name: String)
    /// Text between tags (entities decoded) or a CDATA section (verbatim).
    case text(String)
}

/// A forgiving pull scanner for feeds and web pages: tags, attributes, text
/// and CDATA, nothing else. It never expands an entity a document declares
/// (no billion laughs) and never resolves an external one (no fetches): only
/// XML's five, numeric references and a few HTML names are decoded; any
/// other `&name;` stays as written. Comments, processing instructions and
/// the DOCTYPE with its internal subset are skipped. Malformed input ends
/// a tag or the document early; it never traps.
struct MarkupScanner {
    private let bytes: [UInt8]
    private var position = 0
    /// Inside `<script>` or `<style>`, whose text may hold `<`.
    private var rawTextEnd: [UInt8]?
    /// The end event a self-closing tag (`<enclosure … />`) implies.
    private var pendingEnd: String?

    init(_ bytes: [UInt8]) {
        // A UTF-8 byte order mark is not text.
        self.bytes = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3)) : bytes
    }

    /// The next event; nil at the end of the document.
    mutating func next() -> MarkupEvent? {
        if let name = pendingEnd {
            pendingEnd = nil
            return .end(name: name)
        }
        while position < bytes.count {
            if let end = rawTextEnd {
                rawTextEnd = nil
                let stop = find(end, from: position) ?? bytes.count
                let text = String(decoding: bytes[position..<stop], as: UTF8.self)
                position = stop
                if !text.isEmpty { return .text(text) }
                continue
            }
            guard bytes[position] == UInt8(ascii: "<") else { return .text(readText()) }
            if starts("<!--") {
                position = (find(Array("-->".utf8), from: position + 4).map { $0 + 3 }) ?? bytes.count
            } else if starts("<![CDATA[") {
                let start = position + 9
                let stop = find(Array("]]>".utf8), from: start) ?? bytes.count
                position = min(bytes.count, stop + 3)
                return .text(String(decoding: bytes[start..<stop], as: UTF8.self))
            } else if starts("<!") || starts("<?") {
                skipDeclaration()
            } else if starts("</") {
                position += 2
                let name = readName()
                position = (find([UInt8(ascii: ">")], from: position).map { $0 + 1 }) ?? bytes.count
                if !name.isEmpty { return .end(name: name) }
            } else if position + 1 < bytes.count, isNameStart(bytes[position + 1]) {
                position += 1
                return readTag()
            } else {
                // A lone "<" (HTML allows it in text).
                position += 1
                return .text("<")
            }
        }
        return nil
    }

    private func starts(_ prefix: String) -> Bool {
        let p = Array(prefix.utf8)
        guard position + p.count <= bytes.count else { return false }
        for i in 0..<p.count where MarkupScanner.lower(bytes[position + i]) != MarkupScanner.lower(p[i]) {
            return false
        }
        return true
    }

    private func find(_ needle: [UInt8], from start: Int) -> Int? {
        guard let first = needle.first, start < bytes.count else { return nil }
        var i = start
        while i + needle.count <= bytes.count {
            if MarkupScanner.lower(bytes[i]) == first {
                var match = true
                for j in 1..<needle.count where MarkupScanner.lower(bytes[i + j]) != needle[j] {
                    match = false
                    break
                }
                if match { return i }
            }
            i += 1
        }
        return nil
    }

    /// `<!DOCTYPE … [ internal subset ] >`, `<!…>` or `<?…?>`: skipped whole,
    /// quoted strings and the bracketed subset included.
    private mutating func skipDeclaration() {
        var depth = 0
        var quote: UInt8?
        position += 2
        while position < bytes.count {
            let b = bytes[position]
            position += 1
            if let q = quote {
                if b == q { quote = nil }
            } else if b == UInt8(ascii: "\"") || b == UInt8(ascii: "'") {
                quote = b
            } else if b == UInt8(ascii: "[") {
                depth += 1
            } else if b == UInt8(ascii: "]") {
                depth = max(0, depth - 1)
            } else if b == UInt8(ascii: ">"), depth == 0 {
                return
            }
        }
    }

    private mutating func readText() -> String {
        let start = position
        while position < bytes.count, bytes[position] != UInt8(ascii: "<") { position += 1 }
        return EntityDecoder.decode(bytes[start..<position])
    }

    private mutating func readName() -> String {
        let start = position
        while position < bytes.count, isNameByte(bytes[position]) { position += 1 }
        return String(decoding: bytes[start..<position].map(MarkupScanner.lower), as: UTF8.self)
    }

    private mutating func skipSpace() {
        while position < bytes.count, isSpace(bytes[position]) { position += 1 }
    }

    private mutating func readTag() -> MarkupEvent {
        let name = readName()
        var attributes: [String: String] = [:]
        var selfClosing = false
        while true {
            skipSpace()
            guard position < bytes.count else { break }
            let b = bytes[position]
            if b == UInt8(ascii: ">") {
                position += 1
                break
            }
            if b == UInt8(ascii: "/"), position + 1 < bytes.count, bytes[position + 1] == UInt8(ascii: ">") {
                position += 2
                selfClosing = true
                break
            }
            if b == UInt8(ascii: "/") || !isNameByte(b) {
                position += 1
                continue
            }
            let key = readName()
            skipSpace()
            var value = ""
            if position < bytes.count, bytes[position] == UInt8(ascii: "=") {
                position += 1
                skipSpace()
                value = readValue()
            }
            if attributes[key] == nil { attributes[key] = value }
        }
        if selfClosing {
            pendingEnd = name
        } else if name == "script" || name == "style" {
            rawTextEnd = Array("</\(name)".utf8)
        }
        return .start(name: name, attributes: attributes)
    }

    private mutating func readValue() -> String {
        guard position < bytes.count else { return "" }
        let q = bytes[position]
        let start: Int
        if q == UInt8(ascii: "\"") || q == UInt8(ascii: "'") {
            start = position + 1
            position = start
            while position < bytes.count, bytes[position] != q { position += 1 }
            defer { position = min(bytes.count, position + 1) }
            return EntityDecoder.decode(bytes[start..<position])
        }
        start = position
        while position < bytes.count, !isSpace(bytes[position]), bytes[position] != UInt8(ascii: ">") { position += 1 }
        return EntityDecoder.decode(bytes[start..<position])
    }

    private func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D || b == 0x0C }
    private func isNameStart(_ b: UInt8) -> Bool {
        (b | 0x20) >= UInt8(ascii: "a") && (b | 0x20) <= UInt8(ascii: "z") || b == UInt8(ascii: "_") || b >= 0x80
    }
    private func isNameByte(_ b: UInt8) -> Bool {
        isNameStart(b) || (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9")) || b == UInt8(ascii: ":")
            || b == UInt8(ascii: "-") || b == UInt8(ascii: ".")
    }
    static func lower(_ b: UInt8) -> UInt8 { b >= UInt8(ascii: "A") && b <= UInt8(ascii: "Z") ? b | 0x20 : b }
}

import FoundationEssentials
import URLCacheSupport

/// Where an XML property list goes wrong, for a person to fix it.
///
/// Foundation refuses a bad list with at most a line and a sentence in
/// English it does not promise to keep. This reads the XML again, only when
/// Foundation has refused it, and names the first fault with its line and
/// column: a tag left open or closed by the wrong name, an element a plist
/// does not have, an integer that does not fit (with the key it belongs to).
struct PlistDiagnosis: Equatable {
    /// 1-based line and column (in characters) where the fault starts.
    var line: Int
    var column: Int
    /// What is wrong there, e.g. "123456789012345678901 is out of range at refreshInterval".
    var reason: String

    static let elements: Set<String> = [
        "plist", "dict", "array", "key", "string", "integer", "real", "true", "false", "date", "data",
    ]

    /// The first fault in `bytes`, or nil when the XML holds none this finds
    /// (or it is not XML at all, e.g. a damaged binary plist).
    static func find(in bytes: [UInt8]) -> PlistDiagnosis? {
        guard !bytes.starts(with: Array("bplist".utf8)) else { return nil }
        var reader = Reader(bytes: bytes)
        return reader.run()
    }

    private struct Reader {
        static let cdataStart = Array("<![CDATA[".utf8), cdataEnd = Array("]]>".utf8)
        static let commentStart = Array("<!--".utf8), commentEnd = Array("--".utf8)
        let bytes: [UInt8]
        var index = 0
        var line = 1
        var column = 1
        /// Open elements, with where each opened.
        var open: [(name: String, line: Int, column: Int)] = []
        var text: [UInt8] = []
        var lastKey: String?

        init(bytes: [UInt8]) { self.bytes = bytes }

        mutating func run() -> PlistDiagnosis? {
            while index < bytes.count {
                if bytes[index] == UInt8(ascii: "&"), !entityAhead() {
                    // The mistake a URL with a query makes: `?a=1&b=2` in XML.
                    return PlistDiagnosis(line: line, column: column, reason: "a bare & (write &amp; for & in a URL)")
                }
                if bytes[index] == UInt8(ascii: "<") && bytes[index...].starts(with: Reader.cdataStart) {
                    skipCDATA()
                    continue
                }
                guard bytes[index] == UInt8(ascii: "<") else {
                    text.append(bytes[index])
                    advance()
                    continue
                }
                let (tagLine, tagColumn) = (line, column)
                let tag = readTag()
                if let fault = take(tag, line: tagLine, column: tagColumn) { return fault }
            }
            if let unclosed = open.last {
                return PlistDiagnosis(
                    line: unclosed.line,
                    column: unclosed.column,
                    reason: "<\(unclosed.name)> is never closed"
                )
            }
            return nil
        }

        /// Whether the `&` at `index` starts one of XML's entities or a
        /// character reference.
        func entityAhead() -> Bool {
            let rest = bytes[(index + 1)...].prefix(12)
            guard let end = rest.firstIndex(of: UInt8(ascii: ";")) else { return false }
            let name = String(decoding: rest[..<end], as: UTF8.self)
            if ["amp", "lt", "gt", "quot", "apos"].contains(name) { return true }
            if name.hasPrefix("#x") { return !name.dropFirst(2).isEmpty && name.dropFirst(2).allSatisfy(\.isHexDigit) }
            if name.hasPrefix("#") { return !name.dropFirst().isEmpty && name.dropFirst().allSatisfy(\.isNumber) }
            return false
        }

        /// A CDATA section is text, `>` and `&` included.
        mutating func skipCDATA() {
            for _ in 0..<9 { advance() }
            while index < bytes.count, !bytes[index...].starts(with: Reader.cdataEnd) {
                text.append(bytes[index])
                advance()
            }
            for _ in 0..<3 where index < bytes.count { advance() }
        }

        /// Reads from `<` to its `>` (a comment to its `-->`), returning the inside.
        mutating func readTag() -> String {
            let isComment = bytes[index...].starts(with: Reader.commentStart)
            var inside: [UInt8] = []
            while index < bytes.count {
                let byte = bytes[index]
                advance()
                if byte == UInt8(ascii: ">"), !isComment || inside.suffix(2) == Reader.commentEnd { break }
                inside.append(byte)
            }
            return String(decoding: inside.dropFirst(), as: UTF8.self)
        }

        mutating func take(_ tag: String, line: Int, column: Int) -> PlistDiagnosis? {
            if tag.hasPrefix("?") || tag.hasPrefix("!") { return nil }
            let closing = tag.hasPrefix("/")
            let selfClosing = tag.hasSuffix("/")
            let name = String(tag.drop(while: { $0 == "/" }).prefix(while: { !$0.isWhitespace && $0 != "/" }))
            func fault(_ reason: String) -> PlistDiagnosis {
                PlistDiagnosis(line: line, column: column, reason: reason)
            }
            guard PlistDiagnosis.elements.contains(name) else {
                let near = Suggestion.nearest(to: name, among: PlistDiagnosis.elements.sorted())
                return fault(
                    "<\(closing ? "/" : "")\(name)> is not a plist element"
                        + (near.map { " (did you mean <\(closing ? "/" : "")\($0)>?)" } ?? "")
                )
            }
            if closing {
                guard let top = open.popLast() else { return fault("</\(name)> closes nothing") }
                guard top.name == name else {
                    return fault("</\(name)> closes <\(top.name)>, opened at line \(top.line), column \(top.column)")
                }
                // A bad value is pointed at where its element opens.
                return finish(name) { PlistDiagnosis(line: top.line, column: top.column, reason: $0) }
            }
            text = []
            if !selfClosing { open.append((name, line, column)) }
            return nil
        }

        /// Checks the text of an element just closed.
        mutating func finish(_ name: String, fault: (String) -> PlistDiagnosis) -> PlistDiagnosis? {
            let value = String(decoding: text, as: UTF8.self).trimming(.whitespacesAndNewlines)
            let place = lastKey.map { " at \($0)" } ?? ""
            switch name {
            case "key": lastKey = value
            // Foundation also takes hexadecimal and the whole unsigned range.
            case "integer"
            where Int64(value) == nil && UInt64(value) == nil
                && !(value.lowercased().hasPrefix("0x") && UInt64(value.dropFirst(2), radix: 16) != nil):
                let digits = value.drop(while: { $0 == "-" || $0 == "+" })
                let isNumber = !digits.isEmpty && digits.allSatisfy(\.isASCII) && digits.allSatisfy(\.isNumber)
                return fault(isNumber ? "\(value) is out of range\(place)" : "\"\(value)\" is not an integer\(place)")
            case "real" where Double(value) == nil:
                return fault("\"\(value)\" is not a number\(place)")
            default: break
            }
            return nil
        }

        mutating func advance() {
            let byte = bytes[index]
            index += 1
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
    }
}

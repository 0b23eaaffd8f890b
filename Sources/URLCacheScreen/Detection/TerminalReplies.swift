import BlockArt

/// What a terminal answered to the query bursts (`TerminalQuery`),
/// parsed from the raw bytes: a pure function, so that lies, halves and
/// noise are unit-tested.
public struct TerminalReplies: Sendable {
    /// kitty's graphics query answered OK (`ESC _G i=…;OK ESC \`).
    public var kittyGraphics = false
    /// kitty read the picture we staged in shared memory (its `t=s` query).
    public var kittySharedMemory = false
    /// DA1's attributes (`ESC [ ? 62 ; 4 ; … c`); nil when DA1 was not answered.
    public var deviceAttributes: [Int]?
    /// XTSMGRAPHICS: the sixel colour registers (`ESC [ ? 1 ; 0 ; N S`).
    public var sixelRegisters: Int?
    /// XTGETTCAP answers, by capability name (`RGB`, `colors`), decoded from hex.
    public var capabilities: [String: String] = [:]
    /// `CSI 16 t`: a cell's size in pixels.
    public var cellPixels: PixelSize?
    /// `CSI 14 t`: the text area's size in pixels.
    public var areaPixels: PixelSize?
    /// XTVERSION: the terminal's name and version (`ESC P > | XTerm(379) ESC \`).
    public var version: String?
    /// DA2's numbers (`ESC [ > 41 ; 379 ; 0 c`): an id, a version, a cartridge.
    public var secondaryAttributes: [Int]?
    /// DECRQSS of SGR: the rendition the terminal says it holds (`0;38:2::1:2:3`).
    public var rendition: String?

    public init() {}

    /// Whether the burst's last query, DA1, was answered: every reply that
    /// is coming has come, since terminals answer in order.
    public var complete: Bool { deviceAttributes != nil }

    /// DA1 lists 4: the terminal draws sixel.
    public var sixel: Bool { deviceAttributes?.contains(4) ?? false }

    /// Parses `bytes`. What is not a well-formed reply is skipped (a
    /// keypress typed meanwhile, a reply cut short): a sequence broken by
    /// another ESC is dropped and parsing goes on from that ESC. A reply with
    /// absurd numbers is ignored as a lie.
    public static func parse(_ bytes: [UInt8]) -> TerminalReplies {
        var replies = TerminalReplies()
        var i = 0
        while i < bytes.count {
            guard bytes[i] == 0x1B, i + 1 < bytes.count else {
                i += 1
                continue
            }
            switch bytes[i + 1] {
            case UInt8(ascii: "["):
                guard
                    let end = (i + 2..<bytes.count).first(where: {
                        (0x40...0x7E).contains(bytes[$0]) || bytes[$0] == 0x1B
                    })
                else {
                    return replies  // cut short: the rest has not come yet
                }
                if bytes[end] != 0x1B { replies.takeCSI(Array(bytes[(i + 2)..<end]), final: bytes[end]) }
                i = bytes[end] == 0x1B ? end : end + 1
            case UInt8(ascii: "_"), UInt8(ascii: "P"):
                switch stringEnd(bytes, from: i + 2) {
                case .incomplete:
                    return replies
                case let .broken(at):
                    i = at
                case let .terminated(end):
                    if bytes[i + 1] == UInt8(ascii: "_") {
                        replies.takeAPC(Array(bytes[(i + 2)..<end]))
                    } else {
                        replies.takeDCS(Array(bytes[(i + 2)..<end]))
                    }
                    i = end + 2
                }
            default:
                i += 1
            }
        }
        return replies
    }

    private enum StringEnd {
        /// `ESC \` starts here.
        case terminated(Int)
        /// An ESC that starts something else is here: the string was not a reply.
        case broken(Int)
        /// The bytes end first.
        case incomplete
    }

    private static func stringEnd(_ bytes: [UInt8], from start: Int) -> StringEnd {
        var j = start
        while j + 1 < bytes.count {
            if bytes[j] == 0x1B { return bytes[j + 1] == UInt8(ascii: "\\") ? .terminated(j) : .broken(j) }
            j += 1
        }
        return .incomplete
    }

    private static func numbers(_ text: String) -> [Int]? {
        // kitty ends its DA1 with an empty parameter ("62;c").
        let parts = text.split(separator: ";")
        let values = parts.compactMap { Int($0) }
        return values.count == parts.count && values.allSatisfy({ $0 >= 0 && $0 < 1 << 20 }) ? values : nil
    }

    private mutating func takeCSI(_ body: [UInt8], final: UInt8) {
        let text = String(decoding: body, as: UTF8.self)
        switch final {
        case UInt8(ascii: "c") where text.hasPrefix("?"):
            if let values = TerminalReplies.numbers(String(text.dropFirst())) { deviceAttributes = values }
        case UInt8(ascii: "c") where text.hasPrefix(">"):
            if let values = TerminalReplies.numbers(String(text.dropFirst())) { secondaryAttributes = values }
        case UInt8(ascii: "S") where text.hasPrefix("?"):
            // Item 1 (colour registers), status 0 (success), the count.
            if let v = TerminalReplies.numbers(String(text.dropFirst())), v.count >= 3, v[0] == 1, v[1] == 0,
                (2...65536).contains(v[2])
            {
                sixelRegisters = v[2]
            }
        case UInt8(ascii: "t"):
            guard let v = TerminalReplies.numbers(text), v.count == 3, v[1] > 0, v[2] > 0 else { return }
            if v[0] == 6, v[1] <= 512, v[2] <= 512 { cellPixels = PixelSize(width: v[2], height: v[1]) }
            if v[0] == 4, v[1] <= 65536, v[2] <= 65536 { areaPixels = PixelSize(width: v[2], height: v[1]) }
        default:
            break
        }
    }

    /// kitty: `Gi=31;OK`, and `Gi=32;OK` for shared memory.
    private mutating func takeAPC(_ body: [UInt8]) {
        let text = String(decoding: body, as: UTF8.self)
        guard text.hasPrefix("G"), let semicolon = text.firstIndex(of: ";") else { return }
        guard text[text.index(after: semicolon)...] == "OK" else { return }
        let keys = text[text.index(after: text.startIndex)..<semicolon].split(separator: ",")
        if keys.contains("i=\(TerminalQuery.kittyProbeID)") { kittyGraphics = true }
        if keys.contains("i=\(TerminalQuery.kittyMediumProbeID)") { kittySharedMemory = true }
    }

    /// XTVERSION (`>|name`), DECRQSS (`1$r…m`, valid only) and XTGETTCAP
    /// (`1+r 524742=… ; …`: hex names and values).
    private mutating func takeDCS(_ body: [UInt8]) {
        let text = String(decoding: body, as: UTF8.self)
        if text.hasPrefix(">|") {
            let name = text.dropFirst(2)
            if !name.isEmpty, name.count <= 80, name.unicodeScalars.allSatisfy({ (0x20...0x7E).contains($0.value) }) {
                version = String(name)
            }
            return
        }
        if text.hasPrefix("1$r"), text.hasSuffix("m") {
            let sgr = text.dropFirst(3).dropLast()
            if sgr.count <= 80, sgr.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ";" || $0 == ":") }) {
                rendition = String(sgr)
            }
            return
        }
        guard text.hasPrefix("1+r") else { return }
        for item in text.dropFirst(3).split(separator: ";") {
            let pair = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = TerminalReplies.unhex(pair[0]) else { continue }
            capabilities[name] = pair.count > 1 ? TerminalReplies.unhex(pair[1]) ?? "" : ""
        }
    }

    static func unhex(_ hex: Substring) -> String? {
        guard hex.count % 2 == 0, hex.count <= 256 else { return nil }
        var bytes: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            guard let byte = UInt8(hex[index..<next], radix: 16), (0x20...0x7E).contains(byte) else { return nil }
            bytes.append(byte)
            index = next
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

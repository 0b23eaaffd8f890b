import FoundationEssentials

/// A plist or a JSON document read into Swift's own values, and a plist
/// written back from them.
///
/// `String`, `Int`, `Double`, `Bool`, `Date`, `Data`, `[Any]`,
/// `[String: Any]`, and `AnyTree.null` for JSON's null: what
/// `PropertyListSerialization` and `JSONSerialization` gave, without their
/// `NSNumber` and `NSNull`. Those live in swift-corelibs-foundation, which
/// would bring CoreFoundation and ICU into the program (see `DetachedThread`),
/// so the trees are read through FoundationEssentials' decoders: XML, binary
/// and OpenStep plists, and JSON with fragments, as before.
enum AnyTree {
    /// XML or binary; an OpenStep list is read but written as XML.
    typealias PlistFormat = PropertyListDecoder.PropertyListFormat

    /// JSON's null.
    struct Null: Equatable {}
    static let null = Null()

    /// The root of the plist in `data`, and the format it was written in.
    static func plist(_ data: Data) throws -> (root: Any, format: PlistFormat) {
        var format = PlistFormat.xml
        let node = try PropertyListDecoder().decode(Node.self, from: data, format: &format)
        return (node.value, format)
    }

    /// `root` written as a plist, or nil when it holds something a plist cannot.
    static func plistData(_ root: Any, format: PlistFormat) -> Data? {
        guard let node = Node(root) else { return nil }
        let encoder = PropertyListEncoder()
        encoder.outputFormat = format == .binary ? .binary : .xml
        return try? encoder.encode(node)
    }

    /// The root of the JSON document in `data`; a bare string or number is one.
    static func json(_ data: Data) throws -> Any {
        let decoder = JSONDecoder()
        decoder.userInfo[Node.readsNull] = true
        return try decoder.decode(Node.self, from: data).value
    }
}

/// One value of a plist, as the decoder and encoder see it.
private indirect enum Node: Codable {
    case string(String)
    case integer(Int)
    case real(Double)
    case bool(Bool)
    case date(Date)
    case data(Data)
    case array([Node])
    case dict([String: Node])
    case null

    /// Set by a JSON read: a plist decoder takes the string "$null" for nil.
    static let readsNull = CodingUserInfoKey(rawValue: "urlcache.readsNull")!

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    var value: Any {
        switch self {
        case .string(let v): v
        case .integer(let v): v
        case .real(let v): v
        case .bool(let v): v
        case .date(let v): v
        case .data(let v): v
        case .array(let items): items.map(\.value)
        case .dict(let items): items.mapValues(\.value)
        case .null: AnyTree.null
        }
    }

    init?(_ value: Any) {
        switch value {
        case let v as String: self = .string(v)
        case let v as Bool: self = .bool(v)
        case let v as Int: self = .integer(v)
        case let v as Double: self = .real(v)
        case let v as Date: self = .date(v)
        case let v as Data: self = .data(v)
        case let items as [Any]:
            var nodes: [Node] = []
            for item in items {
                guard let node = Node(item) else { return nil }
                nodes.append(node)
            }
            self = .array(nodes)
        case let items as [String: Any]:
            var nodes: [String: Node] = [:]
            for (key, item) in items {
                guard let node = Node(item) else { return nil }
                nodes[key] = node
            }
            self = .dict(nodes)
        default: return nil
        }
    }

    /// A dict, an array, or the first scalar type the decoder accepts.
    /// `<real>3.0</real>` reads as the integer 3, which a list never tells apart.
    init(from decoder: Decoder) throws {
        if let keyed = try? decoder.container(keyedBy: Key.self) {
            var items: [String: Node] = [:]
            for key in keyed.allKeys { items[key.stringValue] = try keyed.decode(Node.self, forKey: key) }
            self = .dict(items)
        } else if var unkeyed = try? decoder.unkeyedContainer() {
            var items: [Node] = []
            while !unkeyed.isAtEnd { items.append(try unkeyed.decode(Node.self)) }
            self = .array(items)
        } else {
            let single = try decoder.singleValueContainer()
            self = decoder.userInfo[Node.readsNull] != nil && single.decodeNil() ? .null : try Node.scalar(single)
        }
    }

    private static func scalar(_ c: SingleValueDecodingContainer) throws -> Node {
        if let v = try? c.decode(Bool.self) { return .bool(v) }
        if let v = try? c.decode(Int.self) { return .integer(v) }
        if let v = try? c.decode(Double.self) { return .real(v) }
        if let v = try? c.decode(String.self) { return .string(v) }
        if let v = try? c.decode(Date.self) { return .date(v) }
        return .data(try c.decode(Data.self))
    }

    func encode(to encoder: Encoder) throws {
        switch self {
        case .dict(let items):
            var keyed = encoder.container(keyedBy: Key.self)
            for (key, item) in items { try keyed.encode(item, forKey: Key(stringValue: key)) }
        case .array(let items):
            var unkeyed = encoder.unkeyedContainer()
            for item in items { try unkeyed.encode(item) }
        case .string(let v): try Node.encode(v, to: encoder)
        case .integer(let v): try Node.encode(v, to: encoder)
        case .real(let v): try Node.encode(v, to: encoder)
        case .bool(let v): try Node.encode(v, to: encoder)
        case .date(let v): try Node.encode(v, to: encoder)
        case .data(let v): try Node.encode(v, to: encoder)
        case .null:
            var single = encoder.singleValueContainer()
            try single.encodeNil()
        }
    }

    private static func encode(_ value: some Encodable, to encoder: Encoder) throws {
        var single = encoder.singleValueContainer()
        try single.encode(value)
    }
}

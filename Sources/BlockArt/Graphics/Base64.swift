/// Base64 (RFC 4648, with padding), as every terminal graphics protocol
/// carries its data. Written out here because it sits on the hot path of
/// every picture and needs no Foundation.
enum Base64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// The encoding of `bytes`, appended to `out`.
    static func encode<C: Collection>(_ bytes: C, into out: inout [UInt8]) where C.Element == UInt8, C.Index == Int {
        out.reserveCapacity(out.count + (bytes.count + 2) / 3 * 4)
        var i = bytes.startIndex
        let end = bytes.endIndex
        while end - i >= 3 {
            let n = UInt32(bytes[i]) << 16 | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2])
            out.append(alphabet[Int(n >> 18 & 63)])
            out.append(alphabet[Int(n >> 12 & 63)])
            out.append(alphabet[Int(n >> 6 & 63)])
            out.append(alphabet[Int(n & 63)])
            i += 3
        }
        let left = end - i
        if left > 0 {
            let n = UInt32(bytes[i]) << 16 | (left == 2 ? UInt32(bytes[i + 1]) << 8 : 0)
            out.append(alphabet[Int(n >> 18 & 63)])
            out.append(alphabet[Int(n >> 12 & 63)])
            out.append(left == 2 ? alphabet[Int(n >> 6 & 63)] : UInt8(ascii: "="))
            out.append(UInt8(ascii: "="))
        }
    }

    static func encode(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        encode(bytes, into: &out)
        return out
    }
}

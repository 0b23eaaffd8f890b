internal import CCrypto

/// SHA-256, for cache file names and the tests' pixel digests, from
/// OpenSSL's libcrypto (maintained, and already on every machine that has
/// libcurl; swift-crypto would add a minute to every clean build).
public enum SHA256 {
    /// The digest of `bytes` as 64 lowercase hex digits.
    public static func hex<S: Sequence>(_ bytes: S) -> String where S.Element == UInt8 {
        let message = Array(bytes)
        var digest = [UInt8](repeating: 0, count: 32)
        let status = message.withUnsafeBytes { input in
            digest.withUnsafeMutableBufferPointer { ccrypto_sha256(input.baseAddress, input.count, $0.baseAddress) }
        }
        // libcrypto fails here only without memory for its context.
        precondition(status == 0, "libcrypto could not compute SHA-256")
        return digest.map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined()
    }
}

/// The program's version, sent in the User-Agent and shown by `--version`.
public enum URLCacheVersion {
    public static let string = "0.2.0"
    public static var userAgent: String { "urlcache/\(string)" }
}

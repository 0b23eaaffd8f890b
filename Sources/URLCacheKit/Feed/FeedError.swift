import URLCacheSupport

/// Why a feed named no image we can fetch. The cached image stays as it was.
public enum FeedError: Error, Equatable, CustomStringConvertible {
    /// Neither the first bytes nor the Content-Type say JSON, XML or HTML.
    case unknownKind(contentType: String?)
    /// The bytes are not the JSON they look like.
    case badJSON
    /// JSON whose arrays and objects nest deeper than any feed's (a hostile
    /// or broken document): refused before it is parsed.
    case nestedTooDeep(depth: Int, limit: Int)
    /// The JSON has nothing at the key path.
    case missingKey(path: String)
    /// The key path leads to something other than a string.
    case notAString(path: String, found: String)
    /// An RSS or Atom feed with no item or entry.
    case noItem(kind: String)
    /// The newest item names no image (no enclosure, media:content or img).
    case itemWithoutImage
    /// An HTML page without og:image, link rel=image_src or a picture in
    /// its content.
    case pageWithoutImage
    /// The image URL cannot be used (not a URL, file://, no host).
    case badImageURL(text: String, reason: String)
    /// The image URL is the feed's own.
    case pointsAtItself
    /// The feed grew past the size limit for feeds.
    case tooLarge(limit: Int64)

    public var description: String {
        switch self {
        case let .unknownKind(type):
            return "not a feed: neither JSON, RSS/Atom nor HTML\(type.map { " (\($0.terminalSafe))" } ?? "")"
        case .badJSON: return "JSON feed cannot be read: not valid JSON"
        case let .nestedTooDeep(depth, limit):
            return "JSON feed nested \(depth) levels deep, past the limit of \(limit)"
        case let .missingKey(path): return "JSON feed has no key \(path.terminalSafe)"
        case let .notAString(path, found):
            return "JSON feed's key \(path.terminalSafe) holds \(found), not an image URL"
        case let .noItem(kind): return "\(kind) has no item"
        case .itemWithoutImage: return "the feed's newest item has no image (no enclosure, media:content or img)"
        case .pageWithoutImage: return "HTML page has no og:image, link rel=image_src or picture in its content"
        case let .badImageURL(text, reason):
            return "feed's image URL \"\(text.terminalSafe)\" refused: \(reason.terminalSafe)"
        case .pointsAtItself: return "the feed names itself as the image"
        case let .tooLarge(limit): return "feed larger than the \(ByteCount.format(limit)) limit for feeds"
        }
    }
}

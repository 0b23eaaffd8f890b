import Foundation

/// What a feed announces today: the image (or why there is none), and the
/// words that go with it.
public struct FeedItem: Sendable, Equatable {
    /// Where today's picture is.
    public enum Media: Sendable, Equatable {
        /// An image URL, resolved against the feed's and checked (http/https).
        case image(URL)
        /// Today's item is not a picture (APOD's video days): its kind and link.
        case other(kind: String, link: String?)
    }

    public var media: Media
    /// The item's title, else the feed's.
    public var title: String?
    /// Who made it (`copyright`, `dc:creator`, `media:credit`, an author).
    public var credit: String?
    /// The item's text, HTML stripped and entities decoded.
    public var description: String?
    /// The item's own page, when it names one.
    public var link: String?

    public init(media: Media, title: String? = nil, credit: String? = nil, description: String? = nil, link: String? = nil) {
        self.media = media
        self.title = title
        self.credit = credit
        self.description = description
        self.link = link
    }
}

/// What kind of document a feed is.
public enum FeedKind: String, Sendable, Equatable {
    case json = "JSON feed"
    case xml = "RSS/Atom feed"
    case html = "HTML page"

    /// Decided by the first bytes when they tell, else by the Content-Type;
    /// nil when neither names a kind we read.
    public static func sniff(_ bytes: [UInt8], contentType: String?) -> FeedKind? {
        let head = String(decoding: bytes.prefix(1024), as: UTF8.self)
            .trimmingCharacters(in: CharacterSet.whitespacesAndNewlines.union(CharacterSet(charactersIn: "\u{FEFF}"))).lowercased()
        if head.hasPrefix("{") || head.hasPrefix("[") { return .json }
        if head.hasPrefix("<") {
            if head.contains("<rss") || head.contains("<feed") || head.contains("<rdf:rdf") { return .xml }
            if head.hasPrefix("<!doctype html") || head.contains("<html") || head.contains("<head") || head.contains("<meta") { return .html }
        }
        let type = (contentType ?? "").lowercased()
        if type.contains("json") { return .json }
        if type.contains("html") { return .html }
        if type.contains("xml") || type.contains("rss") || type.contains("atom") { return .xml }
        return head.hasPrefix("<") ? .xml : nil
    }
}

/// Reads a feed's bytes into today's item: the one entry point for the
/// three readers, and the one the fuzz target drives.
public enum FeedReader {
    /// Reads `bytes`, which came from `feedURL` with `contentType`. `select`
    /// is the JSON key path (nil: the default ones).
    public static func read(_ bytes: [UInt8], contentType: String?, feedURL: URL, select: String?) throws(FeedError) -> FeedItem {
        guard let kind = FeedKind.sniff(bytes, contentType: contentType) else { throw .unknownKind(contentType: contentType) }
        return try read(bytes, as: kind, feedURL: feedURL, select: select)
    }

    /// Reads `bytes` as a feed of `kind` (the fuzz target drives each reader
    /// with every input this way).
    public static func read(_ bytes: [UInt8], as kind: FeedKind, feedURL: URL, select: String?) throws(FeedError) -> FeedItem {
        var item: FeedItem
        switch kind {
        case .json: item = try JSONFeedReader.read(bytes, select: select, feedURL: feedURL)
        case .xml: item = try XMLFeedReader.read(bytes, feedURL: feedURL)
        case .html: item = try HTMLPageReader.read(bytes, feedURL: feedURL)
        }
        if case let .image(url) = item.media, url.absoluteString == feedURL.absoluteString { throw .pointsAtItself }
        item.title = item.title.flatMap(FeedText.clean)
        item.credit = item.credit.flatMap(FeedText.clean)
        return item
    }

    /// `text` from a feed as an image URL: resolved against the feed's URL,
    /// http or https only.
    static func imageURL(_ text: String, relativeTo base: URL) throws(FeedError) -> URL {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        let url = trimmed.isEmpty ? nil : URL(string: trimmed, relativeTo: base)?.absoluteURL
        switch ImageURL.check(url) {
        case let .success(url): return url
        case .failure(.notAURL): throw .badImageURL(text: text, reason: "not a URL")
        case let .failure(.scheme(scheme)): throw .badImageURL(text: text, reason: "scheme \(scheme) is not allowed (http or https only)")
        case .failure(.noHost): throw .badImageURL(text: text, reason: "no host")
        }
    }
}

import FoundationEssentials
import URLCacheSupport

/// Reads a feed's bytes into today's item: the one entry point for the
/// three readers, and the one the fuzz target drives.
public enum FeedReader {
    /// Reads `bytes`, which came from `feedURL` with `contentType`. `select`
    /// is the JSON key path (nil: the default ones).
    public static func read(
        _ bytes: [UInt8],
        contentType: String?,
        feedURL: URL,
        select: String?
    ) throws(FeedError) -> FeedItem {
        guard let kind = FeedKind.sniff(bytes, contentType: contentType) else {
            throw .unknownKind(contentType: contentType)
        }
        return try read(bytes, as: kind, feedURL: feedURL, select: select)
    }

    /// Reads `bytes` as a feed of `kind` (the fuzz target drives each reader
    /// with every input this way).
    public static func read(
        _ bytes: [UInt8],
        as kind: FeedKind,
        feedURL: URL,
        select: String?
    ) throws(FeedError) -> FeedItem {
        var item: FeedItem
        switch kind {
        case .json: item = try JSONFeedReader.read(bytes, select: select, feedURL: feedURL)
        case .xml: item = try XMLFeedReader.read(bytes, feedURL: feedURL)
        case .html: item = try HTMLPageReader.read(bytes, feedURL: feedURL)
        }
        if let url = item.media.picture, url.absoluteString == feedURL.absoluteString { throw .pointsAtItself }
        item.sizes = SizeOffer.offered(item.sizes, picture: item.media)
        item.title = item.title.flatMap(FeedText.clean)
        item.credit = item.credit.flatMap(FeedText.clean)
        return item
    }

    /// `candidates` as offers, their URLs resolved against `base`; one that
    /// is no image URL is left out.
    static func offers(_ candidates: [ImageCandidate], relativeTo base: URL) -> [SizeOffer] {
        candidates.compactMap { candidate in
            (try? imageURL(candidate.url, relativeTo: base)).map {
                SizeOffer(url: $0, width: candidate.width, height: candidate.height)
            }
        }
    }

    /// `text` from a feed as an image URL: resolved against the feed's URL,
    /// http or https only.
    static func imageURL(_ text: String, relativeTo base: URL) throws(FeedError) -> URL {
        let trimmed = text.trimming(.whitespacesAndNewlines)
        let url = trimmed.isEmpty ? nil : URL(string: trimmed, relativeTo: base)?.absoluteURL
        switch ImageURL.check(url) {
        case let .success(url): return url
        case .failure(.notAURL): throw .badImageURL(text: text, reason: "not a URL")
        case let .failure(.scheme(scheme)):
            throw .badImageURL(text: text, reason: "scheme \(scheme) is not allowed (http or https only)")
        case .failure(.noHost): throw .badImageURL(text: text, reason: "no host")
        case let .failure(.port(port)): throw .badImageURL(text: text, reason: "port \(port) is out of range")
        }
    }
}

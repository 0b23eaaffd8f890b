import FoundationEssentials
import URLCacheSupport

/// What a feed announces today: the image (or why there is none), and the
/// words that go with it.
public struct FeedItem: Sendable, Equatable {
    /// Where today's picture is.
    public enum Media: Sendable, Equatable {
        /// An image URL, resolved against the feed's and checked (http/https).
        case image(URL)
        /// Today's item is not a picture (APOD's video days): its kind and link.
        case other(kind: String, link: String?)
        /// Today's item is not a picture, but the feed offers a still of it
        /// (APOD's `thumbnail_url` on a video day): shown in its place.
        case still(URL, kind: String, link: String?)

        /// The picture to fetch, if there is one.
        public var picture: URL? {
            switch self {
            case let .image(url), let .still(url, _, _): return url
            case .other: return nil
            }
        }

        /// What a day that is no picture is, in words: "a video: LINK",
        /// "not an image (other)".
        public static func phrase(kind: String, link: String?) -> String {
            let what = kind.lowercased() == "video" ? "a video" : "not an image (\(kind))"
            return what + (link.map { ": \($0)" } ?? "")
        }
    }

    public var media: Media
    /// Every size the document offers of the picture, smallest first,
    /// when it offers more than one (else empty). `media`'s picture is the
    /// largest the document itself names; the sizes may go beyond it where
    /// the address's shape says its server makes them (`SizeVariants`).
    public var sizes: [SizeOffer]
    /// The item's title, else the feed's.
    public var title: String?
    /// Who made it (`copyright`, `dc:creator`, `media:credit`, an author).
    public var credit: String?
    /// The item's text, HTML stripped and entities decoded.
    public var description: String?
    /// The item's own page, when it names one.
    public var link: String?

    public init(
        media: Media,
        sizes: [SizeOffer] = [],
        title: String? = nil,
        credit: String? = nil,
        description: String? = nil,
        link: String? = nil
    ) {
        self.media = media
        self.sizes = sizes
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

    /// The root elements of the XML feeds we read (Bing's `images` too).
    static let feedRoots: Set<String> = ["rss", "feed", "rdf:rdf", "images"]
    /// Elements that open an HTML page (a page may start at its head).
    static let pageRoots: Set<String> = ["html", "head", "body", "meta", "title", "link"]

    /// Decided by the first bytes when they tell (JSON, JSONP, or markup by
    /// its first element's whole name: `<headline>` is no `<head>`), else by
    /// the Content-Type; nil when neither names a kind we read.
    public static func sniff(_ bytes: [UInt8], contentType: String?) -> FeedKind? {
        let prefix = Array(bytes.prefix(4096))
        let head = String(decoding: prefix.prefix(1024), as: UTF8.self)
            .trimming(.whitespacesAndNewlines.union(.scalars("\u{FEFF}")))
            .lowercased()
        if head.hasPrefix("{") || head.hasPrefix("[") || JSONText.looksLikeCall(prefix) { return .json }
        if head.hasPrefix("<") {
            if head.hasPrefix("<!doctype html") { return .html }
            if let root = firstElement(prefix) {
                if feedRoots.contains(root) { return .xml }
                if pageRoots.contains(root) { return .html }
            }
        }
        let type = (contentType ?? "").lowercased()
        if type.contains("json") { return .json }
        if type.contains("html") { return .html }
        if type.contains("xml") || type.contains("rss") || type.contains("atom") { return .xml }
        return head.hasPrefix("<") ? .xml : nil
    }

    /// The name of the first element (declarations, comments and the
    /// DOCTYPE skipped).
    static func firstElement(_ bytes: [UInt8]) -> String? {
        var scanner = MarkupScanner(bytes)
        while let event = scanner.next() {
            if case let .start(name, _) = event { return name }
        }
        return nil
    }
}

import Foundation

/// What the cache keeps beside an image: its URL and the validators the
/// server sent, stored verbatim (nginx answers 304 only to the exact
/// Last-Modified string it sent); for a feed entry, the feed's validators
/// and the item's words too. Every field added since the first version is
/// optional, so older files still read.
public struct CacheMetadata: Codable, Sendable, Equatable {
    /// The entry's URL: the image's, or the feed's for a feed entry.
    public var url: String
    /// The image's ETag header, verbatim (quotes and W/ included).
    public var etag: String?
    /// The image's Last-Modified header, verbatim.
    public var lastModified: String?
    /// The Content-Type the server gave.
    public var contentType: String?
    /// Feed entries: the URL the image came from.
    public var imageURL: String?
    /// Feed entries: the feed's own validators.
    public var feedETag: String?
    public var feedLastModified: String?
    /// Feed entries: the item's title, credit, description and page.
    public var title: String?
    public var credit: String?
    public var description: String?
    public var link: String?
    /// When this image was first downloaded (the history's date for it).
    public var firstSeen: Date?
    /// How long the last check stays fresh, by HTTP's rules, and why.
    public var lifetime: Lifetime?
    /// The freshness headers of the last full response, verbatim, for a 304
    /// that does not repeat them.
    public var cacheControl: String?
    public var expires: String?
    /// A 404 or 410 the server gave a lifetime (`--freshness server`): no
    /// request until it is stale.
    public var refusal: Refusal?
    /// A 301 or 308 the server gave a lifetime (`--freshness server`):
    /// checks go straight to its target until it is stale.
    public var movedTo: MovedPermanently?
    /// A 429 or 503 whose Retry-After still stands: no request before it.
    public var patience: Patience?
    /// Checks that failed in a row: automatic checks back off.
    public var failures: FailureStreak?

    public init(url: String, etag: String? = nil, lastModified: String? = nil, contentType: String? = nil) {
        self.url = url
        self.etag = etag
        self.lastModified = lastModified
        self.contentType = contentType
    }

    /// The image's validators, for the policy.
    public var validators: Validators { Validators(etag: etag, lastModified: lastModified) }

    /// The feed's validators.
    public var feedValidators: Validators { Validators(etag: feedETag, lastModified: feedLastModified) }

    /// Records the freshness of the response `head` (received at `now`),
    /// falling back to the stored headers a 304 did not repeat.
    mutating func keepFreshness(of head: ResponseHead, stored: CacheMetadata?, now: Date, cap: TimeInterval) {
        var merged = head
        merged.cacheControl = head.cacheControl ?? stored?.cacheControl
        merged.expires = head.expires ?? stored?.expires
        if merged.validators.lastModified == nil { merged.validators.lastModified = lastModified ?? stored?.lastModified }
        cacheControl = merged.cacheControl
        expires = merged.expires
        lifetime = Lifetime.of(merged, now: now, cap: cap)
    }

    /// The words of `item` (already plain text; made terminal-safe where shown).
    mutating func describe(_ item: FeedItem) {
        title = item.title
        credit = item.credit
        description = item.description
        link = item.link
    }

    func encoded() -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return (try? encoder.encode(self)) ?? Data()
    }

    /// nil when the file is damaged: the image is then re-checked as if it
    /// had no validators, which costs one download and loses nothing.
    public static func decode(_ data: Data) -> CacheMetadata? {
        try? JSONDecoder().decode(CacheMetadata.self, from: data)
    }

    /// The record at `path`: nil when it is missing, damaged, over 1 MiB or
    /// a symbolic link (never followed).
    static func read(_ path: String) -> CacheMetadata? {
        guard let bytes = try? Posix.readFile(path, limit: 1 << 20, followLinks: false) else { return nil }
        return decode(Data(bytes))
    }
}

/// A cached image as found on disk.
public struct CachedCopy: Sendable, Equatable {
    /// The image file's path.
    public var imagePath: String
    /// The image file's modification time: the last successful check.
    public var updated: Date
    /// Its URL and validators; nil when the metadata is missing or damaged.
    public var metadata: CacheMetadata?

    public init(imagePath: String, updated: Date, metadata: CacheMetadata?) {
        self.imagePath = imagePath
        self.updated = updated
        self.metadata = metadata
    }
}

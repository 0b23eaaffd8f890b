import FoundationEssentials
import URLCacheSupport

/// What the cache keeps beside an image, in one record: the image's
/// validators (stored verbatim: nginx answers 304 only to the exact
/// Last-Modified string it sent), the feed's, the lifetime, the item's
/// words, the day it was first seen, and the answers remembered until they
/// expire. How a check's answer changes it is `CacheRecord+Merge.swift`;
/// the cache's commit alone sets `firstSeen`.
///
/// On disk it is the flat JSON object it always was (`etag`, `feedETag`,
/// `title`, …, nils left out): every cache written before reads as it is,
/// and an older urlcache reads this one.
public struct CacheRecord: Sendable, Equatable {
    /// The entry's URL: the image's, or the feed's for a feed entry.
    public var url: String
    /// The image: where it came from, its type and its validators.
    public var image: Image
    /// Feed entries: the feed's own validators.
    public var feedValidators = Validators()
    /// How long the last check stays fresh, and the headers that said so.
    public var freshness = Freshness()
    /// Feed entries: the item's title, credit, description and page.
    public var caption = Caption()
    /// When this image was first downloaded (the history's date for it).
    public var firstSeen: Date?
    /// Answers that stand until they expire.
    public var remembered = Remembered()

    /// The image the record is about.
    public struct Image: Sendable, Equatable {
        /// Feed entries: the URL the image came from.
        public var url: String?
        /// The Content-Type the server gave.
        public var contentType: String?
        /// Its ETag and Last-Modified, verbatim (quotes and W/ included).
        public var validators = Validators()
        /// Feed entries offered several sizes: the one taken, and why.
        public var size: TakenSize?
    }

    /// The last check's freshness by HTTP's rules.
    public struct Freshness: Sendable, Equatable {
        public var lifetime: Lifetime?
        /// The freshness headers of the last full response, verbatim, for
        /// a 304 that does not repeat them.
        public var cacheControl: String?
        public var expires: String?
    }

    /// A feed item's words (already plain text; made terminal-safe where shown).
    public struct Caption: Sendable, Equatable {
        public var title: String?
        public var credit: String?
        public var description: String?
        public var link: String?
    }

    /// What the server said that stands for a while.
    public struct Remembered: Sendable, Equatable {
        /// A 404 or 410 the server gave a lifetime (`--freshness server`):
        /// no request until it is stale.
        public var refusal: Refusal?
        /// A 301 or 308 the server gave a lifetime (`--freshness server`):
        /// checks go straight to its target until it is stale.
        public var movedTo: MovedPermanently?
        /// A 429 or 503 whose Retry-After still stands: no request before it.
        public var patience: Patience?
        /// Checks that failed in a row: automatic checks back off.
        public var failures: FailureStreak?
    }

    public init(url: String, etag: String? = nil, lastModified: String? = nil, contentType: String? = nil) {
        self.url = url
        image = Image(
            url: nil,
            contentType: contentType,
            validators: Validators(etag: etag, lastModified: lastModified)
        )
    }

    func encoded() -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return (try? encoder.encode(self)) ?? Data()
    }

    /// nil when the file is damaged: the image is then re-checked as if it
    /// had no validators, which costs one download and loses nothing.
    public static func decode(_ data: Data) -> CacheRecord? {
        try? JSONDecoder().decode(CacheRecord.self, from: data)
    }

    /// The record at `path`: nil when it is missing, damaged, over 1 MiB or
    /// a symbolic link (never followed).
    static func read(_ path: String) -> CacheRecord? {
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
    /// Its URL and validators; nil when the record is missing or damaged.
    public var metadata: CacheRecord?

    public init(imagePath: String, updated: Date, metadata: CacheRecord?) {
        self.imagePath = imagePath
        self.updated = updated
        self.metadata = metadata
    }

    /// Its record, or a blank one for `url` when the record is missing or
    /// damaged: what a check's answer is merged into.
    func record(for url: URL) -> CacheRecord {
        metadata ?? CacheRecord(url: url.absoluteString)
    }
}

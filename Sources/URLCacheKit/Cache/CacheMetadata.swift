import Foundation

/// What the cache keeps beside an image: its URL and the validators the
/// server sent, stored verbatim (nginx answers 304 only to the exact
/// Last-Modified string it sent).
public struct CacheMetadata: Codable, Sendable, Equatable {
    /// The whole URL the image was fetched from.
    public var url: String
    /// The ETag header, verbatim (quotes and W/ included).
    public var etag: String?
    /// The Last-Modified header, verbatim.
    public var lastModified: String?
    /// The Content-Type the server gave.
    public var contentType: String?

    public init(url: String, etag: String? = nil, lastModified: String? = nil, contentType: String? = nil) {
        self.url = url
        self.etag = etag
        self.lastModified = lastModified
        self.contentType = contentType
    }

    /// The validators, for the policy.
    public var validators: Validators { Validators(etag: etag, lastModified: lastModified) }

    func encoded() -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return (try? encoder.encode(self)) ?? Data()
    }

    /// nil when the file is damaged: the image is then re-checked as if it
    /// had no validators, which costs one download and loses nothing.
    static func decode(_ data: Data) -> CacheMetadata? {
        try? JSONDecoder().decode(CacheMetadata.self, from: data)
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

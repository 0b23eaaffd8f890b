import Foundation

/// The record as its file writes it: one flat JSON object, the keys of the
/// first versions and those added since (each optional, so that older files
/// still read). The groups are the Swift side's; the file never had them.
extension CacheRecord: Codable {
    private enum Key: String, CodingKey {
        case url, etag, lastModified, contentType, imageURL, feedETag, feedLastModified
        case title, credit, description, link, firstSeen, lifetime, cacheControl, expires
        case refusal, movedTo, patience, failures
    }

    /// The text fields, each under its flat key.
    private static var texts: [(Key, WritableKeyPath<CacheRecord, String?>)] {
        [
            (.etag, \.image.validators.etag), (.lastModified, \.image.validators.lastModified),
            (.contentType, \.image.contentType),
            (.imageURL, \.image.url), (.feedETag, \.feedValidators.etag),
            (.feedLastModified, \.feedValidators.lastModified),
            (.title, \.caption.title), (.credit, \.caption.credit), (.description, \.caption.description),
            (.link, \.caption.link),
            (.cacheControl, \.freshness.cacheControl), (.expires, \.freshness.expires),
        ]
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Key.self)
        self.init(url: try c.decode(String.self, forKey: .url))
        for (key, field) in CacheRecord.texts { self[keyPath: field] = try c.decodeIfPresent(String.self, forKey: key) }
        firstSeen = try c.decodeIfPresent(Date.self, forKey: .firstSeen)
        freshness.lifetime = try c.decodeIfPresent(Lifetime.self, forKey: .lifetime)
        remembered = Remembered(
            refusal: try c.decodeIfPresent(Refusal.self, forKey: .refusal),
            movedTo: try c.decodeIfPresent(MovedPermanently.self, forKey: .movedTo),
            patience: try c.decodeIfPresent(Patience.self, forKey: .patience),
            failures: try c.decodeIfPresent(FailureStreak.self, forKey: .failures)
        )
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(url, forKey: .url)
        for (key, field) in CacheRecord.texts { try c.encodeIfPresent(self[keyPath: field], forKey: key) }
        try c.encodeIfPresent(firstSeen, forKey: .firstSeen)
        try c.encodeIfPresent(freshness.lifetime, forKey: .lifetime)
        try c.encodeIfPresent(remembered.refusal, forKey: .refusal)
        try c.encodeIfPresent(remembered.movedTo, forKey: .movedTo)
        try c.encodeIfPresent(remembered.patience, forKey: .patience)
        try c.encodeIfPresent(remembered.failures, forKey: .failures)
    }
}

/// The file's flat names, for the readers that want one field (the list,
/// the hook's variables, a saved copy's name, the tests).
extension CacheRecord {
    public var etag: String? { image.validators.etag }
    public var lastModified: String? { image.validators.lastModified }
    public var contentType: String? { image.contentType }
    public var imageURL: String? { image.url }
    public var feedETag: String? { feedValidators.etag }
    public var feedLastModified: String? { feedValidators.lastModified }
    public var title: String? {
        get { caption.title }
        set { caption.title = newValue }
    }
    public var credit: String? { caption.credit }
    public var description: String? { caption.description }
    public var link: String? { caption.link }
    public var lifetime: Lifetime? { freshness.lifetime }
    public var cacheControl: String? { freshness.cacheControl }
    public var expires: String? { freshness.expires }
    public var refusal: Refusal? { remembered.refusal }
    public var movedTo: MovedPermanently? { remembered.movedTo }
    public var patience: Patience? { remembered.patience }
    public var failures: FailureStreak? { remembered.failures }
}

import FoundationEssentials

/// The record as its file writes it: one flat JSON object, the keys of the
/// first versions and those added since (each optional, so that older files
/// still read). The groups are the Swift side's; the file never had them.
extension CacheRecord: Codable {
    private enum Key: String, CodingKey {
        case url, etag, lastModified, contentType, imageURL, feedETag, feedLastModified
        case title, credit, description, link, firstSeen, lifetime, cacheControl, expires
        case refusal, movedTo, patience, failures, size
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
        image.size = try? c.decodeIfPresent(TakenSize.self, forKey: .size)
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
        try c.encodeIfPresent(image.size, forKey: .size)
        try c.encodeIfPresent(remembered.refusal, forKey: .refusal)
        try c.encodeIfPresent(remembered.movedTo, forKey: .movedTo)
        try c.encodeIfPresent(remembered.patience, forKey: .patience)
        try c.encodeIfPresent(remembered.failures, forKey: .failures)
    }
}

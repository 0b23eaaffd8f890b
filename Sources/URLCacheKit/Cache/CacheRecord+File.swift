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

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Key.self)
        url = try c.decode(String.self, forKey: .url)
        image = Image(url: try c.decodeIfPresent(String.self, forKey: .imageURL),
                      contentType: try c.decodeIfPresent(String.self, forKey: .contentType),
                      validators: Validators(etag: try c.decodeIfPresent(String.self, forKey: .etag),
                                             lastModified: try c.decodeIfPresent(String.self, forKey: .lastModified)))
        feedValidators = Validators(etag: try c.decodeIfPresent(String.self, forKey: .feedETag),
                                    lastModified: try c.decodeIfPresent(String.self, forKey: .feedLastModified))
        freshness = Freshness(lifetime: try c.decodeIfPresent(Lifetime.self, forKey: .lifetime),
                              cacheControl: try c.decodeIfPresent(String.self, forKey: .cacheControl),
                              expires: try c.decodeIfPresent(String.self, forKey: .expires))
        caption = Caption(title: try c.decodeIfPresent(String.self, forKey: .title),
                          credit: try c.decodeIfPresent(String.self, forKey: .credit),
                          description: try c.decodeIfPresent(String.self, forKey: .description),
                          link: try c.decodeIfPresent(String.self, forKey: .link))
        firstSeen = try c.decodeIfPresent(Date.self, forKey: .firstSeen)
        remembered = Remembered(refusal: try c.decodeIfPresent(Refusal.self, forKey: .refusal),
                                movedTo: try c.decodeIfPresent(MovedPermanently.self, forKey: .movedTo),
                                patience: try c.decodeIfPresent(Patience.self, forKey: .patience),
                                failures: try c.decodeIfPresent(FailureStreak.self, forKey: .failures))
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(url, forKey: .url)
        try c.encodeIfPresent(image.validators.etag, forKey: .etag)
        try c.encodeIfPresent(image.validators.lastModified, forKey: .lastModified)
        try c.encodeIfPresent(image.contentType, forKey: .contentType)
        try c.encodeIfPresent(image.url, forKey: .imageURL)
        try c.encodeIfPresent(feedValidators.etag, forKey: .feedETag)
        try c.encodeIfPresent(feedValidators.lastModified, forKey: .feedLastModified)
        try c.encodeIfPresent(caption.title, forKey: .title)
        try c.encodeIfPresent(caption.credit, forKey: .credit)
        try c.encodeIfPresent(caption.description, forKey: .description)
        try c.encodeIfPresent(caption.link, forKey: .link)
        try c.encodeIfPresent(firstSeen, forKey: .firstSeen)
        try c.encodeIfPresent(freshness.lifetime, forKey: .lifetime)
        try c.encodeIfPresent(freshness.cacheControl, forKey: .cacheControl)
        try c.encodeIfPresent(freshness.expires, forKey: .expires)
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

/// The validators a server sent with an image, verbatim.
public struct Validators: Sendable, Equatable {
    public var etag: String?
    public var lastModified: String?

    public init(etag: String? = nil, lastModified: String? = nil) {
        self.etag = etag
        self.lastModified = lastModified
    }
}

extension Validators {
    /// The validators to keep after a 304: each one the 304 repeats or
    /// updates, and the stored one where it is silent (RFC 9111 §4.3.4:
    /// the stored headers a 304 does not mention are kept).
    public func updated(by received: Validators) -> Validators {
        Validators(etag: received.etag ?? etag, lastModified: received.lastModified ?? lastModified)
    }
}

import FoundationEssentials

/// How each answer a check gets changes the record: every rule in one
/// place. A 304 keeps the stored headers it does not repeat (RFC 9111
/// §4.3.4); the feed's answer sets the lifetime of a feed entry; a video
/// day keeps the picture and its words. `firstSeen` is not here: the
/// cache's commit sets it (`DiskCache.commit`, `markChecked`).
extension CacheRecord {
    /// A plain entry's answer: the image's type and validators, its
    /// freshness, and where a permanent redirect points. `stored`: the
    /// cached copy's record.
    static func imageAnswer(
        _ url: URL,
        head: ResponseHead,
        download: ImageDownload,
        stored: CacheRecord?,
        movedTo: MovedPermanently?,
        now: Date,
        cap: TimeInterval
    ) -> CacheRecord {
        var record = CacheRecord(url: url.absoluteString, contentType: head.contentType ?? stored?.image.contentType)
        record.keepValidators(of: head, download: download, stored: stored?.image.validators)
        record.keepFreshness(of: head, stored: stored, now: now, cap: cap)
        record.remembered.movedTo = movedTo
        return record
    }

    /// A feed that changed: its validators and freshness, and the item's
    /// words; the image it names comes with `announcing`.
    static func feedRead(
        _ url: URL,
        head: ResponseHead,
        item: FeedItem,
        movedTo: MovedPermanently?,
        now: Date,
        cap: TimeInterval
    ) -> CacheRecord {
        var record = CacheRecord(url: url.absoluteString)
        record.feedValidators = head.validators
        // The feed is what is checked: its headers say how long it stays fresh.
        record.keepFreshness(of: head, stored: nil, now: now, cap: cap)
        record.remembered.movedTo = movedTo
        record.caption = Caption(title: item.title, credit: item.credit, description: item.description, link: item.link)
        return record
    }

    /// This (cached) record after a feed that did not change: the feed's
    /// validators as the answer updates them, its freshness anew.
    func feedUnchanged(head: ResponseHead, movedTo: MovedPermanently?, now: Date, cap: TimeInterval) -> CacheRecord {
        var record = self
        record.feedValidators = feedValidators.updated(by: head.validators)
        record.keepFreshness(of: head, stored: self, now: now, cap: cap)
        record.remembered.movedTo = movedTo
        return record
    }

    /// This (cached) record after a feed whose item is no picture (a
    /// video day): the picture and its words stay; only the feed's
    /// validators, freshness and redirect move on, so that the same video
    /// day is not read again.
    func keepingPicture(after feed: CacheRecord) -> CacheRecord {
        var record = self
        record.feedValidators = feed.feedValidators
        record.freshness = feed.freshness
        record.remembered.movedTo = feed.remembered.movedTo
        return record
    }

    /// The feed's record with the image it announced: its URL, type and
    /// validators. `cached`: the cached copy's record when it is of the
    /// same image (its type and validators stand for what a 304 omits).
    func announcing(_ imageURL: URL, head: ResponseHead, download: ImageDownload, cached: CacheRecord?) -> CacheRecord {
        var record = self
        record.image.url = imageURL.absoluteString
        record.image.contentType = head.contentType ?? cached?.image.contentType
        record.keepValidators(of: head, download: download, stored: cached?.image.validators)
        return record
    }

    /// An error answer to remember: a refusal that stands, a wait asked for.
    func remembering(refusal: Refusal?, patience: Patience?) -> CacheRecord {
        var record = self
        record.remembered.refusal = refusal
        record.remembered.patience = patience
        return record
    }

    /// One more failed check in a row, at `now`.
    func failing(at now: Date, cap: TimeInterval) -> CacheRecord {
        var record = self
        record.remembered.failures = FailureStreak.after(remembered.failures, failedAt: now, cap: cap)
        return record
    }

    /// A successful check supersedes any error answer remembered and ends
    /// the streak of failures.
    func checked() -> CacheRecord {
        var record = self
        record.remembered.refusal = nil
        record.remembered.patience = nil
        record.remembered.failures = nil
        return record
    }

    /// The image validators to keep: the response's, but the stored ones
    /// after a 304 that carried none.
    private mutating func keepValidators(of head: ResponseHead, download: ImageDownload, stored: Validators?) {
        var validators = head.validators
        if case .unread(.notModified) = download { validators = (stored ?? Validators()).updated(by: head.validators) }
        image.validators = validators
    }

    /// The freshness of the response `head` (received at `now`), with the
    /// stored headers a 304 did not repeat.
    private mutating func keepFreshness(of head: ResponseHead, stored: CacheRecord?, now: Date, cap: TimeInterval) {
        var merged = head
        merged.cacheControl = head.cacheControl ?? stored?.freshness.cacheControl
        merged.expires = head.expires ?? stored?.freshness.expires
        if merged.validators.lastModified == nil {
            merged.validators.lastModified = image.validators.lastModified ?? stored?.image.validators.lastModified
        }
        freshness = Freshness(
            lifetime: Lifetime.of(merged, now: now, cap: cap),
            cacheControl: merged.cacheControl,
            expires: merged.expires
        )
    }
}

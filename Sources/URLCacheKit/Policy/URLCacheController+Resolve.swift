import FoundationEssentials

/// Display Image's first step: which image to ask for, and on what
/// conditions. A plain entry names its image; a feed entry asks the feed
/// (conditionally) which image today's item is, or learns a reason to stop.
/// Nothing is written here: the answers are settled (`settle`) after.
extension URLCacheController {
    /// The image to transfer, as `resolve` found it.
    struct ImageAsk {
        /// Its request: the URL (a remembered redirect's target, or the
        /// image a feed names) and the conditions.
        var request: TransferRequest
        /// The validators of the copy it would replace; nil for a feed's
        /// new image (a plain GET).
        var stored: Validators?
        /// A feed entry's answer, which the image settles with.
        var feed: FeedAnswer?
    }

    /// What a changed feed said.
    struct FeedAnswer {
        /// The feed's record: its validators, lifetime and the item's words.
        var record: CacheRecord
        /// The item is a still from a video (its kind and page).
        var still: (kind: String, link: String?)?
        /// `no-store` under the server's rules: nothing is recorded.
        var noStore: Bool
        /// The image is the one already cached: asked conditionally.
        var same: Bool
    }

    /// Why no image is transferred.
    enum FeedStop {
        /// The feed did not change (a 304, or headers that match): its head.
        case unchanged(ResponseHead, movedTo: MovedPermanently?)
        /// A 304 to a feed asked with no condition: it confirms nothing.
        case unaskedNotModified
        /// Today's item is no picture (a video): its kind and page, and the
        /// feed's record.
        case noPicture(kind: String, link: String?, feed: CacheRecord, noStore: Bool)
        /// The feed's server answered with an error status: its head.
        case errorStatus(ResponseHead)
        /// The feed failed (the transfer, its size, its contents).
        case failed(FetchError)
    }

    enum Resolution {
        case image(ImageAsk)
        case stop(FeedStop)
    }

    /// The one request builder: `url` on the conditions `plan` names;
    /// images accept the formats the decoders read, feeds are held to
    /// their own size limit. One deadline for every transfer of a check
    /// (the check's).
    func request(to url: URL, plan: RefreshPolicy.Plan?, image: Bool, _ check: Check) -> TransferRequest {
        var request = TransferRequest(url: url, limits: limits)
        request.limits.deadline = check.deadline
        if image { request.accept = TransferRequest.imageTypes } else { request.limits.maxBytes = maxFeedBytes }
        if case let .check(ifNoneMatch, ifModifiedSince)? = plan {
            request.ifNoneMatch = ifNoneMatch
            request.ifModifiedSince = ifModifiedSince
        }
        return request
    }

    /// The image `entry` asks for, or why none: `target` is where the entry
    /// is asked (a remembered permanent redirect's target, or its URL).
    func resolve(_ check: Check, target: URL, plan: RefreshPolicy.Plan) -> Resolution {
        guard let spec = check.entry.feed else {
            return .image(
                ImageAsk(
                    request: request(to: target, plan: plan, image: true, check),
                    stored: check.cached?.metadata?.image.validators
                )
            )
        }
        return resolveFeed(spec, check, target: target, plan: plan)
    }

    /// A feed entry: the feed asked at `target`, read, and the image it
    /// names asked, or why none.
    private func resolveFeed(_ spec: FeedSpec, _ check: Check, target: URL, plan: RefreshPolicy.Plan) -> Resolution {
        // The cache's key is the entry's URL; the request may go straight
        // to where a remembered permanent redirect points.
        let (key, cached, now) = (check.key, check.cached, check.now)
        let feedRequest = request(to: target, plan: plan, image: false, check)
        let head: ResponseHead
        let body: FeedDownload
        do {
            (head, body) = try FeedReceiver.receive(
                feedRequest,
                limit: maxFeedBytes,
                stored: check.resize ? nil : cached?.metadata?.feedValidators,
                over: transport,
                now: now,
                observer: check.observer
            )
        } catch {
            return .stop(.failed(error))
        }
        let movedTo = redirectMemory(head, asked: target, check)
        let bytes: [UInt8]
        switch body {
        case let .bytes(read): bytes = read
        case .unread(.errorStatus): return .stop(.errorStatus(head))
        case .unread(.unaskedNotModified): return .stop(.unaskedNotModified)
        case .unread(.notModified), .unread(.unchangedByHeaders): return .stop(.unchanged(head, movedTo: movedTo))
        }
        let item: FeedItem
        do { item = try FeedReader.read(bytes, contentType: head.contentType, feedURL: key, select: spec.select) } catch
        {
            return .stop(.failed(.feed(error)))
        }
        var record = CacheRecord.feedRead(key, head: head, item: item, movedTo: movedTo, now: now, cap: refreshInterval)
        let noStore = check.rule.forbidsStoring(record)
        let announced: URL
        let still: (kind: String, link: String?)?
        switch item.media {
        case let .other(kind, link): return .stop(.noPicture(kind: kind, link: link, feed: record, noStore: noStore))
        case let .image(url):
            let offer = check.size.pick(item.sizes)
            (announced, still) = (offer?.url ?? url, nil)
            record.image.size = offer.flatMap { TakenSize.taking($0, of: item.sizes, for: check.size) }
        case let .still(url, kind, link): (announced, still) = (url, (kind, link))
        }
        let same = !noStore && cached?.metadata?.image.url == announced.absoluteString
        let stored = same ? cached?.metadata?.image.validators : nil
        let conditions = same ? RefreshPolicy.conditions(stored ?? Validators(), now: now) : nil
        return .image(
            ImageAsk(
                request: request(to: announced, plan: conditions, image: true, check),
                stored: stored,
                feed: FeedAnswer(record: record, still: still, noStore: noStore, same: same)
            )
        )
    }
}

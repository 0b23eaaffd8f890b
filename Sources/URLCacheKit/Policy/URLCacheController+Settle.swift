import BlockArt
import FoundationEssentials

/// Display Image's last step: what the answers came to, merged into the
/// entry's record (`CacheRecord+Merge`) and committed to the cache, the
/// one place it changes. Nothing replaces the cached image unless it
/// decodes, all of it.
extension URLCacheController {
    /// Transfers the image `ask` names into the entry's staging area and
    /// settles its answer.
    func fetchImage(_ ask: ImageAsk, _ check: Check) -> Result<DisplayOutcome, FetchError> {
        let received: (head: ResponseHead, download: ImageDownload)
        do {
            received = try ImageReceiver.receive(
                ask.request,
                stagingIn: cache,
                key: check.key,
                stored: ask.stored,
                over: transport,
                now: check.now,
                observer: check.observer
            )
        } catch {
            guard ask.feed != nil else { return .failure(error) }
            return .failure(.announcedImage(url: ask.request.url.absoluteString, error: error))
        }
        guard let feed = ask.feed else {
            return settlePlain(received.head, received.download, asked: ask.request.url, check)
        }
        return settleAnnounced(received.head, received.download, feed: feed, image: ask.request.url, check)
    }

    /// A plain entry's image answer. An error answer worth remembering is
    /// kept; a server's Retry-After travels with the failure.
    private func settlePlain(
        _ head: ResponseHead,
        _ download: ImageDownload,
        asked: URL,
        _ check: Check
    ) -> Result<DisplayOutcome, FetchError> {
        // Under the fixed rule redirectMemory keeps none.
        let movedTo = redirectMemory(head, asked: asked, check)
        let record = CacheRecord.imageAnswer(
            check.key,
            head: head,
            download: download,
            stored: check.cached?.metadata,
            movedTo: movedTo,
            now: check.now,
            cap: refreshInterval
        )
        if case .unread(.errorStatus) = download { rememberErrorAnswer(head, check) }
        let store = !check.rule.forbidsStoring(record)
        return commit(head: head, download: download, record: record, store: store, check)
            .mapError { error in
                Patience.of(head, now: check.now, cap: refreshInterval).map { .waitAsked(error, $0) } ?? error
            }
    }

    /// The image a changed feed named, settled with the feed's record; its
    /// failures name the image.
    private func settleAnnounced(
        _ head: ResponseHead,
        _ download: ImageDownload,
        feed: FeedAnswer,
        image: URL,
        _ check: Check
    ) -> Result<DisplayOutcome, FetchError> {
        let record = feed.record.announcing(
            image,
            head: head,
            download: download,
            cached: feed.same ? check.cached?.metadata : nil
        )
        // A 304 for the image is only possible when it was asked
        // conditionally, i.e. for the cached copy.
        let result = commit(head: head, download: download, record: record, store: !feed.noStore, check)
        if case let .failure(error) = result {
            if case .cache = error { return result }
            return .failure(.announcedImage(url: image.absoluteString, error: error))
        }
        guard let still = feed.still else { return result }
        // A no-store still is shown from outside the cache, as any no-store image.
        return result.map {
            $0 == .notStored ? $0 : .stillOfToday(kind: still.kind, link: still.link, new: $0 == .newlyCached)
        }
    }

    /// A feed entry that transfers no image. Nothing is recorded until an
    /// image is settled, so a failed one is tried again next time; a
    /// `no-store` feed records nothing.
    func settle(_ stop: FeedStop, _ check: Check) -> Result<DisplayOutcome, FetchError> {
        let (key, cached, now) = (check.key, check.cached, check.now)
        switch stop {
        case let .failed(error):
            return .failure(error)
        case let .errorStatus(head):
            rememberErrorAnswer(head, check)
            return .failure(.status(of: head))
        case .unaskedNotModified:
            return .failure(cached == nil ? .notModifiedWithoutCopy : .unaskedNotModified)
        case let .unchanged(head, movedTo):
            guard let cached else { return .failure(.notModifiedWithoutCopy) }
            let record = cached.record(for: key)
                .feedUnchanged(head: head, movedTo: movedTo, now: now, cap: refreshInterval)
            return markChecked(record, previous: cached, check)
        case let .noPicture(kind, link, feed, noStore):
            guard let cached else { return .failure(.noImageYet(kind: kind, link: link)) }
            if noStore { return .success(.notAnImageToday(kind: kind, link: link)) }
            let record = cached.record(for: key).keepingPicture(after: feed)
            return markChecked(record, previous: cached, check).map { _ in
                .notAnImageToday(kind: kind, link: link)
            }
        }
    }

    /// Acts on what an image transfer came to. `record` is what the entry
    /// keeps if the image is current. `store` false (`no-store` under the
    /// server's rules): a new image is shown from outside the cache, and
    /// nothing is written in it.
    func commit(
        head: ResponseHead,
        download: ImageDownload,
        record: CacheRecord,
        store: Bool,
        _ check: Check
    ) -> Result<DisplayOutcome, FetchError> {
        let (key, cached) = (check.key, check.cached)
        if !store, case let .staged(file, _) = download {
            if let damage = DownloadVerification.damage(of: file.path) { return .failure(damage) }
            do { try cache.keepTransient(file, for: key, metadata: record) } catch { return .failure(.cache(error)) }
            return .success(.notStored)
        }
        switch download {
        case .unread(.notModified), .unread(.unchangedByHeaders):
            guard let cached else { return .failure(.notModifiedWithoutCopy) }
            return markChecked(record, previous: cached, check)
        case .unread(.unaskedNotModified):
            return .failure(cached == nil ? .notModifiedWithoutCopy : .unaskedNotModified)
        case .unread(.errorStatus):
            return .failure(.status(of: head))
        case let .rejected(format):
            return .failure(.notAnImage(what: format.description, status: head.status, contentType: head.contentType))
        case let .staged(file, _):
            if let cached, FileComparison.sameContents(file.path, cached.imagePath) {
                return markChecked(record, previous: cached, check)
            }
            if let damage = DownloadVerification.damage(of: file.path) { return .failure(damage) }
            do { try cache.commit(file, for: key, record: record, updated: check.now) } catch {
                return .failure(.cache(error))
            }
            return .success(.newlyCached)
        }
    }

    /// The check found the image current: its time and record move on.
    private func markChecked(
        _ record: CacheRecord,
        previous cached: CachedCopy,
        _ check: Check
    ) -> Result<DisplayOutcome, FetchError> {
        do { try cache.markChecked(check.key, at: check.now, record: record, previous: cached) } catch {
            return .failure(.cache(error))
        }
        return .success(.upToDate)
    }
}

import FoundationEssentials
import URLCacheSupport

#if canImport(Glibc)
import Glibc
#endif

/// The on-disk cache: one image file per URL, named by the SHA-256 of the
/// whole URL (the original used the URL's last path component, so two
/// `latest.jpg` from different hosts collided, and a name from outside could
/// climb out of the directory), a JSON metadata file beside it, and a lock
/// file that serialises processes working on the same entry.
///
/// The image file's modification time is the Updated time. Every write goes
/// to a temporary file in the same directory, is fsynced and renamed into
/// place, so the cache never holds a partial image.
public struct DiskCache: Sendable {
    /// The directory holding the cache.
    public let directory: String
    /// How many distinct images each entry keeps, the current one included.
    public var keep = 7
    /// The whole cache's bound in bytes; the oldest history images go first.
    public var maxBytes: Int64 = 512 << 20

    public init(directory: String, keep: Int = 7, maxBytes: Int64 = 512 << 20) {
        self.directory = directory
        self.keep = max(1, keep)
        self.maxBytes = maxBytes
    }

    /// The files of one entry.
    public struct EntryPaths: Sendable, Equatable {
        public let image: String
        public let metadata: String
        public let lock: String
        let stagingPrefix: String
    }

    /// The paths for `url`.
    public func paths(for url: URL) -> EntryPaths {
        let name = DiskCache.name(for: url)
        let base = directory + "/" + name
        return EntryPaths(
            image: base + ".img",
            metadata: base + ".meta",
            lock: base + ".lock",
            stagingPrefix: directory + "/." + name + ".tmp."
        )
    }

    /// An entry's file name: the first 32 hex digits of its URL's SHA-256.
    static func name(for url: URL) -> String {
        String(SHA256.hex(Array(url.absoluteString.utf8)).prefix(32))
    }

    /// Creates the directory (mode 0700) when it is missing; refuses one
    /// that someone else could write to (`DirectorySafety`).
    public func prepare() throws(CacheError) {
        let isDirectory: Bool
        do { isDirectory = try Posix.ensureDirectory(directory, mode: 0o700) } catch {
            throw .cannotCreateDirectory(path: directory, errno: error)
        }
        guard isDirectory else { throw .notADirectory(path: directory) }
        try checkSafety()
    }

    /// Refuses a directory that is not ours alone.
    func checkSafety() throws(CacheError) {
        if let reason = DirectorySafety.problem(directory) { throw .unsafeDirectory(path: directory, reason: reason) }
    }

    /// The cached copy of `url`, if there is one.
    public func lookup(_ url: URL) throws(CacheError) -> CachedCopy? {
        let paths = paths(for: url)
        let updated: Date?
        do { updated = try Posix.modificationTime(paths.image) } catch {
            throw .failed(error, at: paths.image, else: CacheError.readFailed)
        }
        guard let updated else { return nil }
        let metadata = CacheRecord.read(paths.metadata)
        // Metadata written for another URL (never expected) is not trusted.
        let trusted = metadata?.url == url.absoluteString ? metadata : nil
        return CachedCopy(imagePath: paths.image, updated: updated, metadata: trusted)
    }

    /// What an entry with no image remembers (a server's request to wait,
    /// a streak of failed checks), so that a server that asked for patience
    /// before anything was cached gets it too. nil when the entry has an
    /// image (its `lookup` carries its record) or remembers nothing.
    public func answersWithoutImage(_ url: URL) -> CacheRecord? {
        let paths = paths(for: url)
        guard (try? Posix.modificationTime(paths.image)) == nil else { return nil }
        let record = CacheRecord.read(paths.metadata)
        return record?.url == url.absoluteString ? record : nil
    }

    /// Forgets what an entry with no image remembered, after a check that
    /// succeeded without keeping an image (a no-store answer): a success
    /// ends the streak there too.
    func forgetAnswersWithoutImage(_ url: URL) {
        guard answersWithoutImage(url) != nil else { return }
        try? Posix.unlinkIfPresent(paths(for: url).metadata)
    }

    /// Runs `body` holding the entry's lock, so that two processes never
    /// write one entry at once. The lock is released when `body` returns;
    /// an entry left with no image keeps no lock file. Creates the cache
    /// directory first, and sweeps the temporary files the entry's last
    /// writer or any dead process left behind.
    /// `wait` says how long to wait for another process's lock.
    public func withLock<T>(_ url: URL, wait: LockWait = .patient, _ body: () -> T) throws(CacheError) -> T {
        try prepare()
        let paths = paths(for: url)
        let fd = try acquire(paths.lock, wait: wait)
        defer { close(fd) }
        sweepTemporaries(of: paths)
        let result = body()
        // Removed while held: a waiter on this file sees the name gone and
        // starts again (`acquire`).
        if (try? Posix.modificationTime(paths.image)) == nil { try? Posix.unlinkIfPresent(paths.lock) }
        return result
    }

    /// A temporary file for a new copy of `url`. Call it holding the lock
    /// (`withLock` has swept what an earlier writer left).
    func stage(_ url: URL) throws(CacheError) -> StagedFile {
        let paths = paths(for: url)
        do {
            return try newStagedFile(paths, tag: "")
        } catch {
            throw .writeFailed(path: directory, errno: error)
        }
    }

    /// Puts a fully written staged file in place as the image of `url`, with
    /// `updated` as its modification time, then its metadata. The image goes
    /// first: a crash between the two leaves old validators beside a new
    /// image, which costs at most one download; the reverse could leave a
    /// stale image that the server would call up to date.
    /// The image it replaces joins the entry's history; the history is
    /// then cut to `keep` and the cache to `maxBytes`, all under the cache's
    /// one lock, so that two processes never lose an image between them.
    func commit(_ staged: StagedFile, for url: URL, record: CacheRecord, updated: Date) throws(CacheError) {
        let paths = paths(for: url)
        var metadata = record
        metadata.firstSeen = updated
        try withCacheLock { () throws(CacheError) in
            if keep > 1 { archiveCurrent(url) }
            // A record kept with no image (a streak, a Retry-After) goes
            // first: a crash before the new record is written must not
            // leave it trusted as the new image's.
            if (try? Posix.modificationTime(paths.image)) == nil { try? Posix.unlinkIfPresent(paths.metadata) }
            do throws(Errno) { try staged.place(at: paths.image, updated: updated) } catch {
                throw CacheError.writeFailed(path: paths.image, errno: error)
            }
            try writeMetadata(metadata, paths: paths)
            Posix.syncDirectory(directory)
            prune(url)
            evict()
        }
    }

    /// Records a successful check that found the image unchanged: the
    /// modification time becomes `date`, and `record` is saved, with the
    /// day the image was first seen (`previous`'s: the same image) and no
    /// error answer remembered (a success supersedes them).
    func markChecked(_ url: URL, at date: Date, record: CacheRecord, previous: CachedCopy) throws(CacheError) {
        let paths = paths(for: url)
        do { try Posix.setTimes(path: paths.image, date) } catch {
            throw .failed(error, at: paths.image, else: CacheError.writeFailed)
        }
        var record = record.checked()
        record.firstSeen = previous.metadata?.firstSeen ?? previous.updated
        try writeMetadata(record, paths: paths)
    }

    /// Records what the last check learnt without a new image or a
    /// successful check: the image and its time stay as they are.
    func remember(_ url: URL, record: CacheRecord) throws(CacheError) {
        try writeMetadata(record, paths: paths(for: url))
    }

    /// Removes every cached image and its files; returns how many images.
    @discardableResult
    public func clear() throws(CacheError) -> Int {
        try remove { _ in true }
    }

    /// Removes the images `url` keeps (its history too) and their files
    /// (`urlcache remove --purge`); returns how many images.
    @discardableResult
    public func purge(_ url: URL) throws(CacheError) -> Int {
        let name = DiskCache.name(for: url)
        return try remove { $0.drop(while: { $0 == "." }).hasPrefix(name) }
    }

    /// Removes this cache's files that `chosen` names; returns how many images.
    private func remove(_ chosen: (String) -> Bool) throws(CacheError) -> Int {
        guard Posix.isDirectory(directory) == true else { return 0 }
        let names: [String]
        do { names = try Posix.directoryEntries(directory) } catch {
            throw .readFailed(path: directory, errno: error)
        }
        var images = 0
        for name in names where DiskCache.isOurs(name) && chosen(name) {
            let path = directory + "/" + name
            // What a running urlcache holds or writes stays: its lock, and
            // its temporary files (it removes them itself).
            if DiskCache.temporaryPid(name) != nil, !DiskCache.isDeadTemporary(name) { continue }
            do {
                if name.hasSuffix(".lock") {
                    _ = try DiskCache.removeIfFree(lock: path)
                } else {
                    try Posix.unlinkIfPresent(path)
                }
            } catch {
                if error == .noSuchFile { continue }
                throw .removeFailed(path: path, errno: error)
            }
            if name.hasSuffix(".img") { images += 1 }
        }
        return images
    }

    /// Only files this cache makes are ever removed, whatever else a user
    /// keeps in the directory.
    static func isOurs(_ name: String) -> Bool {
        let hex = name.drop(while: { $0 == "." }).prefix(32)
        guard hex.count == 32, hex.allSatisfy({ $0.isHexDigit && !$0.isUppercase }) else { return false }
        return name.hasSuffix(".img") || name.hasSuffix(".meta") || name.hasSuffix(".lock") || name.contains(".tmp.")
    }

    func writeMetadata(_ metadata: CacheRecord, paths: EntryPaths) throws(CacheError) {
        do {
            let staged = try newStagedFile(paths, tag: "meta.")
            try staged.append(Array(metadata.encoded()))
            try staged.place(at: paths.metadata, updated: nil)
        } catch {
            throw .writeFailed(path: paths.metadata, errno: error)
        }
    }

    /// A new temporary file beside the entry, private to this process.
    private func newStagedFile(_ paths: EntryPaths, tag: String) throws(Errno) -> StagedFile {
        try StagedFile.create(prefix: paths.stagingPrefix + tag, mode: 0o600)
    }
}

import FoundationEssentials
import URLCacheSupport

#if canImport(Glibc)
import Glibc
#endif

/// One image an entry has shown: the current one or an older one.
public struct HistoryItem: Sendable, Equatable {
    /// The image file.
    public var path: String
    /// When it was first downloaded (for an old copy without the record, its
    /// file's time).
    public var firstSeen: Date
    /// Its URL, validators and words as they were.
    public var metadata: CacheRecord?
    /// The entry's current image (never evicted).
    public var isCurrent: Bool
}

/// The history: each entry's earlier images stay beside the current one as
/// `<name>.<first seen, Unix milliseconds>.img` with their `.meta`, up to `keep`
/// images an entry; the oldest of them go first when the cache grows past
/// `maxBytes`.
extension DiskCache {
    /// The images of `url`, newest first; the current one leads.
    public func history(_ url: URL) throws(CacheError) -> [HistoryItem] {
        var items: [HistoryItem] = []
        if let current = try lookup(url) {
            items.append(
                HistoryItem(
                    path: current.imagePath,
                    firstSeen: current.metadata?.firstSeen ?? current.updated,
                    metadata: current.metadata,
                    isCurrent: true
                )
            )
        }
        for (stamp, base) in archived(url).sorted(by: { $0.0 > $1.0 }) {
            let metadata = CacheRecord.read(base + ".meta")
            items.append(
                HistoryItem(
                    path: base + ".img",
                    firstSeen: metadata?.firstSeen ?? Date(timeIntervalSince1970: TimeInterval(stamp) / 1000),
                    metadata: metadata,
                    isCurrent: false
                )
            )
        }
        return items
    }

    /// Runs `body` holding the lock of the whole cache (`cache.lock`): every
    /// commit, and with it every eviction, takes it.
    func withCacheLock<T>(_ body: () throws(CacheError) -> T) throws(CacheError) -> T {
        try holding(directory + "/cache.lock", body)
    }

    /// The current image of `url` (about to be replaced) gets a second name
    /// in the history, with its metadata. Best effort: a history that cannot
    /// be written costs the old image, never the new one.
    func archiveCurrent(_ url: URL) {
        let paths = paths(for: url)
        guard let current = try? lookup(url) else { return }
        var stamp = Int((current.metadata?.firstSeen ?? current.updated).timeIntervalSince1970 * 1000)
        let base = String(paths.image.dropLast(4))
        while Posix.fileSize("\(base).\(stamp).img") != nil { stamp += 1 }
        let archived = "\(base).\(stamp)"
        do { try Posix.link(paths.image, archived + ".img") } catch { return }
        var metadata = current.record(for: url)
        metadata.firstSeen = metadata.firstSeen ?? current.updated
        let archivedPaths = EntryPaths(
            image: archived + ".img",
            metadata: archived + ".meta",
            lock: paths.lock,
            stagingPrefix: paths.stagingPrefix
        )
        try? writeMetadata(metadata, paths: archivedPaths)
    }

    /// Keeps `keep − 1` earlier images of `url`, the newest.
    func prune(_ url: URL) {
        for (_, base) in archived(url).sorted(by: { $0.0 > $1.0 }).dropFirst(max(0, keep - 1)) { remove(base) }
    }

    /// While the cache holds more than `maxBytes` of images, removes the
    /// oldest earlier image of any entry. Current images are never removed.
    func evict() {
        guard let names = try? Posix.directoryEntries(directory) else { return }
        var total: Int64 = 0
        var candidates: [(stamp: Int, base: String, size: Int64)] = []
        for name in names where name.hasSuffix(".img") && DiskCache.isOurs(name) {
            let size = Posix.fileSize(directory + "/" + name) ?? 0
            total += size
            if let stamp = DiskCache.historyStamp(name) {
                candidates.append((stamp, directory + "/" + String(name.dropLast(4)), size))
            }
        }
        for candidate in candidates.sorted(by: { $0.stamp < $1.stamp }) where total > maxBytes {
            remove(candidate.base)
            total -= candidate.size
        }
    }

    /// The earlier images of `url`: their stamps and paths without `.img`.
    private func archived(_ url: URL) -> [(Int, String)] {
        let prefix = DiskCache.name(for: url) + "."
        guard let names = try? Posix.directoryEntries(directory) else { return [] }
        return names.compactMap { name in
            guard name.hasPrefix(prefix), name.hasSuffix(".img"), let stamp = DiskCache.historyStamp(name) else {
                return nil
            }
            return (stamp, directory + "/" + String(name.dropLast(4)))
        }
    }

    private func remove(_ base: String) {
        try? Posix.unlinkIfPresent(base + ".img")
        try? Posix.unlinkIfPresent(base + ".meta")
    }

    /// The stamp of a history file name (`<32 hex>.<digits>.img`); nil for
    /// a current image.
    static func historyStamp(_ name: String) -> Int? {
        let parts = name.split(separator: ".")
        guard parts.count == 3, parts[0].count == 32, parts[2] == "img" else { return nil }
        return Int(parts[1])
    }
}

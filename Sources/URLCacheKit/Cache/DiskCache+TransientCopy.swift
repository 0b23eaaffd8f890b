import FoundationEssentials
import URLCacheSupport

#if canImport(Glibc)
import Glibc
#endif

/// Where an image the server forbade storing (`Cache-Control: no-store`,
/// under `--freshness server`) is put to be shown: outside the cache, in a
/// private temporary directory, one image and its record an entry, replaced
/// each time. The cache, and any copy in it, is left as it was.
extension DiskCache {
    /// The file a no-store image of `url` is shown from.
    public func transientPath(for url: URL) -> String {
        Posix.temporaryDirectory + "/urlcache-\(getuid())/" + DiskCache.name(for: url) + ".img"
    }

    /// Puts the downloaded `file` and its record at the transient place.
    func keepTransient(_ file: StagedFile, for url: URL, metadata: CacheRecord) throws(CacheError) {
        let path = transientPath(for: url)
        // A shared temporary directory, made and checked as the cache is:
        // someone may have made this one first.
        try DiskCache(directory: Posix.parent(of: path)).prepare()
        try? FileManager.default.removeItem(atPath: path)
        guard (try? FileManager.default.copyItem(atPath: file.path, toPath: path)) != nil,
            FileManager.default.createFile(atPath: path + ".meta", contents: metadata.encoded())
        else {
            throw .writeFailed(path: path, errno: Errno.current)
        }
    }

    /// The no-store image last shown for `url`, with its record.
    func transientCopy(for url: URL) -> CachedCopy? {
        let path = transientPath(for: url)
        guard let updated = try? Posix.modificationTime(path) else { return nil }
        let metadata = CacheRecord.read(path + ".meta")
        return CachedCopy(imagePath: path, updated: updated, metadata: metadata)
    }
}

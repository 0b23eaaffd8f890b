import FoundationEssentials
import URLCacheSupport

#if canImport(Glibc)
import Glibc
#endif

/// A person's own URL list, edited as a plist: an entry added or taken out,
/// everything else kept as it was (settings, keys urlcache does not know,
/// the entries' order, binary or XML), the file replaced in one step so
/// that a reader never sees half of it. (Comments in an XML list are not
/// kept: a plist has no place for them.)
public enum ListFile {
    /// What an edit did.
    public struct Edited: Sendable, Equatable {
        /// The entry's number, from 1, as `urlcache list` shows it.
        public var number: Int
        /// The list as it now is.
        public var list: URLList
        /// The entry was there already: nothing was added.
        public var already = false

        /// The entry added, or the one that was there.
        public var entry: URLEntry { list.entries[number - 1] }
    }

    /// Adds `entry` at the end of the list at `path`, made from `seed` (the
    /// built-in list) when there is no file yet. An entry with the same
    /// address is not added twice: its number comes back as it is.
    public static func add(_ entry: URLEntry, to path: String, seed: Data) throws(ConfigError) -> Edited {
        let existing = Posix.exists(path)
        let data = existing ? try read(path) : seed
        let list = try URLList.parse(data, source: path)
        if let at = list.entries.firstIndex(where: { $0.url == entry.url && $0.problem == nil }) {
            if !existing { try write(data, to: path) }
            return Edited(number: at + 1, list: list, already: true)
        }
        var (root, format) = try plist(data, path)
        try withImages(&root, path) { $0.append(item(for: entry, among: $0)) }
        try write(root, format: format, to: path)
        return Edited(number: list.entries.count + 1, list: try URLList.load(path: path))
    }

    /// Takes entry `number` (from 1) out of the list at `path`; the entries
    /// after it move up by one. Returns the entry taken out.
    public static func remove(_ number: Int, from path: String) throws(ConfigError) -> URLEntry {
        let data = try read(path)
        let list = try URLList.parse(data, source: path)
        guard list.entries.indices.contains(number - 1) else {
            throw .noSuchEntry(file: path, index: number, count: list.entries.count)
        }
        guard list.entries.count > 1 else {
            throw .unwritable(file: path, reason: "it would hold no images (the last entry stays)")
        }
        let removed = list.entries[number - 1]
        var (root, format) = try plist(data, path)
        try withImages(&root, path) { $0.remove(at: number - 1) }
        try write(root, format: format, to: path)
        return removed
    }

    /// The plist item for `entry`: the original's URL string where that
    /// says all (and the list is of strings), else a dict.
    static func item(for entry: URLEntry, among items: [Any]) -> Any {
        let plain = entry.title == nil && entry.feed == nil && entry.freshness == nil
        if plain && items.allSatisfy({ $0 is String }) { return entry.url.absoluteString }
        var dict: [String: Any] = [(entry.feed == nil ? "url" : "feed"): entry.url.absoluteString]
        if let title = entry.title { dict["title"] = title }
        if let select = entry.feed?.select { dict["select"] = select }
        if let freshness = entry.freshness { dict["freshness"] = freshness.rawValue }
        return dict
    }

    /// Runs `change` on the list's array of entries, wherever the root keeps it.
    private static func withImages(
        _ root: inout Any,
        _ path: String,
        _ change: (inout [Any]) -> Void
    )
        throws(ConfigError)
    {
        if var items = root as? [Any] {
            change(&items)
            root = items
        } else if var dict = root as? [String: Any], var items = dict["images"] as? [Any] {
            change(&items)
            dict["images"] = items
            root = dict
        } else {
            throw .wrongShape(file: path, found: "no array of images to edit")
        }
    }

    private static func read(_ path: String) throws(ConfigError) -> Data {
        do { return Data(try Posix.readFile(path, limit: URLList.maxFileBytes)) } catch {
            throw .unreadable(file: path, errno: error)
        }
    }

    /// The plist's root, and the format to write it back in: XML or
    /// binary as it was (an OpenStep list is read but cannot be written).
    private static func plist(
        _ data: Data,
        _ path: String
    ) throws(ConfigError) -> (Any, AnyTree.PlistFormat) {
        guard let (root, format) = try? AnyTree.plist(data) else { throw .notAPlist(file: path) }
        return (root, format == .binary ? .binary : .xml)
    }

    private static func write(
        _ root: Any,
        format: AnyTree.PlistFormat,
        to path: String
    ) throws(ConfigError) {
        guard let data = AnyTree.plistData(root, format: format) else {
            throw .unwritable(file: path, reason: "the entries cannot be written as a plist")
        }
        try write(data, to: path)
    }

    /// `data` in place of the file at `path`, whole or not at all (a
    /// temporary file beside it, renamed over it); its folder made first.
    private static func write(_ data: Data, to path: String) throws(ConfigError) {
        do throws(Errno) {
            let folder = Posix.parent(of: path)
            guard try Posix.ensureDirectory(folder.isEmpty ? "." : folder, mode: 0o755) else {
                throw Errno(rawValue: ENOTDIR)
            }
            let staged = try StagedFile.create(prefix: path + ".", suffix: ".tmp", mode: 0o666)
            try staged.append(Array(data))
            try staged.place(at: path, updated: nil)
        } catch {
            throw .unwritable(file: path, reason: error.description)
        }
    }
}

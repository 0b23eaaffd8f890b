import FoundationEssentials
import URLCacheSupport

#if canImport(Glibc)
import Glibc
#endif

/// Whether a directory is ours alone, as ssh's StrictModes asks of
/// `~/.ssh`: a cache that someone else can write to lets them plant links
/// and files that a root cron job would then follow. The directory must
/// belong to us (or root) and be writable by no one else; each directory
/// above it must belong to us or root and be writable by no one else unless
/// it is sticky (as /tmp is: there no one can rename what is ours).
enum DirectorySafety {
    /// Why `path` is unsafe, with the fix; nil when it is safe. A path
    /// that cannot be resolved is left to the caller's own errors.
    static func problem(_ path: String) -> String? {
        let uid = geteuid()
        guard let resolved = realpath(path, nil) else { return nil }
        let real = String(cString: resolved)
        free(resolved)
        var info = stat()
        guard stat(real, &info) == 0 else { return nil }
        if info.st_uid != uid && info.st_uid != 0 {
            return "it belongs to another user (uid \(info.st_uid)); use a directory of your own"
        }
        if info.st_mode & 0o022 != 0 {
            return "others can write to it (mode \(String(info.st_mode & 0o7777, radix: 8))); run chmod 700 \(path)"
        }
        var parent = Posix.parent(of: real)
        while !parent.isEmpty {
            guard stat(parent, &info) == 0 else { return nil }
            let sticky = info.st_mode & mode_t(S_ISVTX) != 0
            if (info.st_uid != uid && info.st_uid != 0) || (info.st_mode & 0o022 != 0 && !sticky) {
                return "others can replace it: \(parent) is writable by others or belongs to another user"
            }
            if parent == "/" { break }
            parent = Posix.parent(of: parent)
        }
        return nil
    }
}

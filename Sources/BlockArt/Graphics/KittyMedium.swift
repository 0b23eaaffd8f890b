import Synchronization
import URLCacheSupport
#if canImport(Glibc)
import Glibc
#endif

/// How kitty is given a picture's pixels. A terminal on this machine reads
/// them from shared memory (`t=s`), which spares it megabytes of base64 to
/// parse: 26.5 ms to a window-sized picture where the escape codes took
/// 56.1 (README, "kitty on this machine"). Over ssh, inside tmux, or where
/// it did not show that it reads ours, the pixels go in the escape codes.
public enum KittyMedium: String, Sendable, Equatable {
    /// Base64 in the escape codes, in chunks.
    case direct
    /// A POSIX shared-memory object; kitty reads it, then unlinks it.
    case sharedMemory

    /// Our objects' names: kitty's convention for the protocol's files,
    /// then ours, so that one left behind says whose it is.
    static let namePrefix = "/tty-graphics-protocol-urlcache-"

    /// Tells apart the objects one process stages.
    private static let counter = Atomic<Int>(0)

    /// A new object's name: the pid and a count, so that nothing is
    /// overwritten.
    public static func newName() -> String {
        "\(namePrefix)\(getpid())-\(counter.add(1, ordering: .relaxed).newValue)"
    }

    /// Writes `bytes` to a new shared-memory object named `name` (mode
    /// 0600, never an existing one), and returns the name; the errno when
    /// that fails, with nothing left behind.
    public static func stage(_ bytes: [UInt8], name: String = newName()) throws(Errno) -> String {
        // shm_open(3) on Linux is this open(2) in /dev/shm.
        let path = "/dev/shm" + name
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw Errno.current }
        defer { close(fd) }
        do {
            try writeAll(fd, bytes)
        } catch {
            unlink(path)
            throw error
        }
        return name
    }

    /// Removes an object kitty did not take (it unlinks the ones it read).
    public static func discard(_ name: String) {
        unlink("/dev/shm" + name)
    }

    /// Whether the object is still there (kitty has not read it).
    public static func exists(_ name: String) -> Bool {
        access("/dev/shm" + name, F_OK) == 0
    }

    /// kitty's question whether it reads our shared memory: a 1×1 picture
    /// staged in an object, `a=q` (checked, never stored), with image `id`.
    /// The object's name comes back, to discard; nil if none could be made.
    public static func sharedMemoryQuery(id: Int) -> (sequence: [UInt8], name: String)? {
        guard let name = try? stage([0, 0, 0]) else { return nil }
        var encoded: [UInt8] = []
        Base64.encode(Array(name.utf8), into: &encoded)
        return (Array("\u{1B}_Gi=\(id),s=1,v=1,a=q,t=s,S=3,f=24;".utf8) + encoded + [0x1B, UInt8(ascii: "\\")], name)
    }
}

/// A kitty picture whose pixels go by shared memory (`t=s`): staged only
/// when it is sent.
public struct SharedMemoryUpload: Sendable, Equatable {
    /// The keys of the picture (`a=T,f=24,s=…`).
    let control: String
    let pixels: [UInt8]

    /// Stages the pixels in a new object and returns the one short
    /// sequence that names it; nil when the object could not be made.
    public func staged() -> [UInt8]? {
        guard let name = try? KittyMedium.stage(pixels) else { return nil }
        var encoded: [UInt8] = []
        Base64.encode(Array(name.utf8), into: &encoded)
        return Array("\u{1B}_G\(control),t=s,S=\(pixels.count);".utf8) + encoded + [0x1B, UInt8(ascii: "\\")]
    }
}

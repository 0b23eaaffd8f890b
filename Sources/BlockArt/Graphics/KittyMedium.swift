import Synchronization
import URLCacheSupport

#if canImport(Glibc)
import Glibc
#endif

/// How kitty is given a picture's pixels. A terminal on this machine reads
/// them from shared memory (`t=s`), which spares it megabytes of base64 to
/// parse: 24.9 ms to a window-sized picture where the escape codes took
/// 65.3 (README, "kitty on this machine"). Over ssh, inside tmux, or where
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
    private static func newName() -> String {
        "\(namePrefix)\(getpid())-\(counter.add(1, ordering: .relaxed).newValue)"
    }

    /// Writes `bytes` to a new shared-memory object (mode 0600, never an
    /// existing one), and returns its name; the errno when that fails, with
    /// nothing left behind.
    public static func stage(_ bytes: [UInt8]) throws(Errno) -> String {
        let name = newName()
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

    /// Removes an object kitty did not take (it unlinks the ones it read):
    /// whether there was one to remove.
    @discardableResult
    public static func discard(_ name: String) -> Bool {
        unlink("/dev/shm" + name) == 0
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
        return (naming(name, keys: "i=\(id),s=1,v=1,a=q,t=s,S=3,f=24"), name)
    }

    /// The one sequence that hands kitty object `name` with `keys`.
    static func naming(_ name: String, keys: String) -> [UInt8] {
        Array("\u{1B}_G\(keys);".utf8) + Base64.encode(Array(name.utf8)) + [0x1B, UInt8(ascii: "\\")]
    }
}

/// A kitty picture whose pixels go by shared memory (`t=s`): staged only
/// when it is sent, and as base64 in the escape codes where it cannot be
/// (or, with `staging` off, always: an animation frame's pixels kept to
/// be sent either as a picture or as a frame, see `asFrame`).
public struct SharedMemoryUpload: Sendable, Equatable {
    /// The keys of the picture (`a=T,f=24,s=…`).
    let control: String
    let pixels: [UInt8]
    /// zlib for the base64 form, as the picture options said.
    let compress: Bool
    /// The keys each base64 chunk after the first repeats (see
    /// `KittyGraphics.frame`); none for a picture.
    var continuation = ""
    /// Whether the pixels may go by shared memory (kitty on this machine).
    var staging = true
    /// The size in pixels.
    let width: Int, height: Int

    /// The pixels' bytes, what keeping it costs.
    public var byteCount: Int { pixels.count }

    /// The picture as base64 in the escape codes: a send after the first
    /// (kitty unlinks an object once read), or where staging failed.
    public func base64() -> [UInt8] {
        KittyGraphics.transmit(pixels, control: control, compress: compress, continuation: continuation)
    }

    /// By shared memory where it may (a new object each time, so it can be
    /// sent again), else as base64; and the object staged (nil: none), for
    /// `StagedObjects`.
    public func send() -> (bytes: [UInt8], staged: String?) {
        guard staging, let name = try? KittyMedium.stage(pixels) else { return (base64(), nil) }
        return (KittyMedium.naming(name, keys: "\(control),t=s,S=\(pixels.count)"), name)
    }

    /// The same pixels added to image `id` as its next frame, with no gap:
    /// the screen says which frame kitty shows (`KittyGraphics.show`).
    public func asFrame(of id: UInt32) -> SharedMemoryUpload {
        KittyGraphics.frameUpload(
            pixels,
            width: width,
            height: height,
            id: id,
            gap: nil,
            compress: compress,
            staging: staging
        )
    }
}

/// The objects a screen staged for kitty, until kitty has read them (it
/// unlinks each as it reads it). One kitty did not read (it had dropped the
/// image a frame went to, or the command failed before the read) would stay
/// in /dev/shm, in memory, until the machine restarts: those still there
/// after `patience` are removed, and all of them when the screen closes.
public struct StagedObjects: Sendable {
    private var names: [(name: String, at: ContinuousClock.Instant)] = []
    /// How long kitty may take to read an object: a loaded kitty was seen
    /// seconds behind.
    public static let patience = Duration.seconds(20)

    public init() {}

    /// Notes object `name`, staged `at`.
    public mutating func add(_ name: String?, at: ContinuousClock.Instant) {
        guard let name else { return }
        names.append((name, at))
    }

    /// Removes the objects older than `patience` that kitty has not read
    /// (those it read are gone already): how many were removed. Only the
    /// old ones are looked at, one unlink each (they were noted in order):
    /// a refresh with none that old makes no system call.
    @discardableResult
    public mutating func sweep(now: ContinuousClock.Instant, patience: Duration = StagedObjects.patience) -> Int {
        let old = names.prefix { now - $0.at >= patience }
        names.removeFirst(old.count)
        return old.filter { KittyMedium.discard($0.name) }.count
    }
}

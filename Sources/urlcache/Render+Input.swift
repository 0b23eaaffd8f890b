import BlockArt
import FoundationEssentials
import URLCacheKit
import URLCacheSupport

#if canImport(Glibc)
import Glibc
#endif

/// Where `render` takes its picture from: a file, a stream read whole, or
/// a URL's cached copy once the policy has run.
extension Render {
    /// Where the image comes from.
    enum Input {
        case file(String)
        /// A stream read whole: standard input (`-`), a FIFO, `/dev/stdin`,
        /// `<(…)`; `name` says which in messages.
        case bytes([UInt8], name: String)

        /// How messages name it.
        var name: String {
            switch self {
            case let .file(path): return path
            case let .bytes(_, name): return name
            }
        }
    }

    /// The most `render -` reads from standard input, as for a download.
    static let maxInputBytes = TransferLimits().maxBytes

    /// A stream read whole, up to `maxInputBytes`.
    static func readStream(_ fd: Int32, name: String) throws(Failure) -> Input {
        let data: [UInt8]
        do { data = try Posix.read(fd, stoppingPast: Int(maxInputBytes)) } catch { throw .failed("\(name): \(error)") }
        guard data.count <= maxInputBytes else {
            throw .failed("\(name): image larger than the \(ByteCount.format(maxInputBytes)) limit")
        }
        return .bytes(data, name: name)
    }

    /// A file path as given, standard input for `-`, or a URL's cached
    /// image after the policy ran.
    func resolveImage() throws(Failure) -> Input {
        if image == "-" { return try Render.readStream(STDIN_FILENO, name: "stdin") }
        // A path that is no regular file (a FIFO, /dev/stdin, <(…)) cannot
        // be read twice or rewound, as the decoders do a file: read it as a
        // stream, as `-` is.
        var info = stat()
        if stat(image, &info) == 0, info.st_mode & S_IFMT != S_IFREG, info.st_mode & S_IFMT != S_IFDIR {
            let fd: Int32
            do { fd = try Posix.open(image, O_RDONLY) } catch { throw .failed("\(image): \(error)") }
            defer { close(fd) }
            return try Render.readStream(fd, name: image)
        }
        guard image.lowercased().hasPrefix("http://") || image.lowercased().hasPrefix("https://") else {
            guard FileManager.default.fileExists(atPath: image) else {
                throw .usage("\(image): no such file")
            }
            return .file(image)
        }
        let url: URL
        do { url = try ImageURL.validate(image, index: 1, source: "argument") } catch {
            throw .usage(error.description)
        }
        // The list only lends its settings (timeouts, size limit, interval):
        // a broken list named with --config is an error, a broken default one is not.
        let urls: URLList
        do { urls = try list.loadList() } catch {
            if list.config != nil { throw error }
            urls = URLList(entries: [URLEntry(url: url)], source: "argument")
        }
        let pool = FetchPool(controller: policy.controller(cache: list.cache, list: urls), inFlight: 1)
        let report = Interruption.catching { isCancelled in
            pool.display([URLEntry(url: url)], force: force, isCancelled: isCancelled)[0]
        }
        if case let .failure(error) = report.result {
            guard report.copy != nil else { throw .failed("\(image): \(error.description)") }
            printError("urlcache: \(image): \(error.description) (showing the cached copy)")
        }
        guard let copy = report.copy else { throw .failed("\(image): nothing cached") }
        return .file(copy.imagePath)
    }
}

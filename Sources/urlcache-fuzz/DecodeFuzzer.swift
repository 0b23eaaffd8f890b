import BlockArt
import Foundation
import URLCacheKit
import URLCacheSupport

// The decoders, the feed readers and the cache's record reader under
// libFuzzer: any bytes go through the same path as a cached file (sniff,
// libpng or libjpeg through the C shim, the box filter, the renderer),
// through each feed reader (JSON key paths, RSS/Atom, HTML), and through
// the `.meta` reader, whose files anyone who can write the cache can edit. Scripts/fuzz builds this with
// -sanitize=fuzzer,address and -DFUZZING; built plainly it replays files
// given on the command line.

let feedURL = URL(string: "https://feeds.test/daily/feed.xml")!

/// One input through the three feed readers: a FeedError or an item, never
/// a crash or a hang.
func readFeedOnce(_ bytes: [UInt8]) {
    for kind in [FeedKind.json, .xml, .html] {
        _ = try? FeedReader.read(bytes, as: kind, feedURL: feedURL, select: nil)
    }
    _ = try? FeedReader.read(bytes, as: .json, feedURL: feedURL, select: "images.0.url")
}

/// One input as an HTTP date (strict) and a feed date (lenient): nil or a
/// date, never a crash, however long or odd the text.
func readDatesOnce(_ bytes: [UInt8]) {
    let text = String(decoding: bytes.prefix(256), as: UTF8.self)
    _ = HTTPDate.parse(text)
    _ = FeedDates.parse(text)
}

/// One input as a cache record: nil or a record whose every string
/// prints terminal-safe, never a crash.
func readRecordOnce(_ bytes: [UInt8]) {
    guard let record = CacheRecord.decode(Data(bytes)) else { return }
    let strings = [
        record.url, record.image.validators.etag, record.image.validators.lastModified, record.image.contentType,
        record.image.url, record.feedValidators.etag,
        record.feedValidators.lastModified, record.caption.title, record.caption.credit, record.caption.description,
        record.caption.link,
        record.freshness.cacheControl, record.freshness.expires, record.freshness.lifetime?.reason,
    ]
    for text in strings.compactMap({ $0 }) where text.terminalSafe.unicodeScalars.contains(where: { $0.value < 0x20 }) {
        fatalError("a control character survived terminalSafe")
    }
}

/// One input: must never crash, hang or leak, whatever the bytes.
func decodeOnce(_ bytes: [UInt8]) {
    // Small limits keep each run quick; the limit checks themselves are fuzzed too.
    let limits = DecodeLimits(maxDimension: 8192, maxPixels: 1_000_000)
    guard
        let image = try? ImageDecoder.decode(
            bytes: bytes,
            limits: limits,
            size: { info in
                PixelSize(width: min(info.width, 48), height: min(info.height, 48))
            }
        )
    else { return }
    _ = Renderer.render(
        image.pixmap,
        columns: 12,
        rows: 6,
        options: RenderOptions(symbols: .quadrants, colors: .palette256, dither: .diffusion)
    )
}

/// Where `animateOnce` puts its input: the animation decoder reads files.
let animationPath = NSTemporaryDirectory() + "urlcache-fuzz-\(getpid()).anim"

/// One input as an animation (GIF, WebP, APNG, AVIF): every frame of two
/// loops composed, under small limits, never a crash, hang or leak.
func animateOnce(_ bytes: [UInt8]) {
    guard FileManager.default.createFile(atPath: animationPath, contents: Data(bytes)) else { return }
    var limits = AnimationLimits()
    limits.maxFrames = 16
    limits.maxFramePixels = 2_000_000
    guard
        let animation = try? AnimationDecoder.open(
            path: animationPath,
            limits: DecodeLimits(maxDimension: 8192, maxPixels: 1_000_000),
            animation: limits,
            size: { info in PixelSize(width: min(info.width, 16), height: min(info.height, 16)) }
        )
    else { return }
    for _ in 0..<2 {
        while (try? animation.next()) ?? nil != nil {}
        try? animation.rewind()
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    decodeOnce(bytes)
    animateOnce(bytes)
    readFeedOnce(bytes)
    readRecordOnce(bytes)
    readDatesOnce(bytes)
    return 0
}

#if FUZZING
// SwiftPM links an executable's entry point under the name
// `<module>_main` (so tests can link it); libFuzzer's driver runs from there.
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

@_cdecl("urlcache_fuzz_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var count = argc
    var arguments = argv
    return LLVMFuzzerRunDriver(&count, &arguments) { data, size in fuzzerTestOneInput(data, size) }
}
#else
/// Replays inputs (files, or every file in directories): the regression run.
@main
struct Replay {
    static func main() {
        var count = 0
        for argument in CommandLine.arguments.dropFirst() {
            var paths = [argument]
            if let names = try? FileManager.default.contentsOfDirectory(atPath: argument) {
                paths = names.sorted().map { argument + "/" + $0 }
            }
            for path in paths {
                guard let data = FileManager.default.contents(atPath: path) else { continue }
                decodeOnce(Array(data))
                readFeedOnce(Array(data))
                readRecordOnce(Array(data))
                readDatesOnce(Array(data))
                count += 1
            }
        }
        print("replayed \(count) inputs")
    }
}
#endif

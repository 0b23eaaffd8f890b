import BlockArt

// The decoders under libFuzzer: any bytes go through the same path as a
// cached file (sniff, libpng or libjpeg through the C shim, the box filter,
// the renderer). Scripts/fuzz builds this with -sanitize=fuzzer,address and
// -DFUZZING; built plainly it replays files given on the command line.

/// One input: must never crash, hang or leak, whatever the bytes.
func decodeOnce(_ bytes: [UInt8]) {
    // Small limits keep each run quick; the limit checks themselves are fuzzed too.
    let limits = DecodeLimits(maxDimension: 8192, maxPixels: 1_000_000)
    guard let image = try? ImageDecoder.decode(bytes: bytes, limits: limits, size: { info in
        (min(info.width, 48), min(info.height, 48))
    }) else { return }
    _ = Renderer.render(image.pixmap, columns: 12, rows: 6, options: RenderOptions(symbols: .quadrants, colors: .palette256, dither: .diffusion))
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    decodeOnce(data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
    return 0
}

#if FUZZING
// SwiftPM links an executable's entry point under the name
// `<module>_main` (so tests can link it); libFuzzer's driver runs from there.
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(_ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
                         _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> CInt

@_cdecl("urlcache_fuzz_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var count = argc
    var arguments = argv
    return LLVMFuzzerRunDriver(&count, &arguments) { data, size in fuzzerTestOneInput(data, size) }
}
#else
import Foundation

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
                count += 1
            }
        }
        print("replayed \(count) inputs")
    }
}
#endif

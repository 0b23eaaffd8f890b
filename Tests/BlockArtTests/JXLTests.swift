import Foundation
import URLCacheTestSupport
import XCTest

@testable import BlockArt

/// JPEG XL through libjxl (make-jxl.sh made the fixtures with libjxl's own
/// tools): a lossy still and an animation as djxl decodes them, and damage
/// one clear line, with nothing of
/// libjxl's own printing.
final class JXLTests: XCTestCase {
    private func path(_ name: String) -> String { Fixtures.formats.appendingPathComponent(name).path }

    private func largestDifference(_ a: Pixmap, _ b: Pixmap) -> Float {
        guard a.width == b.width, a.height == b.height else { return .infinity }
        return zip(a.values, b.values).map { abs($0 - $1) }.max() ?? 0
    }

    private func frames(_ name: String) throws -> (AnimationDecoder, [AnimationFrame]) {
        let decoder = try AnimationDecoder.open(path: path(name)) { PixelSize(width: $0.width, height: $0.height) }
        guard let decoder else { throw XCTSkip("\(name) is not an animation") }
        var frames: [AnimationFrame] = []
        while let frame = try decoder.next() { frames.append(frame) }
        return (decoder, frames)
    }

    func testALossyStillDecodesAsDjxlDoes() throws {
        let full = { (p: String) in try ImageDecoder.decode(path: p) { PixelSize(width: $0.width, height: $0.height) } }
        let image = try full(path("still.jxl"))
        XCTAssertEqual(image.info, SourceInfo(format: .jxl, width: 96, height: 64))
        // One sRGB level apart at most: djxl rounds its own way.
        XCTAssertLessThan(largestDifference(image.pixmap, try full(path("still.jxl.ref.png")).pixmap), 0.01)
        XCTAssertNil(try AnimationDecoder.open(path: path("still.jxl")) { _ in PixelSize(width: 8, height: 8) })
    }

    func testAnAnimationPlaysAsDjxlComposesIt() throws {
        let (jxl, composed) = try frames("animated.jxl")
        let (_, gif) = try frames("animated.gif")
        XCTAssertEqual(jxl.info.format, .jxl)
        XCTAssertEqual(composed.count, 6)
        XCTAssertEqual(composed.map(\.delay), gif.map(\.delay), "the GIF's delays")
        for frame in composed {
            let reference = try ImageDecoder.decode(path: path("animated.jxl.frame\(frame.index).ref.png")) {
                PixelSize(width: $0.width, height: $0.height)
            }
            XCTAssertLessThan(largestDifference(frame.pixmap, reference.pixmap), 1e-5, "frame \(frame.index)")
        }
        try jxl.rewind()
        let again = try XCTUnwrap(try jxl.next())
        XCTAssertEqual(largestDifference(again.pixmap, composed[0].pixmap), 0)
    }

    func testDamageIsOneClearLine() throws {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path("still.jxl")))
        var flipped = bytes
        flipped[500] ^= 0xFF
        flipped[900] ^= 0x55
        for (name, data) in [("cut", bytes.prefix(1000)), ("flipped", flipped)] {
            let file = NSTemporaryDirectory() + "\(name)-\(getpid()).jxl"
            try data.write(to: URL(fileURLWithPath: file))
            defer { unlink(file) }
            XCTAssertThrowsError(try ImageDecoder.decode(path: file) { _ in PixelSize(width: 8, height: 8) }) {
                XCTAssertEqual("\($0)", "corrupt JPEG XL image: libjxl could not decode it", name)
            }
        }
        XCTAssertEqual(ImageFormat.sniff([0xFF, 0x0A, 0x00]), .jxl, "a bare codestream")
        XCTAssertEqual(ImageFormat.sniff([0, 0, 0, 0x0C] + Array("JXL \r\n".utf8) + [0x87, 0x0A]), .jxl)
    }
}

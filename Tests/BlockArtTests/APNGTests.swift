import Foundation
import URLCacheTestSupport
import XCTest

@testable import BlockArt

/// APNG, read in our own code and each frame decoded by libpng: frames
/// composed into the canvases Pillow's writer was given (make-apng.py),
/// the loop count and delays from acTL and fcTL, the default image as the
/// still, and a damaged frame ending the loop with a warning.
final class APNGTests: XCTestCase {
    private func path(_ name: String) -> String { Fixtures.formats.appendingPathComponent(name).path }

    /// One loop's frames at the canvas's size, and the decoder.
    private func play(_ name: String) throws -> (AnimationDecoder, [AnimationFrame]) {
        let decoder = try AnimationDecoder.open(path: path(name)) { PixelSize(width: $0.width, height: $0.height) }
        guard let decoder else { throw XCTSkip("\(name) is not an animation") }
        var frames: [AnimationFrame] = []
        while let frame = try decoder.next() { frames.append(frame) }
        return (decoder, frames)
    }

    private func largestDifference(_ a: Pixmap, _ b: Pixmap) -> Float {
        guard a.width == b.width, a.height == b.height else { return .infinity }
        return zip(a.values, b.values).map { abs($0 - $1) }.max() ?? 0
    }

    func testFramesComposeIntoTheCanvasesTheWriterWasGiven() throws {
        let (decoder, frames) = try play("animated.apng")
        XCTAssertEqual(decoder.info.format, .png)
        XCTAssertEqual(frames.count, 4)
        XCTAssertEqual(decoder.loopCount, 2)
        XCTAssertEqual(frames.map(\.delay), [100, 150, 200, 250].map { .milliseconds($0) })
        for frame in frames {
            let reference = try ImageDecoder.decode(path: path("animated.apng.frame\(frame.index).ref.png")) {
                PixelSize(width: $0.width, height: $0.height)
            }
            XCTAssertLessThan(largestDifference(frame.pixmap, reference.pixmap), 1e-5, "frame \(frame.index)")
        }
        XCTAssertEqual(decoder.warnings, [])
        // The second loop is the first again.
        try decoder.rewind()
        let again = try XCTUnwrap(try decoder.next())
        XCTAssertEqual(largestDifference(again.pixmap, frames[0].pixmap), 0)
    }

    func testTheStillIsTheDefaultImageAndItIsNoFrame() throws {
        let (_, frames) = try play("default-image.apng")
        XCTAssertEqual(frames.count, 4, "the IDAT image is not among them")
        let still = try ImageDecoder.decode(path: path("default-image.apng")) { _ in PixelSize(width: 4, height: 3) }
        XCTAssertEqual(
            still.pixmap.values.prefix(3).map { ($0 * 100).rounded() },
            [100, 0, 0],
            "the red default image"
        )
        let first = try ImageDecoder.decode(path: path("animated.apng")) {
            PixelSize(width: $0.width, height: $0.height)
        }
        XCTAssertEqual(largestDifference(first.pixmap, frames[0].pixmap), 0, "render shows frame 0")
    }

    func testADamagedFrameEndsTheLoopWithAWarning() throws {
        let (decoder, frames) = try play("damaged.apng")
        XCTAssertEqual(frames.count, 3)
        XCTAssertEqual(decoder.warnings, [.damagedFrame(format: "APNG", frame: 3)])
        XCTAssertEqual(decoder.warnings.first?.description, "APNG frame 4 is damaged: playing the 3 before it")
    }

    func testAPlainPNGIsNoAnimation() throws {
        let png = Fixtures.pngsuite.appendingPathComponent("basn6a08.png").path
        XCTAssertNil(try AnimationDecoder.open(path: png) { PixelSize(width: $0.width, height: $0.height) })
    }
}

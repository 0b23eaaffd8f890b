import Foundation
import URLCacheTestSupport
import XCTest

@testable import BlockArt

/// Animations: frames composed as gifsicle composes them (every disposal
/// mode), WebP's own composition, delays, loops and the limits.
final class AnimationTests: XCTestCase {
    static func path(_ name: String) -> String { Fixtures.formats.appendingPathComponent(name).path }

    /// Every frame of one loop at the canvas's own size.
    private func frames(
        _ name: String,
        limits: AnimationLimits = AnimationLimits()
    ) throws -> (AnimationDecoder, [AnimationFrame]) {
        guard
            let animation = try AnimationDecoder.open(
                path: AnimationTests.path(name),
                animation: limits,
                size: { PixelSize(width: $0.width, height: $0.height) }
            )
        else { throw XCTSkip("\(name) is not an animation") }
        var frames: [AnimationFrame] = []
        while let frame = try animation.next() { frames.append(frame) }
        return (animation, frames)
    }

    private func largestDifference(_ a: Pixmap, _ b: Pixmap) -> Float {
        guard a.width == b.width, a.height == b.height else { return .infinity }
        return zip(a.values, b.values).map { abs($0 - $1) }.max() ?? 0
    }

    func testGIFDisposalComposesAsGifsicleDoes() throws {
        for name in ["animated.gif", "animated-cropped.gif"] {
            let (_, composed) = try frames(name)
            let (_, reference) = try frames(name.replacingOccurrences(of: ".gif", with: ".ref.gif"))
            XCTAssertEqual(composed.count, 6, name)
            XCTAssertEqual(composed.count, reference.count, name)
            for (a, b) in zip(composed, reference) {
                XCTAssertLessThan(largestDifference(a.pixmap, b.pixmap), 1e-5, "\(name) frame \(a.index)")
            }
        }
    }

    /// A frame passed over is still composed: the frames after it come out
    /// as they do when every frame is read (every disposal mode, and WebP's
    /// blending), and only its delay is given.
    /// Frames that cover the screen with no transparent pixel are kept as
    /// indices, not painted, until a frame needs what they left: each
    /// disposal after one, and a frame that shows through, composes as if
    /// every frame had been painted.
    func testFramesKeptAsIndicesComposeAsPaintedOnes() throws {
        let (w, h) = (8, 6)
        let flat = { (value: UInt8) in [UInt8](repeating: value, count: w * h) }
        let patch = GIFEncoder.Frame(left: 2, top: 1, width: 3, height: 2, pixels: [9, 9, 9, 9, 0, 9], transparent: 0)
        var holed = flat(5)
        holed[w + 1] = 0
        let frames: [GIFEncoder.Frame] = [
            .init(width: w, height: h, pixels: flat(3)),  // kept as indices
            patch,  // 3 with a patch of 9
            .init(width: w, height: h, pixels: flat(7), disposal: 3),  // restores (3 + patch)
            .init(width: w, height: h, pixels: holed, transparent: 0),  // 5, (1, 1) shows 9 from under
            .init(width: w, height: h, pixels: flat(12), disposal: 2),  // cleared to the background
            patch,
        ]
        let path = NSTemporaryDirectory() + "covering-\(getpid()).gif"
        try Data(GIFEncoder.animation(width: w, height: h, frames: frames)).write(to: URL(fileURLWithPath: path))
        defer { unlink(path) }
        let red = RGB8(255, 0, 0)
        guard
            let decoder = try AnimationDecoder.open(
                path: path,
                background: red,
                size: { _ in PixelSize(width: w, height: h) }
            )
        else {
            return XCTFail("not an animation")
        }
        // (The encoder's palette: entry i is red i·255/15.)
        let gray = { (i: Int) in ColorSpace.toLinear[i * 255 / 15] }
        let background = LinearRGB(srgb: red)
        // The expected screens, as RGB in linear light, index nil for background.
        func screen(_ index: (Int, Int) -> Int?) -> [Float] {
            (0..<h).flatMap { y in
                (0..<w).flatMap { x -> [Float] in
                    guard let i = index(x, y) else { return [background.r, background.g, background.b] }
                    return [gray(i), 0, 0]
                }
            }
        }
        let inPatch = { (x: Int, y: Int) in (2..<5).contains(x) && (1..<3).contains(y) && !(x == 3 && y == 2) }
        let expected: [[Float]] = [
            screen { _, _ in 3 },
            screen { x, y in inPatch(x, y) ? 9 : 3 },
            screen { _, _ in 7 },
            screen { x, y in x == 1 && y == 1 ? 3 : 5 },
            screen { _, _ in 12 },
            screen { x, y in inPatch(x, y) ? 9 : nil },
        ]
        for (n, want) in expected.enumerated() {
            guard let frame = try decoder.next() else { return XCTFail("frame \(n) missing") }
            let worst = zip(frame.pixmap.values, want).map { abs($0 - $1) }.max() ?? 1
            XCTAssertLessThan(worst, 1e-5, "frame \(n)")
        }
    }

    func testFramesPassedOverAreComposedAndTheRestComeOutTheSame() throws {
        for name in ["animated.gif", "animated-cropped.gif", "animated.webp"] {
            let (_, every) = try frames(name)
            let animation = try XCTUnwrap(
                try AnimationDecoder.open(
                    path: AnimationTests.path(name),
                    size: { PixelSize(width: $0.width, height: $0.height) }
                )
            )
            var shown: [AnimationFrame] = []
            var passed: [Duration] = []
            // Frames 1, 2 and 4 passed over.
            while let step = try animation.next(passingOver: { _ in [1, 2, 4].contains(shown.count + passed.count) }) {
                switch step {
                case let .frame(frame): shown.append(frame)
                case let .passedOver(delay): passed.append(delay)
                }
            }
            XCTAssertEqual(shown.map(\.index), [0, 3, 5], name)
            XCTAssertEqual(passed, [1, 2, 4].map { every[$0].delay }, name)
            for frame in shown {
                XCTAssertEqual(
                    largestDifference(frame.pixmap, every[frame.index].pixmap),
                    0,
                    "\(name) frame \(frame.index)"
                )
            }
        }
    }

    /// PIL composes GIFs with code of its own: frames 0–3 (background and
    /// previous disposal among them) match it. Past frame 3 PIL keeps frame
    /// 2's "restore to previous" for a frame whose disposal is unspecified,
    /// where giflib, libwebp and gifsicle all leave the frame in place.
    func testGIFFramesMatchPILs() throws {
        let (_, composed) = try frames("animated.gif")
        for frame in composed.prefix(4) {
            let reference = try ImageDecoder.decode(
                path: AnimationTests.path("animated.gif.frame\(frame.index).ref.png")
            ) { PixelSize(width: $0.width, height: $0.height) }
            XCTAssertLessThan(largestDifference(frame.pixmap, reference.pixmap), 1e-5, "frame \(frame.index)")
        }
    }

    func testAnimatedWebPMatchesTheGIFItWasMadeFrom() throws {
        let (webp, composed) = try frames("animated.webp")
        let (_, reference) = try frames("animated-cropped.ref.gif")
        XCTAssertEqual(webp.info.format, .webp)
        XCTAssertEqual(composed.count, reference.count)
        for (a, b) in zip(composed, reference) {
            XCTAssertLessThan(largestDifference(a.pixmap, b.pixmap), 1e-5, "frame \(a.index)")
        }
        XCTAssertEqual(composed.map(\.delay), Array(repeating: .milliseconds(40), count: composed.count))
    }

    func testLoopsAndRewinding() throws {
        let (animation, first) = try frames("animated.gif")
        XCTAssertEqual(animation.loopCount, 0, "NETSCAPE2.0 with 0: forever")
        try animation.rewind()
        var again: [AnimationFrame] = []
        while let frame = try animation.next() { again.append(frame) }
        XCTAssertEqual(again.count, first.count)
        XCTAssertEqual(again.last?.pixmap, first.last?.pixmap)
    }

    func testStillsAreNoAnimation() throws {
        for name in ["still.gif", "lossy.webp", "still.avif"] {
            XCTAssertNil(
                try AnimationDecoder.open(
                    path: AnimationTests.path(name),
                    size: { PixelSize(width: $0.width, height: $0.height) }
                ),
                name
            )
        }
    }

    func testTinyDelaysAreShownAsBrowsersShowThem() {
        XCTAssertEqual(AnimationDecoder.shownDelay(milliseconds: 0), .milliseconds(100))
        XCTAssertEqual(AnimationDecoder.shownDelay(milliseconds: 10), .milliseconds(100))
        XCTAssertEqual(AnimationDecoder.shownDelay(milliseconds: 20), .milliseconds(20))
        XCTAssertEqual(AnimationDecoder.shownDelay(milliseconds: 40), .milliseconds(40))
    }

    /// 20,000 one-pixel frames: the loop stops at the frame limit with a
    /// warning, and nothing grows with the frames.
    func testTwentyThousandFramesStopAtTheLimit() throws {
        var bytes = Array("GIF89a".utf8) + [1, 0, 1, 0, 0x80, 0, 0, 0, 0, 0, 255, 255, 255]
        bytes += [0x21, 0xFF, 11] + Array("NETSCAPE2.0".utf8) + [3, 1, 0, 0, 0]
        for i in 0..<20_000 {
            bytes += [0x21, 0xF9, 4, 0, 2, 0, 0, 0]
            bytes += [0x2C, 0, 0, 0, 0, 1, 0, 1, 0, 0, 2, 2, i % 2 == 0 ? 0x4C : 0x44, 0x01, 0]
        }
        bytes.append(0x3B)
        let file = NSTemporaryDirectory() + "urlcache-many-\(getpid()).gif"
        try Data(bytes).write(to: URL(fileURLWithPath: file))
        defer { try? FileManager.default.removeItem(atPath: file) }
        let animation = try XCTUnwrap(
            try AnimationDecoder.open(path: file, size: { _ in PixelSize(width: 1, height: 1) })
        )
        var count = 0
        while try animation.next() != nil { count += 1 }
        XCTAssertEqual(count, AnimationLimits().maxFrames)
        XCTAssertEqual(animation.warnings, [.animationCut(frames: AnimationLimits().maxFrames)])
    }

    func testChangedCellsAloneAreRewritten() {
        let plain = Cell(glyph: " ", foreground: .default, background: .index(1))
        let old = CellGrid(columns: 4, rows: 3, cells: Array(repeating: plain, count: 12))
        var cells = old.cells
        cells[1 * 4 + 2] = Cell(glyph: "▀", foreground: .index(2), background: .index(1))
        let text = String(
            decoding: AnsiWriter.changedBytes(from: old, to: CellGrid(columns: 4, rows: 3, cells: cells)),
            as: UTF8.self
        )
        XCTAssertEqual(text, "\u{1B}[2A\r\u{1B}[2C\u{1B}[0m\u{1B}[32;41m▀\u{1B}[0m\u{1B}[2B\r")
        XCTAssertEqual(AnsiWriter.changedBytes(from: old, to: old), [])
    }
}

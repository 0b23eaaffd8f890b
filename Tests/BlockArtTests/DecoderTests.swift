import Foundation
import URLCacheTestSupport
import XCTest

@testable import BlockArt

/// JPEG variants, orientation, bad files and the size guard.
final class DecoderTests: XCTestCase {
    static func jpeg(_ name: String) -> String { Fixtures.jpeg.appendingPathComponent(name).path }
    static func image(_ name: String) -> String { Fixtures.images.appendingPathComponent(name).path }

    /// Full size, as sRGB bytes.
    private func pixels(_ path: String) throws -> (width: Int, height: Int, rgb: [UInt8]) {
        let decoded = try ImageDecoder.decode(path: path) { PixelSize(width: $0.width, height: $0.height) }
        var rgb: [UInt8] = []
        for v in decoded.pixmap.values { rgb.append(ColorSpace.toSRGB(v)) }
        return (decoded.pixmap.width, decoded.pixmap.height, rgb)
    }

    private func assertClose(
        _ path: String,
        to reference: String,
        tolerance: Double = 6,
        file: StaticString = #filePath,
        line: UInt = #line
    ) throws {
        let a = try pixels(path)
        let b = try pixels(reference)
        XCTAssertEqual(a.width, b.width, path, file: file, line: line)
        XCTAssertEqual(a.height, b.height, path, file: file, line: line)
        guard a.rgb.count == b.rgb.count else { return }
        let meanError = zip(a.rgb, b.rgb).map { abs(Double($0) - Double($1)) }.reduce(0, +) / Double(a.rgb.count)
        XCTAssertLessThan(meanError, tolerance, "\(path): mean abs error \(meanError)", file: file, line: line)
    }

    func testBaselineProgressiveAndGrayJPEG() throws {
        try assertClose(DecoderTests.jpeg("baseline.jpg"), to: DecoderTests.jpeg("reference.png"))
        try assertClose(DecoderTests.jpeg("progressive.jpg"), to: DecoderTests.jpeg("reference.png"))
        try assertClose(DecoderTests.jpeg("gray.jpg"), to: DecoderTests.jpeg("gray.png"))
    }

    func testAdobeCMYKJPEG() throws {
        try assertClose(DecoderTests.jpeg("cmyk.jpg"), to: DecoderTests.jpeg("reference.png"), tolerance: 10)
    }

    /// YCCK (Adobe transform 2): libjpeg turns it back into CMYK, the shim into RGB.
    func testAdobeYCCKJPEG() throws {
        try assertClose(DecoderTests.jpeg("ycck.jpg"), to: DecoderTests.jpeg("reference.png"), tolerance: 10)
    }

    func testEveryEXIFOrientationStandsUpright() throws {
        for orientation in 1...8 {
            try assertClose(DecoderTests.jpeg("orientation\(orientation).jpg"), to: DecoderTests.jpeg("reference.png"))
        }
    }

    func testDCTScalingDecodesSmallerButAtLeastTheSizeAsked() throws {
        let decoded = try ImageDecoder.decode(path: DecoderTests.jpeg("baseline.jpg")) { _ in
            PixelSize(width: 12, height: 8)
        }
        XCTAssertEqual(decoded.pixmap.width, 12)
        XCTAssertEqual(decoded.info.width, 48, "the header's size is reported")
    }

    func testBadFilesSayWhatTheyAre() {
        let cases: [(String, String)] = [
            (DecoderTests.image("empty.png"), "unsupported image format: empty file"),
            (DecoderTests.image("page-saved-as.png"), "unsupported image format: HTML text"),
            (DecoderTests.image("tiny.gif"), "corrupt GIF image: no image in the file"),
            (DecoderTests.image("bomb.png"), "image too large: 100000×100000"),
            (DecoderTests.jpeg("corrupt.jpg"), "corrupt JPEG image: "),
        ]
        for (path, expected) in cases {
            XCTAssertThrowsError(
                try ImageDecoder.decode(path: path) { PixelSize(width: $0.width, height: $0.height) },
                path
            ) { error in
                XCTAssertTrue("\(error)".hasPrefix(expected), "\(path): \(error)")
            }
        }
    }

    func testTruncatedJPEGShowsWhatCouldBeDecoded() throws {
        let decoded = try ImageDecoder.decode(path: DecoderTests.jpeg("truncated.jpg")) {
            PixelSize(width: $0.width, height: $0.height)
        }
        XCTAssertEqual(decoded.pixmap.width, 48, "like a browser, the top of a cut-short JPEG is shown")
    }

    func testTruncatedPNGFails() throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: DecoderTests.image("sun.png")))
        XCTAssertThrowsError(
            try ImageDecoder.decode(bytes: Array(data.prefix(data.count / 2))) {
                PixelSize(width: $0.width, height: $0.height)
            }
        ) { error in
            XCTAssertTrue("\(error)".contains("truncated"), "\(error)")
        }
    }

    func testPixelLimitIsConfigurable() {
        let limits = DecodeLimits(maxDimension: 65_535, maxPixels: 1000)
        XCTAssertThrowsError(
            try ImageDecoder.decode(path: DecoderTests.image("sun.png"), limits: limits) {
                PixelSize(width: $0.width, height: $0.height)
            }
        ) { error in
            XCTAssertEqual("\(error)", "image too large: 40×40")
        }
    }

    func testTransparencyIsCompositedOverTheBackground() throws {
        // sun.png's top-left pixel is fully transparent.
        let red = RGB8(255, 0, 0)
        let decoded = try ImageDecoder.decode(path: DecoderTests.image("sun.png"), background: red) {
            PixelSize(width: $0.width, height: $0.height)
        }
        XCTAssertEqual(decoded.pixmap[0, 0].srgb, red)
    }
}

/// Every input the fuzzer ever found (Scripts/fuzz copies them to
/// Tests/Fixtures/fuzz/) stays a clean error or a picture, never a crash.
final class FuzzRegressionTests: XCTestCase {
    func testFuzzFindingsStayFixed() throws {
        let dir = Fixtures.fuzz
        let names = (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []
        for name in names.sorted() {
            let bytes = try [UInt8](Data(contentsOf: dir.appendingPathComponent(name)))
            do {
                let image = try ImageDecoder.decode(
                    bytes: bytes,
                    limits: DecodeLimits(maxDimension: 8192, maxPixels: 1_000_000)
                ) {
                    PixelSize(width: min($0.width, 48), height: min($0.height, 48))
                }
                _ = Renderer.render(
                    image.pixmap,
                    columns: 12,
                    rows: 6,
                    options: RenderOptions(colors: .palette256, dither: .diffusion)
                )
            } catch {
                XCTAssertFalse("\(error)".isEmpty, name)
            }
            try animate(dir.appendingPathComponent(name).path)
        }
    }

    /// A finding as an animation, as the fuzzer plays it: two loops under
    /// small limits (an APNG chunk that claimed 2 GiB once asked for them).
    private func animate(_ path: String) throws {
        var limits = AnimationLimits()
        limits.maxFrames = 16
        let decoder = try? AnimationDecoder.open(
            path: path,
            limits: DecodeLimits(maxDimension: 8192, maxPixels: 1_000_000),
            animation: limits
        ) { PixelSize(width: min($0.width, 16), height: min($0.height, 16)) }
        guard let decoder else { return }
        for _ in 0..<2 {
            while (try? decoder.next()) ?? nil != nil {}
            try? decoder.rewind()
        }
    }

    /// Text from a file is made safe as all outside text is (TerminalSafe).
    func testDecoderMessagesFollowTheSameRule() {
        let error = DecodeError.corrupt(format: "PNG", message: "bad\u{1B}]0;x\u{07}\u{202E}chunk\ttype")
        XCTAssertEqual(error.description, "corrupt PNG image: bad\u{FFFD}]0;x\u{FFFD}\u{FFFD}chunk type")
    }
}

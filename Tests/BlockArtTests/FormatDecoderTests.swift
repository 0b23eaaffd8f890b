import Foundation
import URLCacheTestSupport
import XCTest

@testable import BlockArt

/// GIF, WebP and AVIF stills against what their own tools decode them to,
/// and the hostile files the issue names.
final class FormatDecoderTests: XCTestCase {
    static func path(_ name: String) -> String { Fixtures.formats.appendingPathComponent(name).path }

    /// Full-size RGBA, with the colour of fully transparent pixels zeroed
    /// (tools differ in what they leave there).
    private func rgba(_ name: String) throws -> (width: Int, height: Int, pixels: [UInt8]) {
        var image = try ImageDecoder.decodeRGBA8(path: FormatDecoderTests.path(name))
        for i in stride(from: 0, to: image.pixels.count, by: 4) where image.pixels[i + 3] == 0 {
            image.pixels.replaceSubrange(i..<i + 3, with: [0, 0, 0])
        }
        return image
    }

    private func assertMatches(
        _ name: String,
        reference: String? = nil,
        tolerance: Int = 0,
        file: StaticString = #filePath,
        line: UInt = #line
    ) throws {
        let a = try rgba(name)
        let b = try rgba(reference ?? name + ".ref.png")
        XCTAssertEqual(a.width, b.width, name, file: file, line: line)
        XCTAssertEqual(a.height, b.height, name, file: file, line: line)
        guard a.pixels.count == b.pixels.count else { return }
        let worst = zip(a.pixels, b.pixels).map { abs(Int($0) - Int($1)) }.max() ?? 0
        XCTAssertLessThanOrEqual(worst, tolerance, "\(name): largest difference \(worst)", file: file, line: line)
    }

    func testGIFStillsMatchTheirPalettes() throws {
        try assertMatches("still.gif")
        try assertMatches("interlaced.gif", reference: "still.gif.ref.png")
        try assertMatches("transparent.gif")
    }

    func testAFramePlacedInALargerScreenLeavesTheRestTransparent() throws {
        let image = try rgba("screen.gif")
        let frame = try rgba("transparent.gif")
        XCTAssertEqual(image.width, 100)
        XCTAssertEqual(image.height, 80)
        XCTAssertEqual(image.pixels[3], 0, "the screen's corner is not covered by the frame")
        let rows = (0..<frame.height).filter { y in
            image.pixels[((y + 15) * 100 + 20) * 4..<((y + 15) * 100 + 20 + frame.width) * 4]
                != frame.pixels[y * frame.width * 4..<(y + 1) * frame.width * 4]
        }
        XCTAssertEqual(rows, [], "rows of the frame not where it was placed")
    }

    /// Interlaced rows arrive out of order: scaled down, they add up to the
    /// same picture as the plain file's.
    func testInterlacedGIFScalesLikeThePlainOne() throws {
        let size: (SourceInfo) -> PixelSize = { _ in PixelSize(width: 37, height: 23) }
        let plain = try ImageDecoder.decode(path: FormatDecoderTests.path("still.gif"), size: size)
        let interlaced = try ImageDecoder.decode(path: FormatDecoderTests.path("interlaced.gif"), size: size)
        let worst = zip(plain.pixmap.values, interlaced.pixmap.values).map { abs($0 - $1) }.max() ?? 1
        XCTAssertLessThan(worst, 1e-4)
        let placed = try ImageDecoder.decode(
            path: FormatDecoderTests.path("screen.gif"),
            size: { _ in PixelSize(width: 13, height: 7) }
        )
        XCTAssertEqual(placed.pixmap.width, 13)
    }

    func testWebPMatchesLibwebpsOwnDecode() throws {
        try assertMatches("lossless.webp")
        try assertMatches("alpha.webp")
        try assertMatches("lossy.webp")
    }

    func testWebPIsScaledByLibwebpButNeverBelowTheSizeAsked() throws {
        let decoded = try ImageDecoder.decode(path: FormatDecoderTests.path("lossy.webp")) { _ in
            PixelSize(width: 30, height: 20)
        }
        XCTAssertEqual(decoded.info.format, .webp)
        XCTAssertEqual(decoded.info.width, 240, "the header's size is reported")
        XCTAssertEqual(decoded.pixmap.width, 30)
        let source = try WebPRowSource(
            file: try ImageDecoder.open(FormatDecoderTests.path("lossy.webp")),
            limits: DecodeLimits()
        )
        try source.start(minWidth: 45, minHeight: 30)
        XCTAssertEqual(source.width, 45)
        XCTAssertEqual(source.height, 30)
    }

    /// A transparent area's hidden colour (white here, beside opaque black)
    /// never shows: libwebp's own scaler mixed it into the edge, grey over
    /// black, so a WebP with alpha reaches the box filter whole, which lays
    /// each pixel over the background before it averages.
    func testAWebPsHiddenColourUnderTransparencyNeverShows() throws {
        // 64×64: the left half opaque black, the right transparent over white.
        let path = FormatDecoderTests.path("hidden-white.webp")
        let decoded = try ImageDecoder.decode(path: path, background: RGB8(0, 0, 0)) { _ in
            PixelSize(width: 10, height: 10)
        }
        XCTAssertEqual(decoded.pixmap.width, 10)
        let brightest = decoded.pixmap.values.max() ?? 1
        XCTAssertLessThan(brightest, 0.01, "black over black everywhere, edge included")
        let source = try WebPRowSource(file: try ImageDecoder.open(path), limits: DecodeLimits())
        try source.start(minWidth: 10, minHeight: 10)
        XCTAssertEqual(source.width, 64, "with alpha, libwebp does not scale")
    }

    func testAVIFMatchesAvifdec() throws {
        try assertMatches("still.avif", tolerance: 1)
    }

    /// QOI, decoded in Swift, is lossless: still.qoi and alpha.qoi (made
    /// by make-qoi.py, an encoder after the specification, with every chunk
    /// kind) are their sources exactly; a stream cut short is an error.
    func testQOIIsItsSourceExactly() throws {
        try assertMatches("still.qoi")
        try assertMatches("alpha.qoi")
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: FormatDecoderTests.path("still.qoi"))))
        XCTAssertThrowsError(
            try ImageDecoder.decode(bytes: Array(bytes.prefix(600))) { _ in PixelSize(width: 8, height: 8) }
        ) {
            XCTAssertEqual($0 as? DecodeError, .corrupt(format: "QOI", message: "cut short"))
        }
    }

    /// A clean aperture (clap) is what an AVIF shows: clap.avif is a
    /// lossless 64×48 picture with a 32×32 aperture at (16, 8), made with
    /// avifenc --crop; the reference is that rectangle of its source.
    func testAnAVIFsCleanApertureIsWhatItShows() throws {
        try assertMatches("clap.avif", tolerance: 2)
    }

    func testTheFirstFrameOfAnAnimationIsItsStill() throws {
        let gif = try rgba("animated.gif")
        let webp = try rgba("animated.webp")
        XCTAssertEqual(gif.width, 48)
        XCTAssertEqual(webp.width, 45)
        XCTAssertGreaterThan(gif.pixels.filter { $0 != 0 }.count, 100)
    }

    func testTruncatedFilesShowWhatWasDecoded() throws {
        for name in ["still.gif", "lossless.webp"] {
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: FormatDecoderTests.path(name))))
            let decoded = try ImageDecoder.decode(bytes: Array(bytes.prefix(bytes.count * 2 / 3))) {
                PixelSize(width: $0.width, height: $0.height)
            }
            XCTAssertEqual(decoded.warnings.map(\.description).first?.hasPrefix("truncated"), true, name)
            XCTAssertEqual(decoded.pixmap.width, 240, name)
        }
    }

    /// A frame filling its screen comes as giflib's lines of indices, its
    /// colours looked up off the decoder's thread; one placed in a larger
    /// screen as RGBA rows.
    func testAGIFFillingItsScreenComesAsIndices() throws {
        let file = try ImageDecoder.open(FormatDecoderTests.path("still.gif"))
        let placed = try ImageDecoder.open(FormatDecoderTests.path("screen.gif"))
        defer {
            fclose(file)
            fclose(placed)
        }
        let whole = try GIFRowSource(file: file, limits: DecodeLimits())
        XCTAssertEqual(whole.channels, 1)
        XCTAssertEqual(whole.palette?.count, 256)
        let part = try GIFRowSource(file: placed, limits: DecodeLimits())
        XCTAssertEqual(part.channels, 4)
        XCTAssertNil(part.palette)
    }

    /// The lines a cut GIF never had are its background, as the rows of a
    /// frame that does not cover its screen are; the lines it had are as
    /// in the whole file. (The fixture is interlaced: scattered rows.)
    func testATruncatedGIFsMissingLinesAreTheBackground() throws {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: FormatDecoderTests.path("still.gif"))))
        let red = RGB8(255, 0, 0)
        let whole = try ImageDecoder.decode(bytes: bytes, background: red) {
            PixelSize(width: $0.width, height: $0.height)
        }
        let cut = try ImageDecoder.decode(bytes: Array(bytes.prefix(bytes.count / 2)), background: red) {
            PixelSize(width: $0.width, height: $0.height)
        }
        XCTAssertEqual(cut.warnings, [.truncated(format: "GIF")])
        let row = whole.pixmap.width * 3
        let last = Array(cut.pixmap.values.suffix(row))
        XCTAssertEqual(
            Set(stride(from: 0, to: row, by: 3).map { [last[$0], last[$0 + 1], last[$0 + 2]] }),
            [[1, 0, 0]],
            "the last line, never decoded, is the background"
        )
        // (Interlaced: row 0 comes in the first pass, the last in the fourth.)
        XCTAssertTrue(cut.pixmap.values.prefix(row) == whole.pixmap.values.prefix(row), "the first line as decoded")
    }

    func testHostileFilesAreRefusedInOneLine() throws {
        let still = try [UInt8](Data(contentsOf: URL(fileURLWithPath: FormatDecoderTests.path("still.gif"))))
        let avif = try [UInt8](Data(contentsOf: URL(fileURLWithPath: FormatDecoderTests.path("still.avif"))))
        let webp = try [UInt8](Data(contentsOf: URL(fileURLWithPath: FormatDecoderTests.path("lossy.webp"))))
        var hugeScreen = still
        hugeScreen.replaceSubrange(6..<10, with: [0xFF, 0xFF, 0xFF, 0xFF])
        var lying = webp
        lying.replaceSubrange(4..<8, with: [0xFF, 0xFF, 0xFF, 0x7F])
        var brokenBox = avif
        brokenBox.replaceSubrange(0..<4, with: [0, 0, 0, 3])
        let cases: [(String, [UInt8], String)] = [
            ("65535² screen", hugeScreen, "image too large: 65535×65535"),
            ("LZW code size 12", FormatDecoderTests.gif(codeSize: 12), "corrupt GIF image: "),
            ("RIFF size lies", lying, ""),
            ("broken ftyp box", brokenBox, "corrupt AVIF image: "),
            ("cut in the header", Array(avif.prefix(40)), "corrupt AVIF image: "),
        ]
        for (what, bytes, expected) in cases {
            do {
                let decoded = try ImageDecoder.decode(bytes: bytes) { PixelSize(width: $0.width, height: $0.height) }
                XCTAssertTrue(expected.isEmpty, "\(what) decoded")
                XCTAssertEqual(decoded.pixmap.width, 240, what)
            } catch {
                XCTAssertTrue("\(error)".hasPrefix(expected) && !expected.isEmpty, "\(what): \(error)")
                XCTAssertFalse("\(error)".contains("\n"), what)
            }
        }
    }

    /// An extension with no data (a comment of nothing) is read whole: the
    /// image after it is still found.
    func testAnEmptyExtensionLeavesTheImageAfterIt() throws {
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: FormatDecoderTests.path("still.gif"))))
        let table = bytes[10] & 0x80 != 0 ? 3 << (Int(bytes[10] & 7) + 1) : 0
        bytes.insert(contentsOf: [0x21, 0xFE, 0x00, 0x21, 0xFF, 0x00], at: 13 + table)
        let decoded = try ImageDecoder.decode(bytes: bytes) { PixelSize(width: $0.width, height: $0.height) }
        let plain = try ImageDecoder.decode(path: FormatDecoderTests.path("still.gif")) {
            PixelSize(width: $0.width, height: $0.height)
        }
        XCTAssertEqual(decoded.pixmap, plain.pixmap)
    }

    /// A 2×2 GIF whose image data claims an LZW minimum code size of `codeSize`.
    static func gif(codeSize: UInt8) -> [UInt8] {
        Array("GIF89a".utf8) + [2, 0, 2, 0, 0x80, 0, 0, 0, 0, 0, 255, 255, 255]
            + [0x2C, 0, 0, 0, 0, 2, 0, 2, 0, 0] + [codeSize, 2, 0x4C, 0x01, 0] + [0x3B]
    }

    func testFormatsAreToldByTheirBytes() {
        XCTAssertEqual(ImageFormat.sniff(Array("GIF89a".utf8) + [1, 0]), .gif)
        XCTAssertEqual(ImageFormat.sniff(Array("GIF87a".utf8)), .gif)
        XCTAssertEqual(ImageFormat.sniff(Array("RIFF\u{0}\u{0}\u{0}\u{0}WEBPVP8 ".utf8)), .webp)
        XCTAssertEqual(ImageFormat.sniff([0, 0, 0, 24] + Array("ftypmif1\u{0}\u{0}\u{0}\u{0}mif1avif".utf8)), .avif)
        XCTAssertEqual(
            ImageFormat.sniff([0, 0, 0, 24] + Array("ftypheic\u{0}\u{0}\u{0}\u{0}mif1heic".utf8)),
            .heif
        )
        XCTAssertEqual(
            ImageFormat.sniff([0, 0, 0, 16] + Array("ftyphevc\u{0}\u{0}\u{0}\u{0}".utf8)),
            .unsupported("HEIF (hevc)"),
            "an HEVC sequence"
        )
        XCTAssertEqual(ImageFormat.sniff(Array("GIF8".utf8)), .unsupported("GIF of an unknown version"))
    }
}

import Foundation
import URLCacheTestSupport
import XCTest

@testable import BlockArt

/// Decoding a region only (a zoomed view): the same pixels as decoding
/// the whole image and cutting the region out, in every orientation, for
/// JPEG's cropped and skipped rows and PNG's interlaced passes.
final class RegionDecodeTests: XCTestCase {
    private func psnr(_ a: Pixmap, _ b: Pixmap) -> Double {
        guard a.width == b.width, a.height == b.height else { return 0 }
        var sum = 0.0
        for (x, y) in zip(a.values, b.values) {
            let d = Double(ColorSpace.toSRGB(x)) - Double(ColorSpace.toSRGB(y))
            sum += d * d
        }
        let mse = sum / Double(a.values.count)
        return mse == 0 ? 99 : 10 * log10(255 * 255 / mse)
    }

    /// The reference: the whole picture at full size, the region's pixels
    /// cut out and box-filtered to `size`.
    private func reference(_ path: String, _ r: ImageRegion, size: PixelSize) throws -> Pixmap {
        let whole = try ImageDecoder.decode(path: path, size: { PixelSize(width: $0.width, height: $0.height) }).pixmap
        let x0 = Int(r.x.rounded(.down))
        let y0 = Int(r.y.rounded(.down))
        let cut = whole.cropped(
            x: x0,
            y: y0,
            width: Int((r.x + r.width).rounded(.up)) - x0,
            height: Int((r.y + r.height).rounded(.up)) - y0
        )
        return cut.resampled(width: size.width, height: size.height)
    }

    private func assertRegion(
        _ path: String,
        _ r: ImageRegion,
        size: PixelSize,
        atLeast decibels: Double,
        file: StaticString = #filePath,
        line: UInt = #line
    ) throws {
        var asked: SourceInfo?
        let decoded = try ImageDecoder.decode(path: path, region: r) { info in
            asked = info
            return size
        }
        XCTAssertEqual(
            asked.map { [$0.width, $0.height] },
            [Int(r.width.rounded()), Int(r.height.rounded())],
            "size is asked for the region's size",
            file: file,
            line: line
        )
        XCTAssertEqual(
            [decoded.pixmap.width, decoded.pixmap.height],
            [size.width, size.height],
            file: file,
            line: line
        )
        let quality = psnr(decoded.pixmap, try reference(path, r, size: size))
        XCTAssertGreaterThan(quality, decibels, "\(path) \(r)", file: file, line: line)
    }

    func testAJPEGRegionMatchesTheWholeImageCut() throws {
        let photo = DecoderTests.image("photo.jpg")  // 600×400
        // Full scale (1.5× the pixmap needs all of it), then a DCT scale of 1/2.
        try assertRegion(
            photo,
            ImageRegion(x: 150, y: 100, width: 300, height: 200),
            size: PixelSize(width: 300, height: 200),
            atLeast: 45
        )
        try assertRegion(
            photo,
            ImageRegion(x: 333.5, y: 17.25, width: 240, height: 160),
            size: PixelSize(width: 240, height: 160),
            atLeast: 45
        )
        try assertRegion(
            photo,
            ImageRegion(x: 0, y: 200, width: 400, height: 200),
            size: PixelSize(width: 100, height: 50),
            atLeast: 30
        )
        // Beyond one to one: fewer source pixels than output pixels.
        try assertRegion(
            photo,
            ImageRegion(x: 580, y: 380, width: 20, height: 20),
            size: PixelSize(width: 20, height: 20),
            atLeast: 45
        )
    }

    func testEveryOrientationCutsTheRegionThePersonSees() throws {
        for n in 1...8 {
            let path = DecoderTests.jpeg("orientation\(n).jpg")
            try assertRegion(
                path,
                ImageRegion(x: 8, y: 4, width: 24, height: 16),
                size: PixelSize(width: 24, height: 16),
                atLeast: 40
            )
        }
    }

    func testPNGRegionsPlainAndInterlacedAgree() throws {
        let plain = DecoderTests.image("large.png")
        let interlaced = DecoderTests.image("large-interlaced.png")
        let region = ImageRegion(x: 123, y: 456, width: 200, height: 100)
        try assertRegion(plain, region, size: PixelSize(width: 200, height: 100), atLeast: 60)
        try assertRegion(interlaced, region, size: PixelSize(width: 100, height: 50), atLeast: 40)
        let a = try ImageDecoder.decode(path: plain, region: region) { _ in PixelSize(width: 100, height: 50) }
        let b = try ImageDecoder.decode(path: interlaced, region: region) { _ in PixelSize(width: 100, height: 50) }
        XCTAssertGreaterThan(psnr(a.pixmap, b.pixmap), 60, "Adam7's passes land where the plain rows do")
    }

    /// libwebp crops before it scales, from even pixels: lossy, lossless
    /// and alpha WebP regions, at odd places, 1:1 and scaled, match the
    /// whole image's cut, and only the region's rectangle is decoded.
    func testAWebPRegionIsCroppedByLibwebpAndMatchesTheWholeImageCut() throws {
        for name in ["lossy.webp", "lossless.webp", "alpha.webp"] {  // 240×160
            let path = FormatDecoderTests.path(name)
            try assertRegion(
                path,
                ImageRegion(x: 61, y: 33, width: 100, height: 60),
                size: PixelSize(width: 100, height: 60),
                atLeast: 45
            )
            // Scaled by libwebp's own filter, as the whole image was before
            // it was cropped (32.2, 32.0 and 27.3 dB then; 33.2, 33.0, 28.6 now).
            try assertRegion(
                path,
                ImageRegion(x: 17.5, y: 9.25, width: 120, height: 80),
                size: PixelSize(width: 60, height: 40),
                atLeast: 28
            )
            try assertRegion(
                path,
                ImageRegion(x: 200, y: 120, width: 40, height: 40),
                size: PixelSize(width: 80, height: 80),
                atLeast: 40
            )
        }
        let file = try XCTUnwrap(fopen(FormatDecoderTests.path("lossy.webp"), "rb"))
        defer { fclose(file) }
        let source = try WebPRowSource(file: file, limits: DecodeLimits())
        let cut = try XCTUnwrap(source.crop(x: 61, y: 33, width: 100, height: 60))
        XCTAssertEqual(
            [cut.x, cut.y, cut.width, cut.height],
            [60, 32, 101, 61],
            "from even pixels, the asked-for ones kept"
        )
        try source.start(minWidth: 50, minHeight: 30)
        XCTAssertEqual([source.width, source.height], [50, 31], "the crop scaled, not the image")
        var row = [UInt8](repeating: 0, count: source.width * source.channels)
        for y in 0..<source.rowCount {
            XCTAssertEqual(try row.withUnsafeMutableBufferPointer { try source.nextRow($0.baseAddress!) }.y, y)
        }
    }

    func testARowIsCutToTheWindow() {
        let crop = RowCrop(columns: 10..<20, rows: 5..<8, deliveredFrom: 8)
        XCTAssertNil(crop.crop(RowPlacement(y: 4, count: 30)), "above the window")
        XCTAssertNil(crop.crop(RowPlacement(y: 8, count: 30)), "below it")
        let whole = crop.crop(RowPlacement(y: 6, count: 30))
        XCTAssertEqual(whole?.skip, 2, "the decoder's rows start at column 8")
        XCTAssertEqual(whole?.place, RowPlacement(y: 1, xStart: 0, xStep: 1, count: 10))
        // An Adam7 pass: every 8th pixel from column 4 (as delivered from 0).
        let sparse = RowCrop(columns: 10..<30, rows: 0..<10).crop(RowPlacement(y: 3, xStart: 4, xStep: 8, count: 5))
        XCTAssertEqual(sparse?.skip, 1, "column 12 is the pass's second pixel")
        XCTAssertEqual(sparse?.place, RowPlacement(y: 3, xStart: 2, xStep: 8, count: 3), "columns 12, 20, 28")
        XCTAssertNil(
            RowCrop(columns: 13..<19, rows: 0..<10).crop(RowPlacement(y: 3, xStart: 4, xStep: 8, count: 5)),
            "no pixel of the pass in the window"
        )
    }

    /// The stored rectangle, turned as the orientation says, is the one shown.
    func testAStoredRegionTurnsIntoTheShownOne() {
        let stored = Pixmap(width: 5, height: 3, values: (0..<45).map { Float($0) })
        for n in 1...8 {
            let shown = stored.oriented(n)
            let region = ImageRegion(x: 1, y: 1, width: 2, height: 1)
            let back = region.stored(
                orientation: n,
                displayWidth: Double(shown.width),
                displayHeight: Double(shown.height)
            )
            let fromStored = stored.cropped(
                x: Int(back.x),
                y: Int(back.y),
                width: Int(back.width),
                height: Int(back.height)
            ).oriented(n)
            XCTAssertEqual(fromStored, shown.cropped(x: 1, y: 1, width: 2, height: 1), "orientation \(n)")
        }
    }
}

import Foundation
import URLCacheTestSupport
import XCTest

@testable import BlockArt

/// TIFF through libtiff: every layout and sample kind of one picture
/// decodes to that picture; damage is one message, never a crash.
final class TIFFTests: XCTestCase {
    private func decode(_ name: String) throws -> DecodedImage {
        try ImageDecoder.decode(path: Fixtures.tiff.appendingPathComponent(name).path, background: RGB8(0, 0, 0)) {
            PixelSize(width: $0.width, height: $0.height)
        }
    }

    /// The largest difference between two pixmaps' values (linear, 0...1),
    /// over the columns `columns`.
    private func difference(_ a: Pixmap, _ b: Pixmap, columns: Range<Int>? = nil) -> Float {
        XCTAssertEqual([a.width, a.height], [b.width, b.height])
        var most: Float = 0
        for y in 0..<a.height {
            for x in columns ?? 0..<a.width {
                let (p, q) = (a[x, y], b[x, y])
                most = max(most, abs(p.r - q.r), abs(p.g - q.g), abs(p.b - q.b))
            }
        }
        return most
    }

    func testEveryLayoutAndSampleKindDecodesToThePicture() throws {
        let rgb = try decode("rgb.tif")
        XCTAssertEqual(rgb.info.format, .tiff)
        XCTAssertEqual([rgb.info.width, rgb.info.height], [48, 32])
        for name in ["lzw.tif", "strips.tif", "tiled.tif", "big.tif", "pages.tif"] {
            XCTAssertEqual(difference(try decode(name).pixmap, rgb.pixmap), 0, "\(name): the same pixels")
        }
        // CMYK as Pillow wrote it (255 - each channel) comes back within a step.
        XCTAssertLessThan(difference(try decode("cmyk.tif").pixmap, rgb.pixmap), 0.01)
        // 16 bits a sample: the 8-bit grey's values, within rounding.
        XCTAssertLessThan(difference(try decode("grey16.tif").pixmap, try decode("grey.tif").pixmap), 0.005)
        // 64 colours: as Pillow reads them, saved as a PNG.
        let png = try ImageDecoder.decode(
            path: Fixtures.tiff.appendingPathComponent("palette.tif.ref.png").path,
            background: RGB8(0, 0, 0)
        ) { PixelSize(width: $0.width, height: $0.height) }
        XCTAssertEqual(difference(try decode("palette.tif").pixmap, png.pixmap), 0)
        // The transparent half is the background; the opaque half the picture.
        let rgba = try decode("rgba.tif").pixmap
        XCTAssertEqual(difference(rgba, rgb.pixmap, columns: 0..<24), 0)
        XCTAssertEqual(difference(rgba, Pixmap(width: 48, height: 32), columns: 24..<48), 0)
    }

    func testADamagedOrCutTIFFIsOneMessage() throws {
        let bytes = try Data(contentsOf: Fixtures.tiff.appendingPathComponent("rgb.tif"))
        for (name, data) in [
            ("cut", bytes.prefix(3000)), ("no directory", Data([0x49, 0x49, 0x2A, 0, 8, 0, 0, 0, 0xFF])),
        ] {
            XCTAssertThrowsError(try ImageDecoder.decode(bytes: [UInt8](data)) { _ in PixelSize(width: 8, height: 8) })
            {
                guard case let .corrupt(format, message)? = $0 as? DecodeError else { return XCTFail("\(name): \($0)") }
                XCTAssertEqual(format, "TIFF")
                XCTAssertFalse(message.isEmpty, name)
            }
        }
        XCTAssertEqual(ImageFormat.sniff([0x4D, 0x4D, 0x00, 0x2B, 0, 8, 0, 0]), .tiff, "BigTIFF, big-endian")
        // 60 KB of LZW: 9000×9000 zeros in one strip, which would have to
        // be held whole (324 MB): refused before anything is allocated.
        XCTAssertThrowsError(try decode("bomb-one-strip.tif")) {
            XCTAssertEqual($0 as? DecodeError, .tooLarge(width: 9000, height: 9000))
        }
    }

    /// A page of plain RGB strips is decoded a band of strips at a time on
    /// two threads (a second libtiff handle decodes bands ahead, into a
    /// pool): every band comes in its place, read from a file or from
    /// memory. bands.tif: 64×400, LZW with the predictor, 3 rows a strip
    /// (seven bands of 66 rows), made by tiffcp from bands.png.
    func testStripsDecodedOnTwoThreadsComeInTheirPlaces() throws {
        let png = try ImageDecoder.decode(
            path: Fixtures.tiff.appendingPathComponent("bands.png").path,
            background: RGB8(0, 0, 0)
        ) { PixelSize(width: $0.width, height: $0.height) }
        XCTAssertEqual([png.info.width, png.info.height], [64, 400])
        for _ in 0..<5 {
            XCTAssertEqual(difference(try decode("bands.tif").pixmap, png.pixmap), 0, "from the file")
        }
        let bytes = [UInt8](try Data(contentsOf: Fixtures.tiff.appendingPathComponent("bands.tif")))
        let fromMemory = try ImageDecoder.decode(bytes: bytes) { PixelSize(width: $0.width, height: $0.height) }
        XCTAssertEqual(difference(fromMemory.pixmap, png.pixmap), 0, "from memory")
        // Rows a zoomed view asks for: the bands below the window only.
        let window = try ImageDecoder.decode(
            path: Fixtures.tiff.appendingPathComponent("bands.tif").path,
            region: ImageRegion(x: 0, y: 0.5, width: 1, height: 0.25)
        ) { PixelSize(width: $0.width, height: $0.height) }
        let cut = try ImageDecoder.decode(
            path: Fixtures.tiff.appendingPathComponent("bands.png").path,
            region: ImageRegion(x: 0, y: 0.5, width: 1, height: 0.25)
        ) { PixelSize(width: $0.width, height: $0.height) }
        XCTAssertEqual(difference(window.pixmap, cut.pixmap), 0, "a region")
    }
}

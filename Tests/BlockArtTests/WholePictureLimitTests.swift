import Foundation
import URLCacheTestSupport
import XCTest

@testable import BlockArt

/// Libraries that hold the whole picture (HEIF, AVIF, JPEG XL, an
/// animation's canvas) are held to `maxWholePixels`, and a HEIF grid to
/// `maxTiles`, before they decode anything: a 1 MB grid of 19,881 tiles
/// took 30 s and 585 MB, and 12000×12000 of flat colour in an 18 KB JPEG XL
/// took 960 MB. Each is now one line.
final class WholePictureLimitTests: XCTestCase {
    private func bytes(_ name: String) throws -> [UInt8] {
        try [UInt8](Data(contentsOf: Fixtures.formats.appendingPathComponent(name)))
    }

    private func decode(_ bytes: [UInt8], limits: DecodeLimits = DecodeLimits()) throws -> DecodedImage {
        try ImageDecoder.decode(bytes: bytes, limits: limits) { PixelSize(width: $0.width, height: $0.height) }
    }

    private func error(_ body: () throws -> Any) -> String {
        do {
            _ = try body()
            return "decoded"
        } catch {
            return "\(error)"
        }
    }

    func testEachWholePictureFormatIsHeldToItsLimit() throws {
        let small = DecodeLimits(maxWholePixels: 5000)
        let files = [
            ("still.heic", "HEIF", "96×64"), ("still.avif", "AVIF", "240×160"), ("still.jxl", "JPEG XL", "96×64"),
        ]
        for (name, format, size) in files {
            let image = try bytes(name)
            XCTAssertEqual(
                error { try self.decode(image, limits: small) },
                "\(format) image too large: \(size) is over the 0.005 megapixels decoded whole",
                name
            )
            XCTAssertEqual(error { try self.decode(image) }, "decoded", name)
        }
    }

    func testAGridOfTooManyTilesIsRefusedBeforeLibheifReadsIt() throws {
        let tile = try bytes("still.heic")
        let four = try decode(try HEIFGrid.make(tile: tile, rows: 2, columns: 2))
        XCTAssertEqual(four.info, SourceInfo(format: .heif, width: 192, height: 128), "the generator makes real grids")
        let alone = try decode(tile).pixmap
        XCTAssertEqual(four.pixmap.values[0..<96 * 3], alone.values[0..<96 * 3], "its first row starts with the tile's")
        XCTAssertEqual(
            error { try self.decode(try HEIFGrid.make(tile: tile, rows: 33, columns: 32)) },
            "HEIF grid of 1056 tiles: over the 1024 a picture may have"
        )
        // As many items as a grid may name: refused before libheif's parse,
        // which takes it seconds by their square.
        XCTAssertEqual(
            error { try self.decode(try HEIFGrid.make(tile: tile, rows: 255, columns: 256, references: 65_535)) },
            "HEIF grid of 65535 tiles: over the 1024 a picture may have"
        )
    }
}

/// A HEIF grid of `rows` × `columns` tiles, each the coded picture of a
/// one-image HEIC (heif-enc's): ISO/IEC 23008-12 boxes with 32-bit item
/// IDs (infe 3, iloc 2, iref 1, ipma 1), every tile's extent the same bytes.
enum HEIFGrid {
    static func make(tile heic: [UInt8], rows: Int, columns: Int, references: Int? = nil) throws -> [UInt8] {
        let hvcC = try XCTUnwrap(box("hvcC", in: heic))
        let coded = try XCTUnwrap(box("mdat", in: heic)).dropFirst(8)
        let ispe = try XCTUnwrap(box("ispe", in: heic))
        let tileWidth = Int(BigEndian.u32(Array(ispe), 12))
        let tileHeight = Int(BigEndian.u32(Array(ispe), 16))
        let count = references ?? rows * columns
        let ids = (0..<count).map { UInt32($0 + 2) }
        let gridData = [0, 1, UInt8(rows - 1), UInt8(columns - 1)] + u32(columns * tileWidth) + u32(rows * tileHeight)
        let infe =
            full("infe", 3, u32(1) + [0, 0] + Array("grid".utf8) + [0])
            + ids.flatMap { full("infe", 3, u32(Int($0)) + [0, 0] + Array("hvc1".utf8) + [0]) }
        let iref = full("iref", 1, make("dimg", u32(1) + u16(count) + ids.flatMap { u32(Int($0)) }))
        let ipco = make(
            "ipco",
            Array(hvcC) + Array(ispe) + full("ispe", 0, u32(columns * tileWidth) + u32(rows * tileHeight))
        )
        let ipma = full(
            "ipma",
            1,
            u32(count + 1) + u32(1) + [1, 3] + ids.flatMap { u32(Int($0)) + [2, 0x81, 2] }
        )
        let head = make("ftyp", Array("heic".utf8) + [0, 0, 0, 0] + Array("mif1heic".utf8))
        func meta(_ start: Int) -> [UInt8] {
            let entries =
                u32(1) + [0, 0, 0, 0, 0, 1] + u32(start) + u32(gridData.count)
                + ids.flatMap { u32(Int($0)) + [0, 0, 0, 0, 0, 1] + u32(start + gridData.count) + u32(coded.count) }
            let iloc = full("iloc", 2, [0x44, 0x00] + u32(count + 1) + entries)
            let hdlr = full("hdlr", 0, [0, 0, 0, 0] + Array("pict".utf8) + [UInt8](repeating: 0, count: 13))
            let pitm = full("pitm", 0, u16(1))
            return full(
                "meta",
                0,
                hdlr + pitm + iloc + full("iinf", 1, u32(count + 1) + infe) + iref + make("iprp", ipco + ipma)
            )
        }
        let start = head.count + meta(0).count + 8
        return head + meta(start) + make("mdat", gridData + coded)
    }

    private static func u16(_ v: Int) -> [UInt8] { [UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
    private static func u32(_ v: Int) -> [UInt8] { u16(v >> 16) + u16(v) }
    private static func make(_ type: String, _ body: [UInt8]) -> [UInt8] {
        u32(8 + body.count) + Array(type.utf8) + body
    }
    private static func full(_ type: String, _ version: UInt8, _ body: [UInt8]) -> [UInt8] {
        make(type, [version, 0, 0, 0] + body)
    }

    /// The first box of `type` anywhere in `data` (a byte search: enough
    /// for heif-enc's small files), whole.
    private static func box(_ type: String, in data: [UInt8]) -> ArraySlice<UInt8>? {
        let name = Array(type.utf8)
        for at in 4..<max(4, data.count - 4) where Array(data[at..<at + 4]) == name {
            let size = Int(BigEndian.u32(data, at - 4))
            if size >= 8, at - 4 + size <= data.count { return data[at - 4..<at - 4 + size] }
        }
        return nil
    }
}

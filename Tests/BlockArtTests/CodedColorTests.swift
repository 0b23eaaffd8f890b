import Foundation
import URLCacheTestSupport
import XCTest

@testable import BlockArt

/// Colours said by a coded description rather than an ICC profile
/// (make-icc.py): PNG's cHRM and gAMA, and the nclx box of AVIF and HEIF.
/// Each file holds the sRGB photo's colours in other numbers, and decodes
/// to the photo's; read as sRGB, the same numbers are far from it.
final class CodedColorTests: XCTestCase {
    private func decode(_ name: String) throws -> Pixmap {
        try decode(bytes: [UInt8](Data(contentsOf: Fixtures.icc.appendingPathComponent(name))))
    }

    private func decode(bytes: [UInt8]) throws -> Pixmap {
        try ImageDecoder.decode(bytes: bytes) { PixelSize(width: $0.width, height: $0.height) }.pixmap
    }

    /// PSNR of `a` against `b`, on their sRGB levels.
    private func psnr(_ a: Pixmap, _ b: Pixmap) -> Double { a.psnr(against: b) }

    /// `png` with its chunks of `dropping` taken out and `chunk` put after IHDR.
    private func rewriting(_ png: [UInt8], dropping: Set<String>, adding chunk: (String, [UInt8])?) -> [UInt8] {
        var out = Array(png.prefix(8))
        var at = 8
        while at + 12 <= png.count {
            let length = Int(png[at]) << 24 | Int(png[at + 1]) << 16 | Int(png[at + 2]) << 8 | Int(png[at + 3])
            let type = String(decoding: png[at + 4..<at + 8], as: UTF8.self)
            if !dropping.contains(type) { out += png[at..<at + 12 + length] }
            if type == "IHDR", let (kind, data) = chunk {
                BigEndian.append(UInt32(data.count), to: &out)
                out += Array(kind.utf8) + data
                BigEndian.append(CRC32.of(Array(kind.utf8), data), to: &out)
            }
            at += 12 + length
        }
        return out
    }

    func testCHRMAndGAMAShowTheOriginalsColours() throws {
        let original = try decode("srgb.png")
        let coded = try [UInt8](Data(contentsOf: Fixtures.icc.appendingPathComponent("coded.png")))
        XCTAssertGreaterThan(psnr(try decode(bytes: coded), original), 45, "ROMM's primaries, gamma 1.8")
        let bare = rewriting(coded, dropping: ["cHRM", "gAMA"], adding: nil)
        XCTAssertLessThan(psnr(try decode(bytes: bare), original), 25, "the same numbers read as sRGB")
        XCTAssertGreaterThan(psnr(try decode("linear.png"), original), 45, "gAMA 1.0: linear light")
    }

    /// An sRGB chunk, or a gAMA of 1/2.2 with no cHRM (as many encoders
    /// write beside sRGB's numbers), pays nothing: the numbers are sRGB's.
    func testSRGBSaidInChunksLeavesTheNumbersAsTheyAre() throws {
        let png = try [UInt8](Data(contentsOf: Fixtures.icc.appendingPathComponent("srgb.png")))
        let plain = try decode(bytes: png)
        let gamma: [UInt8] = [0, 0, 0xB1, 0x8F]  // 45455
        XCTAssertEqual(try decode(bytes: rewriting(png, dropping: [], adding: ("gAMA", gamma))).values, plain.values)
        let linear = rewriting(png, dropping: [], adding: ("gAMA", [0, 1, 0x86, 0xA0]))
        XCTAssertNotEqual(try decode(bytes: linear).values, plain.values, "gAMA 1.0 is not sRGB")
        let both = rewriting(linear, dropping: [], adding: ("sRGB", [0]))
        XCTAssertEqual(try decode(bytes: both).values, plain.values, "sRGB outranks gAMA")
    }

    func testNCLXDisplayP3ShowsTheOriginalsColours() throws {
        let original = try decode("srgb.png")
        XCTAssertGreaterThan(psnr(try decode("p3.avif"), original), 45, "lossless AVIF, nclx 12/13")
        // HEVC's loss bounds it: heif-convert's decode, carried to sRGB
        // by hand, also scores 34.2; read as sRGB it is 27.9.
        XCTAssertGreaterThan(psnr(try decode("p3.heic"), original), 33.5, "HEIC, nclx 12/13")
    }
}

import Foundation
import URLCacheTestSupport
import XCTest

@testable import BlockArt

/// Colours as the file's ICC profile says: the same photo written in
/// Adobe RGB (a JPEG's APP2) and in ProPhoto RGB (a 16-bit PNG's iCCP)
/// decodes to the sRGB original's colours, where its numbers read as
/// sRGB's do not (make-icc.py; Pillow's own lcms2 agrees: 33.77 and 51.77 dB).
final class ColorProfileTests: XCTestCase {
    private func decode(_ name: String) throws -> Pixmap {
        try ImageDecoder.decode(path: Fixtures.icc.appendingPathComponent(name).path) {
            PixelSize(width: $0.width, height: $0.height)
        }
        .pixmap
    }

    /// PSNR of `a` against `b`, on their sRGB levels.
    private func psnr(_ a: Pixmap, _ b: Pixmap) -> Double {
        guard a.width == b.width, a.height == b.height, a.values.count == b.values.count else { return 0 }
        let level = { (v: Float) -> Double in
            let l = Double(min(max(v, 0), 1))
            return 255 * (l <= 0.0031308 ? l * 12.92 : 1.055 * pow(l, 1 / 2.4) - 0.055)
        }
        let squares = zip(a.values, b.values).map { pair -> Double in
            let d = level(pair.0) - level(pair.1)
            return d * d
        }
        let mse = squares.reduce(0, +) / Double(squares.count)
        return 10 * log10(255 * 255 / max(mse, 1e-12))
    }

    func testAdobeAndProPhotoPhotosShowTheOriginalsColours() throws {
        let original = try decode("srgb.png")
        let adobe = psnr(try decode("adobe.jpg"), original)
        let untagged = psnr(try decode("adobe-untagged.jpg"), original)
        let prophoto = psnr(try decode("prophoto.png"), original)
        XCTAssertGreaterThan(adobe, 33, "Adobe RGB through its profile (JPEG's loss bounds it)")
        XCTAssertLessThan(untagged, 27, "the same numbers with no profile, read as sRGB")
        XCTAssertGreaterThan(prophoto, 45, "ProPhoto RGB through its profile")
        // The JPEG's decoded numbers with the same profile, in TIFF, AVIF and WebP.
        for name in ["adobe.tif", "adobe.avif", "adobe.webp"] {
            XCTAssertGreaterThan(psnr(try decode(name), original), 33, name)
        }
    }

    func testAProfileNamedSRGBOrNoRGBProfileLeavesTheRowsAsTheyAre() throws {
        let adobe = try [UInt8](Data(contentsOf: Fixtures.icc.appendingPathComponent("adobe.icc")))
        XCTAssertNotNil(ColorTransform(profile: adobe, channels: 3))
        XCTAssertNil(ColorTransform(profile: adobe, channels: 2), "rows of 3 or 4 bytes a pixel only")
        XCTAssertNil(ColorTransform(profile: Array(adobe.prefix(100)), channels: 3), "a damaged profile")
        var named = adobe
        let at = try XCTUnwrap(String(decoding: named, as: UTF8.self).range(of: "Adobe RGB (1998)"))
        let offset = String(decoding: named, as: UTF8.self).utf8.distance(
            from: String(decoding: named, as: UTF8.self).startIndex,
            to: at.lowerBound
        )
        named.replaceSubrange(offset..<offset + 4, with: Array("sRGB".utf8))
        XCTAssertNil(ColorTransform(profile: named, channels: 3), "sRGB by its name: nothing to do")
    }
}

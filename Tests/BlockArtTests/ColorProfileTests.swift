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
    private func psnr(_ a: Pixmap, _ b: Pixmap) -> Double { a.psnr(against: b) }

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

    /// A CMYK JPEG with a CMYK profile (an Adobe JPEG, inverted, as
    /// Photoshop writes it) and a CMYK TIFF with it, in strips and in
    /// tiles: their inks as the
    /// profile says they print, where the plain inversion (255 - ink)
    /// shows another picture (make-cmyk.py).
    func testCMYKPicturesAreShownThroughTheirProfile() throws {
        let printed = try decode("press-cmyk.png")
        XCTAssertGreaterThan(psnr(try decode("press-cmyk.jpg"), printed), 60, "libjpeg and lcms2, as Pillow: identical")
        XCTAssertGreaterThan(psnr(try decode("press-cmyk.tif"), printed), 60, "the same inks, as TIFF codes them")
        XCTAssertGreaterThan(psnr(try decode("press-cmyk-tiled.tif"), printed), 60, "in tiles, some part outside")
        let big = try decode("press-cmyk-big.png")
        XCTAssertGreaterThan(psnr(try decode("press-cmyk-big.tif"), big), 60, "a band of 81,920 pixels: two threads")
        XCTAssertLessThan(
            psnr(try decode("press-cmyk-untagged.jpg"), printed),
            15,
            "no profile: the plain inversion (12.4 dB)"
        )
    }

    /// Grey with a grey profile (kTRC): its light as the curve says, in
    /// PNG's RGBA rows and JPEG's RGB rows alike.
    func testGreyProfilesAreApplied() throws {
        let original = try decode("grey-srgb.png")
        let png = psnr(try decode("grey.png"), original)
        let jpeg = psnr(try decode("grey.jpg"), original)
        XCTAssertGreaterThan(png, 45, "16-bit linear light, gamma 1.0 (11.2 dB read as sRGB)")
        XCTAssertGreaterThan(jpeg, 40, "gamma 1.8 (23.1 dB read as sRGB)")
        // A grey profile on a colour JPEG is not applied: the colours stay.
        let colour = try decode("grey-icc-on-colour.jpg")
        let spread = stride(from: 0, to: colour.values.count, by: 3).map {
            abs(colour.values[$0] - colour.values[$0 + 1])
        }
        XCTAssertGreaterThan(spread.max() ?? 0, 0.1)
    }

    /// An animation's frames are carried through its profile too: a WebP
    /// (ICCP) and an APNG (iCCP) of Adobe RGB frames play in the sRGB
    /// original's colours.
    func testAnAnimationsFramesAreShownThroughItsProfile() throws {
        for name in ["adobe-animated.webp", "adobe-animated.png"] {
            let path = Fixtures.icc.appendingPathComponent(name).path
            let animation = try XCTUnwrap(
                try AnimationDecoder.open(path: path) { PixelSize(width: $0.width, height: $0.height) }
            )
            let first = try XCTUnwrap(try animation.next()).pixmap
            XCTAssertGreaterThan(psnr(first, try decode("srgb.png")), 33, "\(name): read as sRGB, 26 dB")
        }
    }

    func testAProfileNamedSRGBOrNoRGBProfileLeavesTheRowsAsTheyAre() throws {
        let adobe = try [UInt8](Data(contentsOf: Fixtures.icc.appendingPathComponent("adobe.icc")))
        let use = { (profile: [UInt8], channels: Int) -> String in
            switch ColorTransform.use(profile, channels: channels) {
            case .apply: return "apply"
            case .none: return "none"
            case .damaged: return "damaged"
            }
        }
        XCTAssertEqual(use(adobe, 3), "apply")
        XCTAssertEqual(use(adobe, 2), "none", "rows of 3 or 4 bytes a pixel only")
        XCTAssertEqual(use(Array(adobe.prefix(100)), 3), "damaged")
        XCTAssertEqual(use([UInt8](repeating: 0, count: ColorTransform.maxBytes + 1), 3), "damaged", "too large")
        var named = adobe
        let text = String(decoding: named, as: UTF8.self)
        let at = try XCTUnwrap(text.range(of: "Adobe RGB (1998)"))
        let offset = text.utf8.distance(from: text.startIndex, to: at.lowerBound)
        named.replaceSubrange(offset..<offset + 4, with: Array("sRGB".utf8))
        XCTAssertEqual(use(named, 3), "none", "sRGB by its name: nothing to do")
    }

    /// A damaged profile costs the picture nothing but its colours' care:
    /// shown as sRGB, with one warning.
    func testADamagedProfileIsOneWarningAndThePictureIsShown() throws {
        // prophoto.png with a profile whose curves are of no type lcms2
        // knows: its header and tag table pass libpng's checks (a truncated
        // one libpng drops itself), and no transform can be made of it.
        let png = try [UInt8](Data(contentsOf: Fixtures.icc.appendingPathComponent("prophoto.png")))
        var profile = try [UInt8](Data(contentsOf: Fixtures.icc.appendingPathComponent("prophoto.icc")))
        for at in 128..<profile.count - 4 where Array(profile[at..<at + 4]) == Array("curv".utf8) {
            profile.replaceSubrange(at..<at + 4, with: Array("junk".utf8))
        }
        let broken = ColorProfileTests.replacingICCP(in: png, with: profile)
        let image = try ImageDecoder.decode(bytes: broken) { PixelSize(width: $0.width, height: $0.height) }
        XCTAssertEqual(image.info.width, 96)
        XCTAssertEqual(image.warnings, [.profileIgnored(format: "PNG")])
        XCTAssertEqual(
            image.warnings.first?.description,
            "damaged ICC profile in the PNG ignored: colours shown as sRGB"
        )
    }

    /// A CMYK JPEG whose profile's table is of no type lcms2 knows: one
    /// warning, and the inks inverted plainly, as with no profile.
    func testADamagedCMYKProfileIsOneWarningAndThePlainInks() throws {
        var jpeg = try [UInt8](Data(contentsOf: Fixtures.icc.appendingPathComponent("press-cmyk.jpg")))
        let table = Array("mft2".utf8)
        let at = try XCTUnwrap((0..<jpeg.count - 4).first { Array(jpeg[$0..<$0 + 4]) == table })
        jpeg.replaceSubrange(at..<at + 4, with: Array("junk".utf8))
        let image = try ImageDecoder.decode(bytes: jpeg) { PixelSize(width: $0.width, height: $0.height) }
        XCTAssertEqual(image.warnings, [.profileIgnored(format: "JPEG")])
        XCTAssertGreaterThan(psnr(image.pixmap, try decode("press-cmyk-untagged.jpg")), 60)
    }

    /// `png` with its iCCP chunk's profile replaced (compressed, CRC made).
    static func replacingICCP(in png: [UInt8], with profile: [UInt8]) -> [UInt8] {
        var out = Array(png.prefix(8))
        var at = 8
        while at + 12 <= png.count {
            let length = Int(png[at]) << 24 | Int(png[at + 1]) << 16 | Int(png[at + 2]) << 8 | Int(png[at + 3])
            let type = Array(png[at + 4..<at + 8])
            if type == Array("iCCP".utf8) {
                let data = Array("Broken".utf8) + [0, 0] + Zlib.stored(profile)
                var chunk: [UInt8] = []
                BigEndian.append(UInt32(data.count), to: &chunk)
                chunk += type + data
                BigEndian.append(CRC32.of(type, data), to: &chunk)
                out += chunk
            } else {
                out += png[at..<at + 12 + length]
            }
            at += 12 + length
        }
        return out
    }
}

/// zlib's format with stored (uncompressed) blocks: enough for a test.
enum Zlib {
    static func stored(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        var rest = data[...]
        repeat {
            let block = rest.prefix(65535)
            rest = rest.dropFirst(block.count)
            let n = UInt16(block.count)
            out += [rest.isEmpty ? 1 : 0, UInt8(n & 0xFF), UInt8(n >> 8), UInt8(~n & 0xFF), UInt8(~n >> 8)]
            out += block
        } while !rest.isEmpty
        var a: UInt32 = 1
        var b: UInt32 = 0
        for byte in data {
            a = (a + UInt32(byte)) % 65521
            b = (b + a) % 65521
        }
        BigEndian.append(b << 16 | a, to: &out)
        return out
    }
}

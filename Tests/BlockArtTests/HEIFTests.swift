import Foundation
import URLCacheTestSupport
import XCTest

@testable import BlockArt

/// HEIC through libheif (make-heif.sh made the fixtures with libheif's own
/// tools): the picture as heif-convert decodes it, its ICC profile applied,
/// and a damaged file one clear error.
final class HEIFTests: XCTestCase {
    private func path(_ name: String) -> String { Fixtures.formats.appendingPathComponent(name).path }

    private func full(_ path: String) throws -> DecodedImage {
        try ImageDecoder.decode(path: path) { PixelSize(width: $0.width, height: $0.height) }
    }

    private func largestDifference(_ a: Pixmap, _ b: Pixmap) -> Float {
        guard a.width == b.width, a.height == b.height else { return .infinity }
        return zip(a.values, b.values).map { abs($0 - $1) }.max() ?? 0
    }

    func testAHEICDecodesAsLibheifsOwnToolDoes() throws {
        let image = try full(path("still.heic"))
        XCTAssertEqual(image.info, SourceInfo(format: .heif, width: 96, height: 64))
        let reference = try full(path("still.heic.ref.png"))
        XCTAssertLessThan(largestDifference(image.pixmap, reference.pixmap), 1e-5)
    }

    /// Our decoder makes the RGB planes itself (hevc_plugin.c), by
    /// libheif's formula: limited range and BT.709 said by the nclx box,
    /// then libheif's clap, irot and imir, exactly as heif-convert shows it.
    func testALimitedRangeTurnedCutHEICDecodesAsLibheifsOwnToolDoes() throws {
        let before = HEIFRowSource.ownConversions
        let image = try full(path("turned.heic"))
        XCTAssertEqual(HEIFRowSource.ownConversions, before + 1, "made RGB by ycbcr_rgb.c, not by libheif")
        XCTAssertEqual(image.info, SourceInfo(format: .heif, width: 51, height: 77))
        let reference = try full(path("turned.heic.ref.png"))
        XCTAssertLessThan(largestDifference(image.pixmap, reference.pixmap), 1e-5)
    }

    func testHEVCIsDecodedByOurTwoWorkerPlugin() throws {
        // libheif's own plugin starts libde265 with one worker; ours (two)
        // must be the one it picks, or a 12 MP HEIC takes 1.7 times as long.
        _ = try full(path("still.heic"))
        XCTAssertEqual(HEIFRowSource.hevcDecoder, "urlcache-libde265")
    }

    func testItsProfileIsApplied() throws {
        // Adobe RGB numbers with their profile: near the sRGB original,
        // where the same numbers read as sRGB are far (26 dB for the JPEG).
        let heic = try full(path("adobe.heic")).pixmap
        let original = try full(Fixtures.icc.appendingPathComponent("srgb.png").path).pixmap
        let untagged = try full(Fixtures.icc.appendingPathComponent("adobe-untagged.jpg").path).pixmap
        let mean = { (a: Pixmap, b: Pixmap) -> Float in
            zip(a.values, b.values).map { abs($0 - $1) }.reduce(0, +) / Float(a.values.count)
        }
        XCTAssertLessThan(mean(heic, original), mean(untagged, original) / 2)
    }

    func testADamagedHEICIsOneClearError() throws {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path("still.heic")))
        let cut = NSTemporaryDirectory() + "cut-\(getpid()).heic"
        try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: cut))
        defer { unlink(cut) }
        XCTAssertThrowsError(try full(cut)) { error in
            let text = "\(error)"
            XCTAssertTrue(text.hasPrefix("corrupt HEIF image: "), text)
            XCTAssertFalse(text.contains("\n"), text)
        }
    }
}

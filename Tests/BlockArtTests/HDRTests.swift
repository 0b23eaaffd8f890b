import Foundation
import URLCacheTestSupport
import XCTest

@testable import BlockArt

/// HDR AVIF, HEIC and JPEG XL tone-mapped to SDR (make-hdr.py): an sRGB photo coded as PQ
/// and as HLG in BT.2020, its white at SDR's reference white, comes back as
/// it was; a 1000 cd/m² patch rolls off to near white without clipping the
/// rest, where the same code values read as SDR are far from the photo.
final class HDRTests: XCTestCase {
    private func path(_ name: String) -> String { Fixtures.formats.appendingPathComponent(name).path }

    private func pixmap(_ name: String) throws -> Pixmap {
        try ImageDecoder.decode(path: path(name)) { PixelSize(width: $0.width, height: $0.height) }.pixmap
    }

    /// PSNR on sRGB levels over the pixels outside the top-left 16x16 patch,
    /// and the patch's darkest level.
    private func compare(_ a: Pixmap, _ b: Pixmap) -> (psnr: Double, patch: Int) {
        let level = { (v: Float) -> Double in
            let l = Double(min(max(v, 0), 1))
            return 255 * (l <= 0.0031308 ? l * 12.92 : 1.055 * pow(l, 1 / 2.4) - 0.055)
        }
        var sum = 0.0
        var count = 0
        var patch = 255.0
        for y in 0..<a.height {
            for x in 0..<a.width {
                for c in 0..<3 {
                    let i = (y * a.width + x) * 3 + c
                    if x < 16, y < 16 {
                        patch = min(patch, level(a.values[i]))
                    } else {
                        let d = level(a.values[i]) - level(b.values[i])
                        sum += d * d
                        count += 1
                    }
                }
            }
        }
        return (10 * log10(255 * 255 / max(sum / Double(count), 1e-9)), Int(patch))
    }

    func testPQAndHLGComeBackAsTheSDRPhoto() throws {
        let original = try pixmap("hdr.ref.png")
        // The lossy HEIC at quality 95 loses about a dB to HEVC.
        for (name, floor) in [
            ("pq.avif", 32.0), ("hlg.avif", 32), ("pq.heic", 30), ("pq.jxl", 32), ("pq-lossy.jxl", 32),
        ] {
            let (psnr, patch) = compare(try pixmap(name), original)
            XCTAssertGreaterThan(psnr, floor, name)
            XCTAssertGreaterThan(patch, 240, "\(name): the 1000 cd/m² patch near white")
        }
    }
}

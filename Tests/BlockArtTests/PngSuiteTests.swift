import Foundation
import URLCacheKit
import URLCacheTestSupport
import XCTest

@testable import BlockArt

/// The PNG conformance suite: every valid file decodes to the expected RGBA8
/// pixels (16-bit scaled with rounding, no gamma), every corrupt one fails
/// with a message that names the problem.
final class PngSuiteTests: XCTestCase {
    static let suite = Fixtures.pngsuite

    struct Expected {
        var file: String
        var width: Int
        var height: Int
        var digest: String?
    }

    static func expectations() throws -> [Expected] {
        let text = try String(contentsOf: suite.appendingPathComponent("expected.tsv"), encoding: .utf8)
        return text.split(separator: "\n").dropFirst().map { line in
            let f = line.split(separator: "\t").map(String.init)
            if f.count >= 2 && f[1] == "invalid" { return Expected(file: f[0], width: 0, height: 0, digest: nil) }
            return Expected(file: f[0], width: Int(f[1]) ?? -1, height: Int(f[2]) ?? -1, digest: f[3])
        }
    }

    func testEveryValidFileMatchesItsDigest() throws {
        let all = try PngSuiteTests.expectations()
        let valid = all.filter { $0.digest != nil }
        XCTAssertGreaterThanOrEqual(valid.count, 160)
        for entry in valid {
            let path = PngSuiteTests.suite.appendingPathComponent(entry.file).path
            do {
                let image = try ImageDecoder.decodeRGBA8(path: path)
                XCTAssertEqual(image.width, entry.width, entry.file)
                XCTAssertEqual(image.height, entry.height, entry.file)
                XCTAssertEqual(URLCacheKit.SHA256.hex(image.pixels), entry.digest, entry.file)
            } catch {
                XCTFail("\(entry.file): \(error)")
            }
        }
    }

    /// Interlaced files stream their Adam7 passes into the filter: each one
    /// (basi*, s*i*: all depths and colour types, 1 to 40 pixels a side)
    /// gives the pixmap its non-interlaced twin gives, shrunk, enlarged and
    /// at full size.
    func testInterlacedFilesResampleLikeTheirPlainTwins() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: PngSuiteTests.suite.path)
        let interlaced = files.filter {
            $0.hasSuffix(".png") && ($0.hasPrefix("basi") || ($0.hasPrefix("s") && $0.dropFirst(3).hasPrefix("i")))
        }
        XCTAssertGreaterThanOrEqual(interlaced.count, 30)
        for file in interlaced {
            let twin =
                file.hasPrefix("basi")
                ? "basn" + String(file.dropFirst(4)) : String(file.prefix(3)) + "n" + String(file.dropFirst(4))
            guard files.contains(twin) else { continue }
            for (size, samples) in [
                (PixelSize(width: 5, height: 3), (4, 6)), (PixelSize(width: 1, height: 1), (1, 1)),
                (PixelSize(width: 64, height: 48), (2, 3)), (nil as PixelSize?, (1, 1)),
            ] {
                func decode(_ name: String) throws -> Pixmap {
                    try ImageDecoder.decode(
                        path: PngSuiteTests.suite.appendingPathComponent(name).path,
                        samples: samples
                    ) {
                        size ?? PixelSize(width: $0.width, height: $0.height)
                    }.pixmap
                }
                let a = try decode(file)
                let b = try decode(twin)
                XCTAssertEqual(a.width, b.width, file)
                let worst = zip(a.values, b.values).map { abs($0 - $1) }.max() ?? 0
                XCTAssertLessThan(worst, 1e-5, "\(file) vs \(twin) at \(String(describing: size))")
            }
        }
    }

    func testEveryCorruptFileFailsWithAMessage() throws {
        let invalid = try PngSuiteTests.expectations().filter { $0.digest == nil }
        XCTAssertEqual(invalid.count, 14)
        for entry in invalid {
            let path = PngSuiteTests.suite.appendingPathComponent(entry.file).path
            XCTAssertThrowsError(
                try ImageDecoder.decode(path: path) { PixelSize(width: $0.width, height: $0.height) },
                entry.file
            ) { error in
                let text = "\(error)"
                XCTAssertFalse(text.isEmpty)
                XCTAssertTrue(
                    text.contains("corrupt PNG image: ") || text.contains("damaged PNG (bad signature)"),
                    "names the problem: \(entry.file): \(text)"
                )
            }
        }
    }

    /// The g*-files hold one picture written with six file gammas (0.35 to
    /// 2.5): shown with their gAMA applied, as a browser shows them, all
    /// six look alike, where their numbers differ widely.
    func testTheGammaFilesLookAlikeWithTheirGammaApplied() throws {
        func decode(_ file: String) throws -> Pixmap {
            try ImageDecoder.decode(path: PngSuiteTests.suite.appendingPathComponent(file).path) {
                PixelSize(width: $0.width, height: $0.height)
            }
            .pixmap
        }
        /// The mean difference in light between two pictures, 0 to 1. (Not
        /// the largest: the six drawings' edges differ by a pixel here and there.)
        func difference(_ a: Pixmap, _ b: Pixmap) -> Float {
            zip(a.values, b.values).map { abs($0 - $1) }.reduce(0, +) / Float(max(a.values.count, 1))
        }
        for kind in ["n0g16", "n2c08", "n3p04"] {
            let reference = try decode("g10\(kind).png")
            for gamma in ["03", "04", "05", "07", "25"] {
                let file = "g\(gamma)\(kind).png"
                let raw = try ImageDecoder.decodeRGBA8(path: PngSuiteTests.suite.appendingPathComponent(file).path)
                let rawReference = try ImageDecoder.decodeRGBA8(
                    path: PngSuiteTests.suite.appendingPathComponent("g10\(kind).png").path
                )
                XCTAssertNotEqual(raw.pixels, rawReference.pixels, file)
                XCTAssertLessThan(difference(try decode(file), reference), 0.025, file)
            }
        }
    }
}

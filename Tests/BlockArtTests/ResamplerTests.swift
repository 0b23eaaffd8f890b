import XCTest

@testable import BlockArt

/// The box filter: PIL's BOX for each raster pixel, raster pixels averaged
/// per output pixel, rows streamed.
final class ResamplerTests: XCTestCase {
    /// One row (or column) of gray values as a pixmap.
    private func line(_ values: [Float], vertical: Bool = false) -> Pixmap {
        Pixmap(
            width: vertical ? 1 : values.count,
            height: vertical ? values.count : 1,
            values: values.flatMap { [$0, $0, $0] }
        )
    }

    private func grays(_ pixmap: Pixmap) -> [Float] {
        stride(from: 0, to: pixmap.values.count, by: 3).map { pixmap.values[$0] }
    }

    private func assertEqual(_ a: [Float], _ b: [Float], file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(a.count, b.count, file: file, line: line)
        for (x, y) in zip(a, b) { XCTAssertEqual(x, y, accuracy: 1e-6, "\(a) vs \(b)", file: file, line: line) }
    }

    /// Enlarging: 3 pixels onto 2 outputs of 4 raster pixels each. The
    /// raster centres fall in pixels 0 0 0 1 | 1 2 2 2, so the outputs are
    /// (3a + b) / 4 and (b + 3c) / 4, not the exact areas' (2a + b) / 3.
    func testEnlargingTakesThePixelUnderEachRasterPixel() {
        let (a, b, c): (Float, Float, Float) = (0.1, 0.5, 0.9)
        for vertical in [false, true] {
            let out = line([a, b, c], vertical: vertical)
                .resampled(width: vertical ? 1 : 2, height: vertical ? 2 : 1, samples: (4, 4))
            assertEqual(grays(out), [(3 * a + b) / 4, (b + 3 * c) / 4])
        }
    }

    /// Shrinking 5 pixels to 2: each output takes the pixels whose centres
    /// it covers, (0, 2.5] and (2.5, 5], with equal weights, as PIL does.
    func testShrinkingTakesThePixelsWhoseCentresItCovers() {
        let p: [Float] = [0.1, 0.2, 0.4, 0.6, 1.0]
        for vertical in [false, true] {
            let out = line(p, vertical: vertical).resampled(width: vertical ? 1 : 2, height: vertical ? 2 : 1)
            assertEqual(grays(out), [(p[0] + p[1] + p[2]) / 3, (p[3] + p[4]) / 2])
        }
    }

    /// Whatever the sizes, every output pixel's weights sum to one and every
    /// output row is delivered: a flat image stays flat.
    func testFlatStaysFlatAtAnySizeAndSampling() {
        let flat = Pixmap(width: 37, height: 23, fill: LinearRGB(0.25, 0.5, 0.75))
        for (w, h) in [(1, 1), (5, 3), (36, 22), (37, 23), (38, 24), (100, 61), (333, 7)] {
            for samples in [(1, 1), (4, 6), (4, 4), (3, 12)] {
                let out = flat.resampled(width: w, height: h, samples: samples)
                XCTAssertEqual(out.width, w)
                XCTAssertEqual(out.height, h)
                for y in 0..<h {
                    for x in 0..<w {
                        let c = out[x, y]
                        XCTAssertEqual(c.r, 0.25, accuracy: 1e-5, "\(w)x\(h) \(samples) at \(x),\(y)")
                        XCTAssertEqual(c.b, 0.75, accuracy: 1e-5, "\(w)x\(h) \(samples) at \(x),\(y)")
                    }
                }
            }
        }
    }

    /// The vertical pass (streamed row by row) weighs rows as the horizontal
    /// pass weighs columns: resampling the transposed image gives the
    /// transposed result.
    func testRowsAndColumnsAreFilteredAlike() {
        let w = 29
        let h = 17
        var values: [Float] = []
        var transposed = [Float](repeating: 0, count: w * h * 3)
        for y in 0..<h {
            for x in 0..<w {
                let v = Float((x * 7 + y * 13) % 31) / 30
                values += [v, v * 0.5, 1 - v]
                let t = (x * h + y) * 3
                transposed[t] = v
                transposed[t + 1] = v * 0.5
                transposed[t + 2] = 1 - v
            }
        }
        let image = Pixmap(width: w, height: h, values: values)
        let flipped = Pixmap(width: h, height: w, values: transposed)
        for (ow, oh, samples) in [(11, 40, (4, 6)), (60, 9, (2, 3)), (7, 7, (1, 1))] {
            let a = image.resampled(width: ow, height: oh, samples: samples)
            let b = flipped.resampled(width: oh, height: ow, samples: (samples.1, samples.0))
            for y in 0..<oh {
                for x in 0..<ow {
                    XCTAssertEqual(a[x, y].r, b[y, x].r, accuracy: 1e-5)
                    XCTAssertEqual(a[x, y].b, b[y, x].b, accuracy: 1e-5)
                }
            }
        }
    }
}

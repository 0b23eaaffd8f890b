import Foundation
import URLCacheTestSupport
import XCTest

@testable import BlockArt

/// Large PNGs and JPEGs are decoded on a second thread while this one
/// filters the rows: the pixels must be exactly those of one thread, and
/// every error and warning must come through without a hang.
final class RowPipelineTests: XCTestCase {
    private func bytes(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: Fixtures.images.appendingPathComponent(name)))
    }

    private func decode(_ bytes: [UInt8], pipelined: Bool) throws -> DecodedImage {
        try ImageDecoder.decode(
            bytes: bytes,
            background: RGB8(0, 40, 0),
            samples: (4, 6),
            pipelineRows: pipelined ? 1 : Int.max,
            size: { _ in PixelSize(width: 160, height: 96) },
            art: { _ in nil }
        ).image
    }

    func testTwoThreadsGiveExactlyTheOneThreadPixels() throws {
        for name in ["large.png", "large-interlaced.png"] {
            let input = try bytes(name)
            let one = try decode(input, pipelined: false)
            let two = try decode(input, pipelined: true)
            XCTAssertEqual(one.info, SourceInfo(format: .png, width: 800, height: 600), name)
            XCTAssertEqual(two.pixmap, one.pixmap, name)
            XCTAssertGreaterThan(Set(one.pixmap.values).count, 100, "\(name): a picture, not a blank")
        }
        // JPEG: libjpeg on the second thread, an EXIF-turned file among them.
        for name in ["earth.jpg", "photo.jpg", "tall.jpg"] {
            let input = try bytes(name)
            let one = try decode(input, pipelined: false)
            XCTAssertEqual(try decode(input, pipelined: true).pixmap, one.pixmap, name)
            XCTAssertGreaterThan(Set(one.pixmap.values).count, 100, "\(name): a picture, not a blank")
        }
        // PngSuite's small files, every kind, through the pipeline too.
        for file in try FileManager.default.contentsOfDirectory(atPath: Fixtures.pngsuite.path).sorted()
        where file.hasSuffix(".png") && !file.hasPrefix("x") {
            let input = Array(try Data(contentsOf: Fixtures.pngsuite.appendingPathComponent(file)))
            let sizeOf: (SourceInfo) -> PixelSize = { PixelSize(width: $0.width, height: $0.height) }
            XCTAssertEqual(
                try ImageDecoder.decode(bytes: input, pipelineRows: 1, size: sizeOf, art: { _ in nil }).image.pixmap,
                try ImageDecoder.decode(bytes: input, pipelineRows: .max, size: sizeOf, art: { _ in nil }).image.pixmap,
                file
            )
        }
    }

    func testDamageAnywhereIsAnErrorFromEitherThread() throws {
        let input = try bytes("large.png")
        // A flipped byte inside the image data: a CRC error, found by the decoding thread.
        var damaged = input
        damaged[input.count / 2] ^= 0xFF
        // Cut short at several places: early rows, the middle, just before the end.
        let cuts = [input.count / 10, input.count / 2, input.count - 20].map { Array(input.prefix($0)) }
        for (k, broken) in ([damaged] + cuts).enumerated() {
            for pipelined in [true, false] {
                XCTAssertThrowsError(try decode(broken, pipelined: pipelined), "case \(k), pipelined \(pipelined)") {
                    error in
                    guard case .corrupt(format: "PNG", _)? = error as? DecodeError else {
                        return XCTFail("case \(k): \(error)")
                    }
                }
            }
        }
    }

    func testATruncatedJPEGWarnsFromEitherThread() throws {
        let input = try bytes("photo.jpg")
        let cut = Array(input.prefix(input.count * 2 / 3))
        let one = try decode(cut, pipelined: false)
        let two = try decode(cut, pipelined: true)
        XCTAssertEqual(one.warnings, [.truncated(format: "JPEG")])
        XCTAssertEqual(two.warnings, one.warnings)
        XCTAssertEqual(two.pixmap, one.pixmap)
    }

    func testManyDecodesInARowLeaveNoThreadBehind() throws {
        let input = try bytes("large-interlaced.png")
        let expected = try decode(input, pipelined: false)
        for _ in 0..<20 {
            XCTAssertEqual(try decode(input, pipelined: true).pixmap, expected.pixmap)
            XCTAssertThrowsError(try decode(Array(input.prefix(input.count / 3)), pipelined: true))
        }
    }

    /// The pipeline holds no reference to the source: once the caller lets
    /// go, the source is closed at once, on the caller's thread. Were the
    /// producer thread's late release the last, a TIFF would stop its band
    /// decoder after the caller had closed the FILE that decoder reads
    /// (found by Scripts/fuzz: a SEGV in fmemopen's read).
    func testTheSourceIsClosedOnTheCallersThreadAsSoonAsItLetsGo() throws {
        let early = ClosedOn()
        var unused: CountingRows? = CountingRows(early)
        let pipeline = unused.map { RowPipeline(source: $0) }
        unused = nil
        XCTAssertEqual(early.thread, pthread_self(), "gone though the pipeline lives: it holds no reference")
        withExtendedLifetime(pipeline) {}
        for _ in 0..<50 {
            let closed = ClosedOn()
            var source: CountingRows? = CountingRows(closed)
            if let source { try RowPipeline(source: source).run { _, _ in } }
            source = nil
            XCTAssertEqual(closed.thread, pthread_self(), "closed, and on this thread")
        }
    }
}

private final class ClosedOn: @unchecked Sendable {
    var thread: pthread_t?
}

/// 300 rows of nothing, saying on which thread it was let go.
private final class CountingRows: RowSource {
    let closed: ClosedOn
    init(_ closed: ClosedOn) { self.closed = closed }
    deinit { closed.thread = pthread_self() }
    var format: ImageFormat { .png }
    var storedSize: PixelSize { PixelSize(width: 4, height: 300) }
    var orientation: Int { 1 }
    var width: Int { 4 }
    var height: Int { 300 }
    var channels: Int { 3 }
    var rowCount: Int { 300 }
    var warnings: [DecodeWarning] { [] }
    private var next = 0
    func start(minWidth: Int, minHeight: Int) throws(DecodeError) {}
    func nextRow(_ row: UnsafeMutablePointer<UInt8>) throws(DecodeError) -> RowPlacement {
        defer { next += 1 }
        return RowPlacement(y: next, count: 4)
    }
    func finish() throws(DecodeError) {}
}

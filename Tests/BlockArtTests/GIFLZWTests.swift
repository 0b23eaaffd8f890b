import Foundation
import XCTest

@testable import BlockArt

/// The shim's own LZW decoder (gif_lzw.c) against a GIF encoder written
/// here, on the cases an encoder in the wild may produce: a table that
/// fills and is never cleared, clears mid-line, strings far longer than a
/// line, one-byte sub-blocks, the smallest code size, and a code the table
/// does not have yet.
final class GIFLZWTests: XCTestCase {
    /// The lines of palette indices GIFRowSource reads from `bytes`, with
    /// the error that stopped it, if one did.
    private func lines(_ bytes: [UInt8]) throws -> (indices: [UInt8], warnings: [DecodeWarning]) {
        var copy = bytes
        let count = copy.count
        guard let file = copy.withUnsafeMutableBytes({ fmemopen($0.baseAddress, count, "rb") }) else {
            throw XCTSkip("fmemopen failed")
        }
        defer { fclose(file) }
        let source = try GIFRowSource(file: file, limits: DecodeLimits())
        XCTAssertEqual(source.channels, 1, "a frame filling its screen is read as indices")
        var out = [UInt8](repeating: 0, count: source.width * source.height)
        var row = [UInt8](repeating: 0, count: source.width)
        for _ in 0..<source.rowCount {
            let placed = try source.nextRow(&row)
            if placed.count > 0 {
                out.replaceSubrange(placed.y * source.width..<(placed.y + 1) * source.width, with: row)
            }
        }
        return (out, source.warnings)
    }

    private func noise(_ count: Int, colors: Int, seed: UInt64) -> [UInt8] {
        var state = seed
        return (0..<count).map { _ in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(Int(state >> 33) % colors)
        }
    }

    func testAFullTableThatIsNeverClearedKeepsDecoding() throws {
        let pixels = noise(300 * 60, colors: 256, seed: 1)
        let gif = GIFEncoder.gif(width: 300, height: 60, pixels: pixels, clearWhenFull: false)
        XCTAssertEqual(try lines(gif).indices, pixels)
    }

    func testClearsWhereverTheTableFills() throws {
        let pixels = noise(300 * 60, colors: 256, seed: 2)
        let gif = GIFEncoder.gif(width: 300, height: 60, pixels: pixels, clearWhenFull: true)
        XCTAssertEqual(try lines(gif).indices, pixels)
    }

    /// A flat picture makes strings of hundreds of pixels, and runs
    /// (KwKwK: a code used in the step that makes it); at 7 pixels a line
    /// nearly every string carries over into the lines after it.
    func testStringsLongerThanALineCarryOver() throws {
        let pixels = [UInt8](repeating: 3, count: 7 * 2000)
        XCTAssertEqual(try lines(GIFEncoder.gif(width: 7, height: 2000, pixels: pixels)).indices, pixels)
        let stripes = (0..<7 * 2000).map { UInt8($0 / 500 % 2) }
        XCTAssertEqual(try lines(GIFEncoder.gif(width: 7, height: 2000, pixels: stripes, minSize: 2)).indices, stripes)
    }

    /// Long strings are copied from where they were last written, often
    /// lines above, in a window of 1 MiB of which a slide keeps the last
    /// 64 KiB: a picture of 1.3 MB slides it, and strings written before
    /// the slide are spelled again from the table.
    func testLongStringsCopiedFromLinesAboveAcrossTheWindowsSlides() throws {
        let pixels = (0..<2600 * 500).map { (i: Int) -> UInt8 in
            let x = i % 2600
            let y = i / 2600
            return UInt8((x / 40 + y / 50) % 7)
        }
        let gif = GIFEncoder.gif(width: 2600, height: 500, pixels: pixels, minSize: 3)
        XCTAssertEqual(try lines(gif).indices, pixels)
    }

    func testTheSmallestCodeSizeAndOneByteSubBlocks() throws {
        let pixels = noise(50 * 50, colors: 2, seed: 3)
        let gif = GIFEncoder.gif(width: 50, height: 50, pixels: pixels, minSize: 1, blockSize: 1)
        XCTAssertEqual(try lines(gif).indices, pixels)
    }

    /// A code past the table's end stops the frame there: the lines before
    /// it are shown as decoded, the rest are background, with a warning.
    func testACodeNotInTheTableShowsTheLinesBefore() throws {
        let pixels = noise(40 * 40, colors: 16, seed: 4)
        let gif = GIFEncoder.gif(width: 40, height: 40, pixels: pixels, minSize: 4, badCodeAfter: 40 * 20)
        let decoded = try lines(gif)
        XCTAssertEqual(decoded.warnings, [.truncated(format: "GIF")])
        XCTAssertEqual(Array(decoded.indices.prefix(40 * 19)), Array(pixels.prefix(40 * 19)))
        XCTAssertEqual(Set(decoded.indices.suffix(40 * 19)), [0], "lines never decoded are left as they were")
    }
}

/// A plain GIF LZW encoder, for tests: one image filling its screen, a
/// 2^minSize-entry gray global palette.
enum GIFEncoder {
    static func gif(
        width: Int,
        height: Int,
        pixels: [UInt8],
        minSize: Int = 8,
        blockSize: Int = 255,
        clearWhenFull: Bool = true,
        badCodeAfter: Int? = nil
    ) -> [UInt8] {
        let le: (Int) -> [UInt8] = { [UInt8($0 & 255), UInt8($0 >> 8)] }
        var out = Array("GIF89a".utf8) + le(width) + le(height) + [0xF0 | UInt8(minSize - 1), 0, 0]
        for i in 0..<(1 << minSize) { out += [UInt8(i * 255 / ((1 << minSize) - 1)), 0, 0] }
        out += [0x2C] + le(0) + le(0) + le(width) + le(height) + [0, UInt8(minSize)]
        let data = lzw(pixels, minSize: minSize, clearWhenFull: clearWhenFull, badCodeAfter: badCodeAfter)
        for start in stride(from: 0, to: data.count, by: blockSize) {
            let block = data[start..<min(start + blockSize, data.count)]
            out += [UInt8(block.count)] + block
        }
        return out + [0, 0x3B]
    }

    /// One frame of `animation`: a rectangle of indices, how it goes.
    struct Frame {
        var left = 0, top = 0, width: Int, height: Int
        var pixels: [UInt8]
        var disposal = 1
        var transparent: UInt8?
    }

    /// Frames on a `width` × `height` screen with a 2^minSize-entry gray
    /// palette, looping forever.
    static func animation(width: Int, height: Int, frames: [Frame], minSize: Int = 4) -> [UInt8] {
        let le: (Int) -> [UInt8] = { [UInt8($0 & 255), UInt8($0 >> 8)] }
        var out = Array("GIF89a".utf8) + le(width) + le(height) + [0xF0 | UInt8(minSize - 1), 0, 0]
        for i in 0..<(1 << minSize) { out += [UInt8(i * 255 / ((1 << minSize) - 1)), 0, 0] }
        out += [0x21, 0xFF, 11] + Array("NETSCAPE2.0".utf8) + [3, 1, 0, 0, 0]
        for frame in frames {
            let flags = UInt8(frame.disposal << 2) | (frame.transparent == nil ? 0 : 1)
            out += [0x21, 0xF9, 4, flags, 4, 0, frame.transparent ?? 0, 0]
            out += [0x2C] + le(frame.left) + le(frame.top) + le(frame.width) + le(frame.height) + [0, UInt8(minSize)]
            let data = lzw(frame.pixels, minSize: minSize, clearWhenFull: true, badCodeAfter: nil)
            for start in stride(from: 0, to: data.count, by: 255) {
                let block = data[start..<min(start + 255, data.count)]
                out += [UInt8(block.count)] + block
            }
            out.append(0)
        }
        return out + [0x3B]
    }

    /// Codes as GIF orders them: least significant bit first, each as wide
    /// as the decoder's table then needs. The decoder adds an entry for each
    /// code but the first after a clear, one step behind the encoder's.
    static func lzw(_ pixels: [UInt8], minSize: Int, clearWhenFull: Bool, badCodeAfter: Int?) -> [UInt8] {
        let clear = 1 << minSize
        var bytes: [UInt8] = []
        var bits = 0
        var count = 0
        var width = minSize + 1
        var table: [Int: Int] = [:]
        var next = clear + 2
        var decoderNext = clear + 2
        var first = true
        func emit(_ code: Int) {
            bits |= code << count
            count += width
            while count >= 8 {
                bytes.append(UInt8(bits & 255))
                bits >>= 8
                count -= 8
            }
            if code == clear {
                table = [:]
                next = clear + 2
                decoderNext = clear + 2
                width = minSize + 1
                first = true
                return
            }
            if !first && decoderNext < 4096 { decoderNext += 1 }
            first = false
            if decoderNext >= 1 << width && width < 12 { width += 1 }
        }
        emit(clear)
        var prefix = Int(pixels[0])
        for (i, pixel) in pixels.enumerated().dropFirst() {
            if let bad = badCodeAfter, i == bad {
                emit(decoderNext + 1)
                prefix = Int(pixel)
                continue
            }
            let key = prefix << 8 | Int(pixel)
            if let code = table[key] {
                prefix = code
                continue
            }
            emit(prefix)
            if next < 4096 {
                table[key] = next
                next += 1
            } else if clearWhenFull {
                emit(clear)
            }
            prefix = Int(pixel)
        }
        emit(prefix)
        emit(clear + 1)
        if count > 0 { bytes.append(UInt8(bits & 255)) }
        return bytes
    }
}

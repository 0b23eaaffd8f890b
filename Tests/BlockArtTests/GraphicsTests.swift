import Foundation
import XCTest

@testable import BlockArt

/// The pixel formats, read back as a terminal would read them.
final class GraphicsTests: XCTestCase {
    /// A test picture: smooth gradients plus a few flat patches.
    private func picture(width: Int = 97, height: Int = 41) -> PixelImage {
        var rgb: [UInt8] = []
        for y in 0..<height {
            for x in 0..<width {
                if x < 10 && y < 10 {
                    rgb += [255, 0, 0]
                    continue
                }
                rgb += [UInt8(x * 255 / (width - 1)), UInt8(y * 255 / (height - 1)), UInt8((x + y) * 3 % 256)]
            }
        }
        return PixelImage(width: width, height: height, rgb: rgb)
    }

    private func psnr(_ a: [UInt8], _ b: [UInt8]) -> Double {
        let mse = zip(a, b).reduce(0.0) { $0 + pow(Double($1.0) - Double($1.1), 2) } / Double(a.count)
        return mse == 0 ? 99 : 10 * log10(255 * 255 / mse)
    }

    func testBase64MatchesFoundationForEveryTailLength() {
        for n in 0..<10 {
            let bytes = (0..<n).map { UInt8(($0 * 37 + 11) & 0xFF) }
            XCTAssertEqual(
                String(decoding: Base64.encode(bytes), as: UTF8.self),
                Data(bytes).base64EncodedString(),
                "length \(n)"
            )
        }
    }

    func testSixelDrawsThePictureWithinTheRegisters() throws {
        let image = picture()
        let bytes = SixelEncoder.encode(image, registers: 256)
        let drawn = try XCTUnwrap(SixelReader.read(bytes))
        XCTAssertEqual(drawn.width, image.width)
        XCTAssertEqual(drawn.height, image.height)
        XCTAssertLessThanOrEqual(drawn.registers, 256)
        XCTAssertLessThanOrEqual(
            try XCTUnwrap(SixelReader.read(SixelEncoder.encode(image, registers: 16))).registers,
            16
        )
        XCTAssertTrue(drawn.everyPixelSet, "a pixel was left undrawn")
        XCTAssertEqual(Array(drawn.rgb[0..<3]), [255, 0, 0], "the flat red patch keeps its colour")
        XCTAssertGreaterThan(psnr(drawn.rgb, image.rgb), 32)
        // More registers, a closer picture.
        let finer = try XCTUnwrap(SixelReader.read(SixelEncoder.encode(image, registers: 1024)))
        XCTAssertGreaterThan(psnr(finer.rgb, image.rgb), psnr(drawn.rgb, image.rgb))
    }

    func testSixelOfFewColoursIsExact() throws {
        var rgb: [UInt8] = []
        for i in 0..<(13 * 7) { rgb += i % 3 == 0 ? [0, 0, 255] : [250, 250, 250] }
        let image = PixelImage(width: 13, height: 7, rgb: rgb)
        let drawn = try XCTUnwrap(SixelReader.read(SixelEncoder.encode(image)))
        // Sixel colours are percentages: 250 is sent as 98%, shown as 250.
        XCTAssertEqual(drawn.rgb, rgb)
        XCTAssertEqual(drawn.registers, 2)
    }

    /// A picture large enough to be written on two cores, its bands cut
    /// in two halves (the last band one row high): every pixel as sent.
    func testSixelOfALargePictureIsWrittenInTwoHalvesExactly() throws {
        // Levels that survive sixel's percentages: 0, 128, 250, 255.
        let colours: [[UInt8]] = [[0, 0, 255], [250, 250, 250], [255, 0, 0], [0, 128, 0], [128, 128, 128]]
        let width = 300
        let height = 229
        var rgb: [UInt8] = []
        for y in 0..<height { for x in 0..<width { rgb += colours[(x / 7 + y / 5 + x * y % 3) % colours.count] } }
        let image = PixelImage(width: width, height: height, rgb: rgb)
        XCTAssertGreaterThanOrEqual(width * height, 1 << 16, "large enough for two cores")
        let drawn = try XCTUnwrap(SixelReader.read(SixelEncoder.encode(image)))
        XCTAssertEqual(drawn.width, width)
        XCTAssertEqual(drawn.height, height)
        XCTAssertTrue(drawn.everyPixelSet)
        XCTAssertEqual(drawn.rgb, rgb)
    }

    /// The per-cell candidate search finds what comparing every colour
    /// finds, the lowest index on a tie, for pixels all over the cube and
    /// a palette with colours on cell borders and colours at equal distances.
    func testEachPixelGetsItsNearestPaletteColourAsAFullSearchWould() {
        var generator = SystemRandomNumberGenerator()
        var palette: [SIMD3<Float>] = [
            [0, 0, 0], [255, 255, 255], [8, 8, 8], [7, 7, 7], [16, 0, 0], [0, 16, 0], [10, 12, 12], [12, 10, 12],
        ]
        while palette.count < 300 {
            palette.append(SIMD3((0..<3).map { _ in Float(UInt8.random(in: 0...255, using: &generator)) }))
        }
        var rgb: [UInt8] = []
        for _ in 0..<40_000 { rgb += (0..<3).map { _ in UInt8.random(in: 0...255, using: &generator) } }
        for level in 0..<24 { rgb += [UInt8(level), UInt8(level), UInt8(level), 11, 11, 12] }
        let found = rgb.withUnsafeBufferPointer {
            PaletteCells(colours: palette, rgb: $0).map($0, range: 0..<(rgb.count / 3))
        }
        for i in 0..<(rgb.count / 3) {
            let pixel = SIMD3(Float(rgb[i * 3]), Float(rgb[i * 3 + 1]), Float(rgb[i * 3 + 2]))
            let distances = palette.map { (($0 - pixel) * ($0 - pixel)).sum() }
            let best = distances.indices.min { distances[$0] < distances[$1] } ?? 0
            XCTAssertEqual(Int(found[i]), best, "pixel \(pixel)")
            if Int(found[i]) != best { return }
        }
    }

    func testKittyChunksAreAtMost4096AndCarryThePixels() throws {
        let image = picture(width: 200, height: 150)
        let bytes = KittyGraphics.display(image, id: 7, moveCursor: false, compress: true)
        let text = String(decoding: bytes, as: UTF8.self)
        let sequences = text.components(separatedBy: "\u{1B}\\").filter { !$0.isEmpty }
        XCTAssertGreaterThan(sequences.count, 1)
        var payload = ""
        for (n, sequence) in sequences.enumerated() {
            XCTAssertTrue(sequence.hasPrefix("\u{1B}_G"))
            let parts = sequence.dropFirst(3).split(separator: ";", maxSplits: 1)
            let control = String(parts[0])
            XCTAssertLessThanOrEqual(parts[1].count, 4096)
            XCTAssertTrue(control.hasSuffix(n == sequences.count - 1 ? "m=0" : "m=1"), control)
            if n == 0 {
                XCTAssertTrue(control.contains("a=T,f=24,s=200,v=150,i=7"), control)
                XCTAssertTrue(control.contains("C=1"), "the screen's picture keeps the cursor")
            }
            payload += parts[1]
        }
        let data = try XCTUnwrap(Data(base64Encoded: payload))
        if text.contains("o=z") {
            XCTAssertLessThan(data.count, image.rgb.count)
        } else {
            XCTAssertEqual(Array(data), image.rgb)
        }
        XCTAssertEqual(String(decoding: KittyGraphics.delete(id: 7), as: UTF8.self), "\u{1B}_Ga=d,d=I,i=7,q=2\u{1B}\\")
    }

    /// kitty's animation keys: a frame replaces the canvas with its gap in
    /// whole milliseconds (at least 1), and a GIF's loop count n is v=n+1
    /// (v=1: for ever).
    func testKittyAnimationFramesCarryTheirGapAndTheLoopCount() throws {
        let image = picture(width: 20, height: 10)
        let text = String(
            decoding: KittyGraphics.frame(image, id: 9, gap: .milliseconds(40), options: PictureOptions()),
            as: UTF8.self
        )
        XCTAssertTrue(text.hasPrefix("\u{1B}_Ga=f,f=24,s=20,v=10,i=9,X=1,z=40,q=2,m=0;"), text)
        let payload = try XCTUnwrap(text.split(separator: ";").last?.dropLast(2))
        XCTAssertEqual(Array(try XCTUnwrap(Data(base64Encoded: String(payload)))), image.rgb)
        let tiny = String(decoding: KittyGraphics.gap(id: 9, frame: 1, .microseconds(200)), as: UTF8.self)
        XCTAssertEqual(tiny, "\u{1B}_Ga=a,i=9,r=1,z=1,q=2\u{1B}\\")
        let say = { (playing: KittyGraphics.Playing, loops: Int) in
            String(decoding: KittyGraphics.animate(id: 9, playing, loops: loops), as: UTF8.self)
        }
        XCTAssertEqual(say(.looping, 0), "\u{1B}_Ga=a,i=9,s=3,v=1,q=2\u{1B}\\")
        XCTAssertEqual(say(.looping, 3), "\u{1B}_Ga=a,i=9,s=3,v=4,q=2\u{1B}\\")
        XCTAssertEqual(say(.loading, 3), "\u{1B}_Ga=a,i=9,s=2,q=2\u{1B}\\")
        XCTAssertEqual(say(.stopped, 0), "\u{1B}_Ga=a,i=9,s=1,q=2\u{1B}\\")
    }

    /// A frame in many chunks says `a=f` and its image in each: kitty 0.26
    /// took a chunk with `m` alone for the rest of the first frame, and
    /// overwrote it.
    func testEveryChunkOfAKittyFrameNamesTheFrame() throws {
        let image = picture(width: 60, height: 40)
        let text = String(
            decoding: KittyGraphics.frame(image, id: 9, gap: .milliseconds(40), options: PictureOptions()),
            as: UTF8.self
        )
        let chunks = text.components(separatedBy: "\u{1B}\\").filter { !$0.isEmpty }
        XCTAssertEqual(chunks.count, 3, "7200 bytes are 9600 in base64: three chunks")
        for chunk in chunks.dropFirst() {
            XCTAssertTrue(chunk.hasPrefix("\u{1B}_Ga=f,i=9,q=2,m="), chunk.prefix(30).description)
        }
        let payload = chunks.compactMap { $0.split(separator: ";").last }.joined()
        XCTAssertEqual(Array(try XCTUnwrap(Data(base64Encoded: payload))), image.rgb)
        let still = String(decoding: KittyGraphics.display(image, id: 9, moveCursor: false), as: UTF8.self)
        XCTAssertTrue(still.contains("\u{1B}_Gm=1;"), "a picture's later chunks carry m alone, as the protocol says")
    }

    func testITermSendsAPNGOfTheExactPixels() throws {
        let image = picture()
        let bytes = try XCTUnwrap(ITermImage.display(image, moveCursor: true))
        let text = String(decoding: bytes, as: UTF8.self)
        XCTAssertTrue(text.hasPrefix("\u{1B}]1337;File=inline=1;"))
        XCTAssertTrue(text.contains("width=97px;height=41px;preserveAspectRatio=0"))
        XCTAssertEqual(bytes.last, 0x07)
        let base64 = try XCTUnwrap(text.split(separator: ":").last).dropLast()
        let png = try XCTUnwrap(Data(base64Encoded: String(base64)))
        let decoded = try ImageDecoder.decode(
            bytes: Array(png),
            size: { PixelSize(width: $0.width, height: $0.height) }
        )
        XCTAssertEqual(decoded.pixmap.pixelImage(), image)
    }

    func testTmuxPassthroughDoublesEveryEscape() {
        let wrapped = TmuxPassthrough.wrap(Array("\u{1B}_Ga=T;AAAA\u{1B}\\".utf8))
        XCTAssertEqual(
            String(decoding: wrapped, as: UTF8.self),
            "\u{1B}Ptmux;\u{1B}\u{1B}_Ga=T;AAAA\u{1B}\u{1B}\\\u{1B}\\"
        )
    }

    /// The marks are kitty's table: 297 distinct combining marks that sit
    /// above (class 230), so that a cell reads back as its row and column.
    func testPlaceholderMarksAreDistinctCombiningMarksAbove() {
        let marks = KittyPlaceholders.diacritics.compactMap(Unicode.Scalar.init)
        XCTAssertEqual(marks.count, 297)
        XCTAssertEqual(Set(marks).count, 297)
        for mark in marks {
            XCTAssertEqual(mark.properties.generalCategory, .nonspacingMark, "U+\(String(mark.value, radix: 16))")
            XCTAssertEqual(mark.properties.canonicalCombiningClass, .above, "U+\(String(mark.value, radix: 16))")
        }
    }

    /// Each cell says its row, its column and the id's high byte; the
    /// colour says the low byte, and the id has nothing between.
    func testPlaceholderCellsNameTheirPlaceAndImage() throws {
        for seed: UInt32 in [0, 1, 254, 255, 70_000, .max] {
            let id = KittyPlaceholders.imageID(seed)
            XCTAssertTrue((1...255).contains(id & 0xFF) && id & 0xFFFF00 == 0, "\(seed) → \(id)")
        }
        let id = KittyPlaceholders.imageID(300)
        let text = String(decoding: KittyPlaceholders.row(7, columns: 40, id: id), as: UTF8.self)
        XCTAssertTrue(text.hasPrefix("\u{1B}[38;5;\(id & 0xFF)m") && text.hasSuffix("\u{1B}[39m"))
        let scalars = Array(text.unicodeScalars.drop { $0 != "\u{10EEEE}" }.prefix { $0 != "\u{1B}" })
        XCTAssertEqual(scalars.count, 40 * 4)
        let index = Dictionary(uniqueKeysWithValues: KittyPlaceholders.diacritics.enumerated().map { ($1, $0) })
        for column in 0..<40 {
            let cell = scalars[column * 4..<column * 4 + 4].map(\.value)
            XCTAssertEqual(cell[0], 0x10EEEE)
            XCTAssertEqual([index[cell[1]], index[cell[2]], index[cell[3]]], [7, column, Int(id >> 24)])
        }
    }

    /// tmux drops a passthrough longer than its 1 MiB input buffer: a
    /// screen-sized kitty upload (1.9 MB of base64) goes as one wrapper per
    /// 4 KiB chunk, and unwrapped it is the upload again.
    func testTmuxPassthroughWrapsEachChunkOnItsOwn() {
        let image = PixelImage(
            width: 1000,
            height: 480,
            rgb: (0..<1000 * 480 * 3).map { UInt8(truncatingIfNeeded: $0 * 7) }
        )
        let upload = KittyPlaceholders.upload(image, id: 5, columns: 100, rows: 24)
        let wrapped = TmuxPassthrough.wrap(upload)
        let pieces = String(decoding: wrapped, as: UTF8.self).components(separatedBy: "\u{1B}Ptmux;").dropFirst()
        XCTAssertEqual(
            pieces.count,
            String(decoding: upload, as: UTF8.self).components(separatedBy: "\u{1B}_G").count - 1
        )
        XCTAssertLessThanOrEqual(pieces.map(\.utf8.count).max() ?? 0, 2 * KittyGraphics.chunkSize + 64)
        let unwrapped = pieces.map { String($0.dropLast(2)).replacingOccurrences(of: "\u{1B}\u{1B}", with: "\u{1B}") }
            .joined()
        XCTAssertEqual(unwrapped, String(decoding: upload, as: UTF8.self))
    }

    func testPlacementKeepsAspectAndCentresOnCells() {
        // 600×400 into 60×20 cells of 8×16: the width decides.
        let p = PixelPlacement.fit(
            imageWidth: 600,
            imageHeight: 400,
            columns: 60,
            rows: 20,
            cellWidth: 8,
            cellHeight: 16,
            centred: true
        )
        XCTAssertEqual([p.width, p.height, p.columns, p.rows, p.columnOffset, p.rowOffset], [480, 320, 60, 20, 0, 0])
        // A tall image: the height decides, centred across the columns.
        let q = PixelPlacement.fit(
            imageWidth: 100,
            imageHeight: 400,
            columns: 60,
            rows: 20,
            cellWidth: 8,
            cellHeight: 16,
            centred: true
        )
        XCTAssertEqual([q.width, q.height, q.columns, q.rows, q.columnOffset, q.rowOffset], [80, 320, 10, 20, 25, 0])
        let r = PixelPlacement.fit(
            imageWidth: 100,
            imageHeight: 400,
            columns: 60,
            rows: 20,
            cellWidth: 8,
            cellHeight: 16,
            centred: false
        )
        XCTAssertEqual(r.columnOffset, 0)
    }
}

/// A sixel reader, as a terminal draws: enough of DEC's format to check
/// the encoder (raster attributes, RGB colour definitions, repeats, bands).
struct SixelReader {
    var width = 0, height = 0
    var rgb: [UInt8] = []
    var registers = 0
    var everyPixelSet = false

    static func read(_ bytes: [UInt8]) -> SixelReader? {
        let text = String(decoding: bytes, as: UTF8.self)
        guard text.hasPrefix("\u{1B}P"), text.hasSuffix("\u{1B}\\"), let q = text.firstIndex(of: "q") else {
            return nil
        }
        var body = Array(text[text.index(after: q)...].dropLast(2).utf8)
        var reader = SixelReader()
        var palette: [Int: [UInt8]] = [:]
        var set: [Bool] = []
        var colour = 0
        var x = 0
        var band = 0
        var i = 0
        func number() -> Int {
            var n = 0
            while i < body.count, (48...57).contains(body[i]) {
                n = n * 10 + Int(body[i] - 48)
                i += 1
            }
            return n
        }
        func numbers() -> [Int] {
            var values = [number()]
            while i < body.count, body[i] == UInt8(ascii: ";") {
                i += 1
                values.append(number())
            }
            return values
        }
        func draw(_ char: UInt8, _ count: Int) {
            let bits = Int(char) - 63
            for _ in 0..<count {
                for dy in 0..<6 where bits >> dy & 1 == 1 {
                    let y = band * 6 + dy
                    guard x < reader.width, y < reader.height, let c = palette[colour] else { continue }
                    let at = (y * reader.width + x) * 3
                    reader.rgb[at] = c[0]
                    reader.rgb[at + 1] = c[1]
                    reader.rgb[at + 2] = c[2]
                    set[y * reader.width + x] = true
                }
                x += 1
            }
        }
        body.append(0)
        while i < body.count - 1 {
            let c = body[i]
            switch c {
            case UInt8(ascii: "\""):
                i += 1
                let v = numbers()
                guard v.count == 4 else { return nil }
                reader.width = v[2]
                reader.height = v[3]
                reader.rgb = [UInt8](repeating: 0, count: v[2] * v[3] * 3)
                set = [Bool](repeating: false, count: v[2] * v[3])
            case UInt8(ascii: "#"):
                i += 1
                let v = numbers()
                if v.count == 5, v[1] == 2 {
                    palette[v[0]] = [v[2], v[3], v[4]].map { UInt8(($0 * 255 + 50) / 100) }
                }
                colour = v[0]
            case UInt8(ascii: "!"):
                i += 1
                let n = number()
                draw(body[i], n)
                i += 1
            case UInt8(ascii: "$"):
                x = 0
                i += 1
            case UInt8(ascii: "-"):
                x = 0
                band += 1
                i += 1
            case 63...126:
                draw(c, 1)
                i += 1
            default: return nil
            }
        }
        reader.registers = palette.count
        reader.everyPixelSet = !set.isEmpty && set.allSatisfy { $0 }
        return reader
    }
}

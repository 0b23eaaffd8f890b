import Foundation
import URLCacheHarness
import URLCacheTestSupport
import XCTest

/// `urlcache render` end to end: files, URLs through the cache, bad files.
final class RenderCommandTests: XCTestCase {
    var home: TemporaryDirectory!

    override func setUpWithError() throws { home = try TemporaryDirectory() }
    override func tearDown() { home = nil }

    /// Pixels only where a terminal asked for them, or a person named a format.
    func testAPipeGetsBlockArtAndANamedFormatIsWrittenAsAsked() throws {
        let photo = Fixtures.images.appendingPathComponent("photo.jpg").path
        let kitty = ["TERM": "xterm-kitty", "KITTY_WINDOW_ID": "1", "COLORTERM": "truecolor", "NO_COLOR": ""]
        let art = try runProgram(Paths.binary, ["render", "--size", "20x6", photo], environment: kitty)
        XCTAssertEqual(art.status, 0, art.stderr)
        XCTAssertTrue(art.stdout.contains("\u{1B}[38;2;"), "truecolour block art")
        XCTAssertFalse(art.stdout.contains("\u{1B}_G"))
        let saved = try runProgram(
            Paths.binary,
            ["render", "--format", "kitty", "--size", "20x6", photo],
            environment: kitty
        )
        XCTAssertTrue(saved.stdout.hasPrefix("\u{1B}_Ga=T,f=24,"), "someone may be saving them")
        let sixel = try runProgram(Paths.binary, ["render", "--format", "sixels", "--size", "20x6", photo])
        XCTAssertTrue(sixel.stdout.hasPrefix("\u{1B}P0;1;0q\"1;1;144;96#"), String(sixel.stdout.prefix(40)))
    }

    private func render(
        _ arguments: [String],
        environment: [String: String] = [:],
        input: Data? = nil
    ) throws -> RunResult {
        try urlcache(["render"] + arguments, home: home, environment: environment, input: input)
    }

    func testTruecolorArtHasOneLinePerRowAndResets() throws {
        let result = try render([
            Fixtures.images.appendingPathComponent("earth.jpg").path, "--size", "32x12", "--colors", "truecolor",
        ])
        XCTAssertEqual(result.status, 0, result.stderr)
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        XCTAssertEqual(lines.count, 12, "64×48 at 1:2 cells fills 32×12")
        for line in lines {
            XCTAssertTrue(line.hasSuffix("\u{1B}[0m"), String(line).debugDescription)
            XCTAssertTrue(line.contains("\u{1B}[38;2;") || line.contains("48;2;"))
        }
        XCTAssertFalse(result.stdout.contains("\u{1B}[H") || result.stdout.contains("\u{1B}[2J"), "no cursor movement")
    }

    func testColourModes() throws {
        let image = Fixtures.images.appendingPathComponent("sun.png").path
        let palette = try render([image, "--size", "20x10", "--colors", "256"])
        XCTAssertTrue(palette.stdout.contains("38;5;") || palette.stdout.contains("48;5;"))
        XCTAssertFalse(palette.stdout.contains(";2;"))
        let none = try render([image, "--size", "20x10", "--colors", "none"])
        XCTAssertFalse(none.stdout.contains("38;") || none.stdout.contains("48;"), none.stdout)
        let noColor = try render([image, "--size", "20x10"], environment: ["NO_COLOR": "1", "COLORTERM": "truecolor"])
        XCTAssertFalse(noColor.stdout.contains("38;") || noColor.stdout.contains("48;"), "NO_COLOR wins")
        let colorterm = try render(
            [image, "--size", "20x10"],
            environment: ["COLORTERM": "truecolor", "NO_COLOR": ""]
        )
        XCTAssertTrue(colorterm.stdout.contains(";2;"))
        let ascii = try render([image, "--size", "20x10", "--symbols", "ascii", "--colors", "none"])
        XCTAssertTrue(ascii.stdout.unicodeScalars.allSatisfy { $0.isASCII }, "ascii is ASCII")
    }

    func testBadFilesAreOneLineErrorsAndPrintNothing() throws {
        var files = ["empty.png", "page-saved-as.png", "tiny.gif", "bomb.png"].map {
            Fixtures.images.appendingPathComponent($0).path
        }
        let suite = Fixtures.pngsuite
        files += try FileManager.default.contentsOfDirectory(atPath: suite.path).filter { $0.hasPrefix("x") }
            .map { suite.appendingPathComponent($0).path }
        files.append(Fixtures.jpeg.appendingPathComponent("corrupt.jpg").path)
        XCTAssertGreaterThanOrEqual(files.count, 19)
        for file in files {
            let result = try render([file, "--size", "40x20"])
            XCTAssertEqual(result.status, 1, file)
            XCTAssertEqual(result.stdout, "", file)
            XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, "\(file): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains((file as NSString).lastPathComponent), result.stderr)
        }
        let missing = try render([home.file("nope.png")])
        XCTAssertEqual(missing.status, 2)
        XCTAssertTrue(missing.stderr.contains("no such file"), missing.stderr)
    }

    /// libavif and libtiff are opened on the first AVIF or TIFF, not linked:
    /// where they cannot be loaded (a dlopen that fails for them, preloaded,
    /// as on a machine without them) such a file is one line naming the
    /// format and the loader's reason, and every other format still decodes.
    func testAnAVIFOrTIFFWithoutItsLibraryIsOneLine() throws {
        let source = home.file("no-avif.c")
        let library = home.file("no-avif.so")
        try """
        #define _GNU_SOURCE
        #include <dlfcn.h>
        #include <string.h>
        void *dlopen(const char *file, int mode) {
            if (file && (strstr(file, "libavif") || strstr(file, "libtiff"))) return NULL;
            void *(*real)(const char *, int) = (void *(*)(const char *, int))dlsym(RTLD_NEXT, "dlopen");
            return real(file, mode);
        }
        """.write(toFile: source, atomically: true, encoding: .utf8)
        // The Swift toolchain's own clang: there on every machine that builds this.
        let clang = Paths.toolchainClang
        guard FileManager.default.isExecutableFile(atPath: clang.path) else { throw XCTSkip("no clang beside swift") }
        let built = try runProgram(clang, ["-shared", "-fPIC", "-o", library, source, "-ldl"])
        XCTAssertEqual(built.status, 0, built.stderr)
        let preload = ["LD_PRELOAD": library]
        let avif = try render(
            [Fixtures.formats.appendingPathComponent("still.avif").path, "--size", "20x6"],
            environment: preload
        )
        XCTAssertEqual(avif.status, 1, avif.stdout)
        XCTAssertEqual(avif.stdout, "")
        XCTAssertEqual(avif.stderr.split(separator: "\n").count, 1, avif.stderr)
        XCTAssertTrue(avif.stderr.contains("still.avif: cannot decode AVIF: "), avif.stderr)
        let tiff = try render(
            [Fixtures.root.appendingPathComponent("tiff/lzw.tif").path, "--size", "20x6"],
            environment: preload
        )
        XCTAssertEqual(tiff.status, 1, tiff.stdout)
        XCTAssertEqual(tiff.stderr.split(separator: "\n").count, 1, tiff.stderr)
        XCTAssertTrue(tiff.stderr.contains("lzw.tif: cannot decode TIFF: "), tiff.stderr)
        let gif = try render(
            [Fixtures.formats.appendingPathComponent("still.gif").path, "--size", "20x6"],
            environment: preload
        )
        XCTAssertEqual(gif.status, 0, gif.stderr)
        XCTAssertEqual(gif.stdout.split(separator: "\n").count, 6)
    }

    /// Piped, an animation prints its first frame as a still prints; with
    /// --animate on it plays: the cursor hidden, each later frame written
    /// over the first by moving back up, the cursor shown again at the end.
    func testAnimationsPlayOnlyWhenAsked() throws {
        let gif = Fixtures.formats.appendingPathComponent("animated.gif").path
        let piped = try render([gif, "--size", "24x8", "--colors", "256"])
        XCTAssertEqual(piped.status, 0, piped.stderr)
        XCTAssertFalse(piped.stdout.contains("\u{1B}[?25l"), "a pipe gets a still")
        XCTAssertEqual(piped.stdout.split(separator: "\n").count, 8)
        let played = try render([gif, "--size", "24x8", "--colors", "256", "--animate", "on", "--duration", "0.5"])
        XCTAssertEqual(played.status, 0, played.stderr)
        XCTAssertTrue(played.stdout.hasPrefix("\u{1B}[?25l" + piped.stdout), "the first frame is the still")
        XCTAssertTrue(played.stdout.hasSuffix("\u{1B}[?25h"))
        let redraws = played.stdout.components(separatedBy: "\u{1B}[").filter {
            $0.first?.isNumber == true && $0.contains("A\r")
        }
        XCTAssertGreaterThanOrEqual(redraws.count, 5, "40 ms frames for half a second")
        let bad = try render([gif, "--duration", "-1"])
        XCTAssertNotEqual(bad.status, 0)
        XCTAssertTrue(bad.stderr.contains("--duration"), bad.stderr)
    }

    /// An APNG plays as a GIF does: its two loops of four frames, then the
    /// cursor back; a damaged frame ends each loop early with one warning.
    func testAnAPNGPlaysAndADamagedFrameIsOneWarning() throws {
        let apng = Fixtures.formats.appendingPathComponent("animated.apng").path
        let played = try render([apng, "--size", "20x8", "--colors", "256", "--animate", "on"])
        XCTAssertEqual(played.status, 0, played.stderr)
        XCTAssertEqual(played.stderr, "")
        let redraws = played.stdout.components(separatedBy: "\u{1B}[").filter {
            $0.first?.isNumber == true && $0.contains("A\r")
        }
        XCTAssertEqual(redraws.count, 7, "two loops of four frames, the first written once")
        let damaged = Fixtures.formats.appendingPathComponent("damaged.apng").path
        let cut = try render([damaged, "--size", "20x8", "--colors", "256", "--animate", "on"])
        XCTAssertEqual(cut.status, 0, cut.stderr)
        XCTAssertEqual(cut.stderr.components(separatedBy: "APNG frame 4 is damaged").count - 1, 1, cut.stderr)
    }

    func testBadOptionsNameTheOption() throws {
        let image = Fixtures.images.appendingPathComponent("sun.png").path
        for (option, value) in [
            ("--size", "big"), ("--colors", "lots"), ("--symbols", "emoji"), ("--background", "red"),
        ] {
            let result = try render([image, option, value])
            XCTAssertNotEqual(result.status, 0)
            XCTAssertTrue(
                result.stderr.contains(option) || result.stderr.contains(value),
                "\(option): \(result.stderr)"
            )
        }
    }

    func testURLGoesThroughTheCachePolicy() throws {
        let nginx = try Nginx()
        defer { nginx.stop() }
        try copyFixture("sun.png", to: nginx.root)
        let first = try render([nginx.url("/sun.png"), "--size", "20x10"])
        XCTAssertEqual(first.status, 0, first.stderr)
        let second = try render([nginx.url("/sun.png"), "--size", "20x10"])
        XCTAssertEqual(second.stdout, first.stdout)
        XCTAssertEqual(nginx.requests.count, 1, "the second render used the fresh copy")
        let broken = try render([nginx.url("/missing.png")])
        XCTAssertEqual(broken.status, 1)
        XCTAssertTrue(broken.stderr.contains("HTTP 404"), broken.stderr)
    }

    func testStandardInputDirectoriesAndTruncatedJPEGs() throws {
        let sun = Fixtures.images.appendingPathComponent("sun.png").path
        let fromFile = try render([sun, "--size", "20x8", "--colors", "256"])
        let fromStdin = try render(
            ["-", "--size", "20x8", "--colors", "256"],
            input: try Data(contentsOf: URL(fileURLWithPath: sun))
        )
        XCTAssertEqual(fromStdin.status, 0, fromStdin.stderr)
        XCTAssertEqual(fromStdin.stdout, fromFile.stdout, "render - reads the image from standard input")
        let text = try render(["-"], input: Data("hello\n".utf8))
        XCTAssertEqual(text.status, 1)
        XCTAssertEqual(text.stderr, "urlcache: stdin: unsupported image format: text\n")

        let directory = try render([home.path])
        XCTAssertEqual(directory.status, 1)
        XCTAssertEqual(directory.stdout, "")
        XCTAssertEqual(directory.stderr, "urlcache: \(home.path): a directory, not an image file\n")

        let truncated = Fixtures.jpeg.appendingPathComponent("truncated.jpg").path
        let partial = try render([truncated, "--size", "20x8"])
        XCTAssertEqual(partial.status, 0, "shown partially, as a browser does")
        XCTAssertFalse(partial.stdout.isEmpty)
        XCTAssertEqual(partial.stderr, "urlcache: \(truncated): truncated JPEG: shown partially\n")
        let whole = try render([Fixtures.jpeg.appendingPathComponent("baseline.jpg").path, "--size", "20x8"])
        XCTAssertEqual(whole.stderr, "", "a whole JPEG gets no warning")
    }

    func testHelpGivesEachDefaultOnce() throws {
        let help = try urlcache(["render", "--help"], home: home)
        // Each option's paragraph: its first line starts with "  --".
        var paragraphs: [String] = []
        for line in help.stdout.split(separator: "\n") {
            if line.hasPrefix("  -") {
                paragraphs.append(String(line))
            } else if !paragraphs.isEmpty {
                paragraphs[paragraphs.count - 1] += " " + line
            }
        }
        XCTAssertTrue(paragraphs.contains { $0.contains("--background") && $0.contains("000000") }, help.stdout)
        for paragraph in paragraphs {
            XCTAssertLessThanOrEqual(paragraph.components(separatedBy: "default").count - 1, 1, paragraph)
        }
    }
}

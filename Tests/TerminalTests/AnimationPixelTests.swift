import Foundation
import URLCacheHarness
import URLCacheTestSupport
import XCTest

/// An animated GIF in the screen with real pixels, in real kitty and
/// `xterm -ti vt340` under Xvfb: paused with `space`, the picture on screen
/// is the frame the log says it paused at (PSNR against that frame, and far
/// worse against the others); stepped with `.`, it is the next one.
final class AnimationPixelTests: NginxTestCase {
    override func setUpWithError() throws {
        try super.setUpWithError()
        let made = try runProgram(
            URL(fileURLWithPath: "/usr/bin/python3"),
            [
                Fixtures.packageRoot.appendingPathComponent("Tests/Tools/make-animation.py").path,
                nginx.root.file("four.gif"),
            ]
        )
        guard made.status == 0 else {
            throw XCTSkip("python3-numpy and python3-pil make the animation: \(made.stderr)")
        }
    }

    /// The frame (1-based) the log last names: paused at, or stepped to;
    /// after `.` it must be a step, to the frame after the one paused at.
    private func frameShown(_ log: String, stepped: Bool) throws -> Int {
        let text = try String(contentsOfFile: log, encoding: .utf8)
        let named = text.split(separator: "\n").compactMap { line in
            line.firstMatch(of: /animation (paused at|stepped to) frame (\d+)/).flatMap { m in
                Int(m.2).map { (String(m.1), $0) }
            }
        }
        let last = try XCTUnwrap(named.last, "the log names the frame: \(text)")
        if stepped {
            let paused = try XCTUnwrap(named.last { $0.0 == "paused at" }, "paused first: \(text)")
            XCTAssertEqual(last.0, "stepped to", "`.` stepped: \(text)")
            XCTAssertEqual(last.1, paused.1 % 4 + 1, "to the next frame: \(text)")
        }
        return last.1
    }

    /// The screen in `terminal` after `keys`: the frame on screen and its
    /// PSNR against each of the four frames.
    private func shot(
        _ terminal: String,
        keys: String,
        rows: String,
        environment: [String] = []
    ) throws -> (frame: Int, db: [Double]) {
        let log = home.file("screen-\(UUID().uuidString).log")
        let list = try writeList([nginx.url("/four.gif")], in: home)
        let screen =
            Termshot.clean + environment + [
                "NO_PROXY=127.0.0.1", Paths.binary.path, "--config", list, "--cache-dir", home.file("cache"),
                "--log-file", log,
            ]
        let png = try Termshot.shot(terminal, screen, in: home, keys: keys, wait: terminal == "kitty" ? 7 : 5)
        let db = try (0..<4).map {
            try Termshot.measure(png, against: nginx.root.file("four.gif.frame\($0).png"), rows: rows).db
        }
        return (try frameShown(log, stepped: keys.contains("period")), db)
    }

    private func assertPausedAndStepped(
        _ terminal: String,
        rows: String,
        atLeast decibels: Double,
        environment: [String] = []
    ) throws {
        let paused = try shot(terminal, keys: "space", rows: rows, environment: environment)
        if paused.db.allSatisfy({ $0 == 0 }) { throw XCTSkip("\(terminal) opened no window here") }
        let frame = paused.frame - 1
        XCTAssertGreaterThan(paused.db[frame], decibels, "frame \(paused.frame), paused: \(paused.db)")
        for other in 0..<4 where other != frame {
            XCTAssertLessThan(paused.db[other], paused.db[frame] - 6, "not frame \(other + 1): \(paused.db)")
        }
        let stepped = try shot(terminal, keys: "space period", rows: rows, environment: environment)
        let next = stepped.frame - 1
        print(
            "\(terminal): paused at frame \(paused.frame) \(paused.db) dB; stepped to \(stepped.frame) \(stepped.db) dB"
        )
        XCTAssertGreaterThan(stepped.db[next], decibels, "stepped to frame \(stepped.frame): \(stepped.db)")
        for other in 0..<4 where other != next {
            XCTAssertLessThan(stepped.db[other], stepped.db[next] - 6, "not frame \(other + 1): \(stepped.db)")
        }
    }

    func testKittyPlaysTheFramesInRealPixels() throws {
        try assertPausedAndStepped("kitty", rows: "0:620", atLeast: 27)
    }

    /// The same over ssh (its variable says so; termshot joins the command
    /// with spaces, so SSH_TTY): kitty keeps the frames,
    /// each added as base64 in chunks that each name the frame.
    func testKittyPlaysTheFramesSentAsBase64() throws {
        try assertPausedAndStepped("kitty", rows: "0:620", atLeast: 27, environment: ["SSH_TTY=/dev/pts/9"])
    }

    /// `render` in real kitty hands the animation to kitty: played once
    /// (no loop count), it ends on the last frame, which only reached kitty
    /// as an animation frame (a=f), never as a picture of its own.
    func testKittyPlaysARenderedAnimationToItsLastFrame() throws {
        try assertKittyPlaysToTheLastFrame(environment: "")
    }

    /// The same over ssh (its variable is what says so): the frames go as
    /// base64 in chunks, not by shared memory, and each chunk names its
    /// frame (kitty 0.26 put a chunk with `m` alone into the first frame).
    func testKittyPlaysARenderedAnimationSentAsBase64() throws {
        try assertKittyPlaysToTheLastFrame(environment: "SSH_CONNECTION='127.0.0.1 50000 127.0.0.1 22' ")
    }

    private func assertKittyPlaysToTheLastFrame(environment: String, line: UInt = #line) throws {
        let once = nginx.root.file("once.gif")
        let made = try runProgram(
            URL(fileURLWithPath: "/usr/bin/python3"),
            [Fixtures.packageRoot.appendingPathComponent("Tests/Tools/make-animation.py").path, once, "--once"]
        )
        guard made.status == 0 else {
            throw XCTSkip("python3-numpy and python3-pil make the GIF that plays once: \(made.stderr)")
        }
        let script = home.file("play.sh")
        try "#!/bin/sh\n\(environment)\(Paths.binary.path) render --size 40x12 \(once)\nsleep 30\n".write(
            toFile: script,
            atomically: true,
            encoding: .utf8
        )
        chmod(script, 0o755)
        // Its four frames take 2 s; a kitty slow to read them holds the
        // first meanwhile, which would look settled: 6 s at least.
        let png = try Termshot.shot("kitty", Termshot.clean + [script], in: home, keys: "", wait: 10, atLeast: 6)
        let db = try (0..<4).map {
            try Termshot.measure(png, against: nginx.root.file("once.gif.frame\($0).png"), rows: "0:620").db
        }
        if db.allSatisfy({ $0 == 0 }) { throw XCTSkip("kitty opened no window here") }
        XCTAssertGreaterThan(db[3], 40, "the last frame: \(db)", line: line)
        for other in 0..<3 { XCTAssertLessThan(db[other], db[3] - 20, "not frame \(other + 1): \(db)", line: line) }
    }

    func testSixelPlaysTheFramesInRealPixels() throws {
        try assertPausedAndStepped("xterm-sixel", rows: "19:427", atLeast: 25)
    }
}

import BlockArt
import Foundation
import URLCacheTestSupport
import XCTest

/// The loop both players share: loop counts, the kept first loop within
/// its budget, and the end of a loop too short to move.
final class FrameLoopTests: XCTestCase {
    private func loop(_ name: String, budget: Int = KeptFrameBudget.bytes) throws -> FrameLoop<Int> {
        let decoder = try XCTUnwrap(
            AnimationDecoder.open(path: Fixtures.formats.appendingPathComponent(name).path) { _ in
                PixelSize(width: 4, height: 4)
            }
        )
        return FrameLoop(decoder, budget: budget)
    }

    /// Plays `loop` as a player does, keeping each frame's index at 10
    /// bytes: the indices shown, at most `most`.
    private func play(_ loop: inout FrameLoop<Int>, most: Int = 20) throws -> [Int] {
        var shown: [Int] = []
        while shown.count < most {
            let next: Int?
            if loop.readsKept {
                next = loop.kept(loop.position)?.item
            } else {
                next = try loop.decoder.next().map { frame in
                    loop.keep(frame.index, delay: frame.delay, bytes: 10)
                    return frame.index
                }
            }
            guard let next else {
                guard try loop.loopEnded() else { break }
                continue
            }
            shown.append(next)
            loop.advance()
        }
        return shown
    }

    func testTheLoopCountIsPlayedFromTheKeptFramesOrDecodedAgain() throws {
        var kept = try loop("twice.gif")
        XCTAssertEqual(try play(&kept), [0, 1, 2, 0, 1, 2])
        XCTAssertTrue(kept.readsKept, "the second loop came from the kept frames")
        XCTAssertEqual(kept.plays, 2)
        var tight = try loop("twice.gif", budget: 25)
        XCTAssertEqual(try play(&tight), [0, 1, 2, 0, 1, 2], "past the budget: decoded again after a rewind")
        XCTAssertFalse(tight.readsKept)
        XCTAssertNil(tight.kept(0), "nothing kept once the loop did not fit")
        var once = try loop("once.gif")
        XCTAssertEqual(try play(&once, most: 1), [0])
        XCTAssertEqual(once.loopCount, 1, "no NETSCAPE block, seen with the first frame: once")
        XCTAssertTrue(once.staysAt(2), "its one loop's last frame is the one that stays")
        XCTAssertFalse(once.staysAt(1))
        XCTAssertEqual(try play(&once), [1, 2])
    }

    func testALoopTooShortToMoveEndsAndARestartPlaysAgain() throws {
        var endless = try loop("animated.gif")
        XCTAssertEqual(endless.loopCount, 0)
        XCTAssertEqual(try play(&endless, most: 8), [0, 1, 2, 3, 4, 5, 0, 1])
        endless.restart()
        XCTAssertEqual(endless.position, 0)
        XCTAssertEqual(try play(&endless, most: 3), [0, 1, 2], "kept whole: from the first frame again")
        // A loop that read one frame: nothing would move.
        var short = try loop("twice.gif")
        _ = try short.decoder.next()
        short.advance()
        XCTAssertFalse(try short.loopEnded(), "one frame a loop ends it")
    }
}

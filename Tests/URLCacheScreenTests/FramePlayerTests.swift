import BlockArt
import Foundation
import URLCacheTestSupport
import XCTest

@testable import URLCacheScreen

/// The screen's frames of an animation: loop counts honoured, a played-out
/// animation played again from its first frame, a still not an animation.
final class FramePlayerTests: XCTestCase {
    private func player(_ name: String, keeping: Int = KeptFrameBudget.bytes) throws -> FramePlayer {
        try XCTUnwrap(
            FramePlayer(
                path: Fixtures.formats.appendingPathComponent(name).path,
                size: PixelSize(width: 10, height: 10),
                background: RGB8(0, 0, 0),
                samples: (1, 1),
                keeping: keeping
            )
        )
    }

    /// The frames' indices until the player says it is done (at most `most`).
    private func indices(_ player: FramePlayer, most: Int = 20) -> [Int] {
        var shown: [Int] = []
        while shown.count < most, let frame = player.nextFrame() { shown.append(frame.index) }
        return shown
    }

    func testALoopCountIsPlayedAndAPlayedOutAnimationStartsOver() throws {
        let once = try player("once.gif")
        XCTAssertEqual(once.frames, 3, "counted before it plays")
        XCTAssertEqual(indices(once), [1, 2], "the still on screen was frame 0; no NETSCAPE block: once")
        once.restart()
        XCTAssertEqual(indices(once), [0, 1, 2], "space on a played-out animation: from its first frame again")
        let twice = try player("twice.gif")
        XCTAssertEqual(indices(twice), [1, 2, 0, 1, 2], "NETSCAPE 1: played twice")
        twice.restart()
        XCTAssertEqual(indices(twice), [0, 1, 2, 0, 1, 2], "the kept frames, again twice")
        XCTAssertEqual(
            indices(try player("animated.gif"), most: 14),
            [1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 0, 1, 2],
            "forever"
        )
    }

    /// Frames passed over (the screen fell behind) are not shown, and the
    /// loop goes on round as before; however much is asked, fewer than a
    /// loop are passed over in one call, so a frame always comes.
    func testFramesPassedOverAreNotShownAndAtMostALoopIs() throws {
        let forever = try player("animated.gif")
        var passed = 0
        let next = forever.nextFrame { _ in
            passed += 1
            return passed <= 2
        }
        XCTAssertEqual(next?.index, 3, "frames 1 and 2 passed over")
        XCTAssertEqual(
            forever.nextFrame { _ in true }?.index,
            3,
            "at most 4, 5, 0, 1 and 2 passed over (one short of a loop), then 3"
        )
        XCTAssertEqual(indices(forever, most: 4), [4, 5, 0, 1])
    }

    /// Behind on an animation that plays once, the screen may pass over
    /// frames, but not the last: it is the picture that stays.
    func testTheFrameAPlayedOutAnimationStaysOnIsNeverPassedOver() throws {
        let once = try player("once.gif")
        XCTAssertEqual(once.nextFrame { _ in true }?.index, 2, "frame 1 passed over, the last shown")
        XCTAssertNil(once.nextFrame(), "then it has played out")
        let twice = try player("twice.gif")
        XCTAssertEqual(
            twice.nextFrame { _ in true }?.index,
            0,
            "the first loop's last frame may be passed over: the second loop begins"
        )
        XCTAssertEqual(twice.nextFrame { _ in true }?.index, 2, "the second loop's may not")
        XCTAssertNil(twice.nextFrame())
    }

    /// A zoom mid-way through the first loop takes the player back to frame
    /// 0 while it is still keeping that loop: the loop is kept from there,
    /// not with the frames before the zoom in front of it.
    func testARestartInTheFirstLoopKeepsTheLoopOnce() throws {
        let twice = try player("twice.gif")
        XCTAssertEqual(twice.nextFrame()?.index, 1)
        twice.restart()
        XCTAssertEqual(indices(twice), [0, 1, 2, 0, 1, 2])
        XCTAssertEqual(twice.frames, 3)
    }

    /// A frame the screen holds from a loop before comes without pixels,
    /// and `made` gives it the pixels it would have had: from the kept
    /// loop, or, with nothing kept (`keeping: 0`), filtered from the
    /// canvas the decoder composed, which later frames were drawn over.
    func testHeldFramesComeWithoutPixelsAndAreMadeAsTheyWouldHaveBeen() throws {
        for keeping in [KeptFrameBudget.bytes, 0] {
            let player = try player("animated.gif", keeping: keeping)
            var first: [Int: Pixmap] = [:]
            for _ in 0..<6 {
                let frame = try XCTUnwrap(player.nextFrame())
                first[frame.index] = try XCTUnwrap(frame.pixmap, "the first loop holds nothing")
            }
            XCTAssertEqual(first.count, 6)
            for _ in 0..<6 {
                let frame = try XCTUnwrap(player.nextFrame(held: { $0 % 2 == 1 }))
                if frame.index % 2 == 1 {
                    XCTAssertNil(frame.pixmap, "frame \(frame.index) held: not filtered (keeping \(keeping))")
                    XCTAssertEqual(
                        player.pixmap(ofHeld: frame.index),
                        first[frame.index],
                        "frame \(frame.index) made after all"
                    )
                } else {
                    XCTAssertEqual(
                        frame.pixmap,
                        first[frame.index],
                        "frame \(frame.index) not held (keeping \(keeping))"
                    )
                }
            }
        }
    }

    func testAStillIsNoAnimation() {
        XCTAssertNil(
            FramePlayer(
                path: Fixtures.formats.appendingPathComponent("still.gif").path,
                size: PixelSize(width: 10, height: 10),
                background: RGB8(0, 0, 0),
                samples: (1, 1)
            )
        )
    }
}

import Foundation
import URLCacheKit
import XCTest

@testable import URLCacheScreen

/// An animation's keys, status and deadline, without a terminal.
final class PlaybackTests: XCTestCase {
    private let toolbar = Toolbar(width: 80)
    private func playing(due: Date? = Date(timeIntervalSince1970: 100)) -> ScreenState {
        var state = ScreenState(entries: [URLEntry(url: URL(string: "http://a/b.gif")!)])
        state.playback = Playback(frame: 3, frames: 48, due: due)
        return state
    }

    private func key(_ character: Character, _ state: inout ScreenState) -> [Effect] {
        ScreenLogic.handle(.key(.character(character)), &state, toolbar: toolbar, toolbarRow: nil)
    }

    func testSpacePausesOnItsFrameAndDotStepsAndSpacePlaysOn() {
        var state = playing()
        XCTAssertNil(state.playback?.status, "nothing said while it plays")
        XCTAssertEqual(key(" ", &state), [.playback])
        XCTAssertEqual(state.playback?.paused, true)
        XCTAssertNil(state.playback?.due, "a paused animation sets no deadline")
        XCTAssertEqual(state.playback?.status, "frame 4 of 48 · paused (space plays)")
        XCTAssertEqual(key(".", &state), [.nextFrame])
        XCTAssertEqual(key(" ", &state), [.playback], "playing again: the shell shows the next frame now")
        XCTAssertEqual(state.playback?.paused, false)
        XCTAssertEqual(key(".", &state), [], "`.` steps only while paused")
    }

    func testSpaceOnAPlayedOutAnimationPlaysItAgainAndZoomedItHasNoKeys() {
        var state = playing(due: nil)
        state.playback?.ended = true
        XCTAssertEqual(key(" ", &state), [.playback], "the shell starts it over")
        XCTAssertEqual(state.playback?.paused, false, "played again, not paused")
        state.playback?.ended = false
        state.viewport.zoom = 2
        XCTAssertEqual(key(" ", &state), [], "zoomed: its first frame is shown, nothing to pause")
        XCTAssertEqual(state.playback?.paused, false)
    }

    func testAStillHasNoAnimationKeys() {
        var state = ScreenState(entries: [URLEntry(url: URL(string: "http://a/b.jpg")!)])
        XCTAssertEqual(key(".", &state), [])
        XCTAssertNil(state.playback)
    }

    func testItMovesOnlyWithNothingOverOrInsteadOfIt() {
        var state = playing()
        XCTAssertTrue(ScreenLogic.animating(state))
        let now = Date(timeIntervalSince1970: 50)
        XCTAssertEqual(
            ScreenLogic.nextWake(state, now: now, interval: 86_400, spinnerPeriod: 0.1),
            Date(timeIntervalSince1970: 100),
            "the loop wakes for the next frame"
        )
        state.overlay = .help
        XCTAssertFalse(ScreenLogic.animating(state), "a box stops it")
        XCTAssertNotEqual(
            ScreenLogic.nextWake(state, now: now, interval: 86_400, spinnerPeriod: 0.1),
            Date(timeIntervalSince1970: 100)
        )
        state.overlay = nil
        state.viewport.zoom = 2
        XCTAssertFalse(ScreenLogic.animating(state), "a zoomed view is of its first frame")
        state = playing()
        state.playback?.ended = true
        XCTAssertFalse(ScreenLogic.animating(state))
        XCTAssertEqual(state.playback?.status, "frame 4 of 48", "played out: it says where it stopped")
    }

    func testFrameTimingCountsHowLateFramesWereFromWhenTheyWereDue() {
        var timing = FrameTiming()
        let due = Date(timeIntervalSince1970: 100)
        timing.record(due: due, drawn: due.addingTimeInterval(0.005))
        timing.record(due: due, drawn: due.addingTimeInterval(0.045))
        timing.record(due: due, drawn: due.addingTimeInterval(-0.001))
        XCTAssertEqual(timing.shown, 3)
        XCTAssertEqual(timing.late, 1, "only the frame past 20 ms is late; one drawn early counts as on time")
        XCTAssertEqual(timing.worst, 0.045, accuracy: 1e-6)
        timing.passedOver()
        timing.passedOver()
        XCTAssertEqual(
            timing.description,
            "3 frames shown, 2 passed over to catch up, 1 late by more than 20 ms, 16.7 ms late on average, 45.0 ms at most"
        )
    }

    /// Behind by a frame's whole time, the screen passes over it and the
    /// next is due when it would have been; behind by more than a second,
    /// it was paused, not slow, and nothing is passed over.
    func testAFrameWhoseTimeHasPassedIsPassedOverButNotAfterAPause() {
        var state = playing(due: Date(timeIntervalSince1970: 100))
        let delay = Duration.milliseconds(40)
        let due = Date(timeIntervalSince1970: 100)
        XCTAssertFalse(
            ScreenLogic.frameOverdue(state, delay: delay, now: due.addingTimeInterval(0.039)),
            "late, but within its time"
        )
        XCTAssertTrue(
            ScreenLogic.frameOverdue(state, delay: delay, now: due.addingTimeInterval(0.041)),
            "its 40 ms have passed"
        )
        XCTAssertFalse(
            ScreenLogic.frameOverdue(state, delay: delay, now: due.addingTimeInterval(Playback.catchUpLimit)),
            "a second behind is a pause: it goes on from now"
        )
        ScreenLogic.frameSkipped(delay, &state)
        XCTAssertEqual(state.playback?.due, due.addingTimeInterval(0.040), "the next is due when it would have been")
        XCTAssertEqual(state.playback?.frame, 3, "nothing passed over is on screen")
        state.playback?.paused = true
        XCTAssertFalse(
            ScreenLogic.frameOverdue(state, delay: delay, now: due.addingTimeInterval(0.5)),
            "paused: nothing is due"
        )
    }

    /// `space` on a frame made ready past others shows it (the shell's
    /// part); `isNext` tells which frames follow the one on screen.
    func testTheNextFrameInOrder() {
        let playback = Playback(frame: 3, frames: 48)
        XCTAssertTrue(playback.isNext(4))
        XCTAssertFalse(playback.isNext(5), "one passed over")
        XCTAssertTrue(Playback(frame: 47, frames: 48).isNext(0), "the loop comes round")
        XCTAssertTrue(Playback(frame: 3).isNext(4), "the first loop, its length not yet known")
        XCTAssertFalse(Playback(frame: 3).isNext(0))
    }

    /// A frame is timed against when it was due, unless the animation was
    /// held meanwhile (a box was open): it goes on from then, not late.
    func testAFrameAfterAPauseIsNotTimedAsLate() {
        let due = Date(timeIntervalSince1970: 100)
        let state = playing(due: due)
        XCTAssertEqual(ScreenLogic.timedDue(state, now: due.addingTimeInterval(0.3)), due, "behind: timed, and late")
        XCTAssertNil(
            ScreenLogic.timedDue(state, now: due.addingTimeInterval(Playback.catchUpLimit + 2)),
            "after a box: not timed"
        )
        XCTAssertNil(ScreenLogic.timedDue(playing(due: nil), now: due), "a frame asked for has no due time")
    }
}

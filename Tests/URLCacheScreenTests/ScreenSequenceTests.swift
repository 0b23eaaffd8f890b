import BlockArt
import Foundation
import URLCacheTestSupport
import XCTest

@testable import URLCacheKit
@testable import URLCacheScreen

/// The screen's shell in-process, as sequences of events: a stand-in
/// terminal that keeps what was drawn, a stand-in transport, a real cache,
/// and the shell's own loader and player. Each step is what one pass of
/// the key loop does for that event; the assertions read the state and
/// the art drawn.
final class ScreenSequenceTests: XCTestCase {
    private var directory: URL!
    private let url = URL(string: "http://images.example/loop.gif")!
    /// Six frames of 48×32 that loop for ever, each unlike the last.
    private let gif = Fixtures.formats.appendingPathComponent("animated.gif")

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("urlcache-seq-\(UUID().uuidString)")
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    /// The screen on the GIF, fetched once, its first frame drawn.
    private func openScreen(_ terminal: RecordingTerminal) throws -> ScreenApp {
        let head = ResponseHead(status: 200, reason: "OK", contentType: "image/gif", validators: Validators())
        let transport = StandInTransport([.response(head, body: [Array(try Data(contentsOf: gif))])])
        let controller = URLCacheController(cache: DiskCache(directory: directory.path), transport: transport)
        let list = URLList(entries: [URLEntry(url: url, title: "Loop")], source: "test")
        let app = try ScreenApp(
            options: ScreenApp.Options(list: list, controller: controller),
            window: terminal.size,
            cellPixels: terminal.cellPixels
        ) { (terminal, ScreenView.PictureSettings()) }
        settle(app)
        XCTAssertEqual(app.state.playback?.frame, 0, "the GIF plays")
        return app
    }

    /// What the loop does once the loader is done: its result taken, the
    /// animation looked at, the screen drawn.
    private func settle(_ app: ScreenApp) {
        let deadline = Date().addingTimeInterval(10)
        while app.services.loader.running && Date() < deadline { usleep(1000) }
        _ = app.takeWakeups()
        _ = app.syncAnimation()
        app.draw()
    }

    /// The next frame, as when it is due: shown and drawn.
    private func nextFrame(_ app: ScreenApp) {
        _ = app.advanceAnimation(now: Date(), asked: true)
        app.draw()
    }

    /// Keys, as the terminal hands them over, then the draw.
    private func press(_ events: [InputEvent], _ app: ScreenApp, _ terminal: RecordingTerminal) {
        terminal.events = events
        _ = app.takeInput()
        _ = app.syncAnimation()
        app.draw()
    }

    /// Frame `index` of the GIF in art at the terminal's size, made apart
    /// from the screen.
    private func art(ofFrame index: Int, _ app: ScreenApp, _ terminal: RecordingTerminal) throws -> CellGrid? {
        let pixmap = try XCTUnwrap(app.state.image?.pixmap)
        guard case let .file(path)? = app.state.imageSource else { throw XCTSkip("no file on screen") }
        let player = try XCTUnwrap(
            FramePlayer(
                path: path,
                size: PixelSize(width: pixmap.width, height: pixmap.height),
                background: app.services.decodeContext.background,
                samples: app.services.decodeContext.samples
            )
        )
        // From its first frame (a new player has passed it: the still).
        player.restart()
        var frame = player.nextFrame()
        for _ in 0..<index { frame = player.nextFrame() }
        var state = app.state
        state.image?.pixmap = try XCTUnwrap(frame?.pixmap)
        state.playback = nil
        let other = RecordingTerminal(columns: terminal.size.columns, rows: terminal.size.rows)
        ScreenView(renderOptions: app.view.renderOptions, cellAspect: app.view.cellAspect).draw(
            state,
            on: other,
            now: Date()
        )
        return other.art
    }

    /// Into the second loop until frame 1 comes held: drawn from the art
    /// kept in the first loop, the state's pixels still frame 0's.
    private func holdFrameOneInLoopTwo(_ app: ScreenApp) {
        for _ in 0..<6 { nextFrame(app) }
        XCTAssertEqual(app.state.playback?.frame, 0, "the second loop begins")
        nextFrame(app)
        XCTAssertEqual(app.state.playback?.frame, 1)
        XCTAssertTrue(app.state.animation.heldFrameUp, "frame 1 of loop 2 comes held")
    }

    func testDisplayImageThatLandsOnAHeldFrameStartsTheAnimationOver() throws {
        let terminal = RecordingTerminal(columns: 80, rows: 30)
        let app = try openScreen(terminal)
        let first = terminal.art
        holdFrameOneInLoopTwo(app)
        XCTAssertTrue(terminal.art != first)
        // d: the copy is fresh, so no check: the same file decoded again,
        // its pixels those of frame 0, as the state's are.
        press([.key(.character("d"))], app, terminal)
        XCTAssertEqual(app.state.loading?.asked, true)
        settle(app)
        XCTAssertEqual(app.state.status.text, "Previously cached image")
        XCTAssertEqual(app.state.playback?.frame, 0, "looked at afresh: back to its first frame")
        XCTAssertFalse(app.state.animation.heldFrameUp)
        XCTAssertTrue(terminal.art == first, "frame 0 drawn, not the held frame's art over frame 0's pixels")
        nextFrame(app)
        let second = try art(ofFrame: 1, app, terminal)
        XCTAssertTrue(terminal.art == second, "and it plays on from there")
    }

    func testAResizeWhilePausedOnAHeldFrameDrawsThatFrameAnew() throws {
        let terminal = RecordingTerminal(columns: 80, rows: 30)
        let app = try openScreen(terminal)
        holdFrameOneInLoopTwo(app)
        press([.key(.character(" "))], app, terminal)
        XCTAssertEqual(app.state.playback?.paused, true)
        XCTAssertTrue(
            (0..<terminal.size.rows).contains { terminal.line($0).contains("frame 2 of 6 · paused (space plays)") }
        )
        // Smaller: no art kept for this size, and no decode again.
        terminal.size = CellSize(columns: 60, rows: 24)
        press([.resize], app, terminal)
        XCTAssertFalse(app.services.loader.running, "a smaller window decodes nothing")
        XCTAssertEqual(app.state.playback?.frame, 1)
        XCTAssertEqual(app.state.playback?.paused, true, "still paused")
        XCTAssertFalse(app.state.animation.heldFrameUp, "its pixels made from the player's canvas")
        let one = try art(ofFrame: 1, app, terminal)
        XCTAssertTrue(terminal.art == one, "frame 1 at the new size, not frame 0's pixels")
        XCTAssertTrue(try art(ofFrame: 0, app, terminal) != one)
        // . steps on by one from the frame on screen.
        press([.key(.character("."))], app, terminal)
        XCTAssertEqual(app.state.playback?.frame, 2)
        let two = try art(ofFrame: 2, app, terminal)
        XCTAssertTrue(terminal.art == two)
    }
}

import BlockArt
import Foundation
import URLCacheKit
import URLCacheSupport
import URLCacheTestSupport
import XCTest

@testable import URLCacheScreen

final class ScreenLogicTests: XCTestCase {
    let entries = [
        URLEntry(url: URL(string: "https://a.example/one.jpg")!, title: "One"),
        URLEntry(url: URL(string: "https://b.example/two.png")!),
    ]

    private func handle(_ key: Key, _ state: inout ScreenState) -> [Effect] {
        ScreenLogic.handle(.key(key), &state, toolbar: Toolbar(width: 100), toolbarRow: 39)
    }

    func testKeysMapToTheOriginalsActions() {
        var state = ScreenState(entries: entries)
        XCTAssertEqual(handle(.character("d"), &state), [.display(force: false)])
        XCTAssertEqual(handle(.enter, &state), [.display(force: false)])
        XCTAssertEqual(handle(.character("r"), &state), [.display(force: true)])
        XCTAssertEqual(handle(.character("c"), &state), [])
        XCTAssertEqual(state.overlay, .confirmClear)
        XCTAssertEqual(handle(.character("y"), &state), [.clearCache])
        XCTAssertNil(state.overlay)
        _ = handle(.character("c"), &state)
        XCTAssertEqual(handle(.escape, &state), [], "Esc cancels the question")
        XCTAssertNil(state.overlay)
        // Moving to another entry shows it; a failure there goes to the status line (asked: false).
        XCTAssertEqual(handle(.right, &state), [.display(force: false, asked: false)])
        XCTAssertEqual(state.index, 1)
        XCTAssertEqual(handle(.right, &state), [.display(force: false, asked: false)])
        XCTAssertEqual(state.index, 0, "wraps around")
        XCTAssertEqual(handle(.character("p"), &state), [.display(force: false, asked: false)])
        XCTAssertEqual(state.index, 1)
        XCTAssertEqual(handle(.character("?"), &state), [])
        XCTAssertEqual(state.overlay, .help)
        XCTAssertEqual(handle(.character("x"), &state), [])
        XCTAssertNil(state.overlay, "any key closes help")
        XCTAssertEqual(handle(.character("q"), &state), [.quit])
    }

    /// `s` saves only a cached picture, while loading too; the status line
    /// says where (the home as ~) or why not.
    func testSSavesACachedPictureAndTheStatusSaysWhere() {
        var state = ScreenState(entries: entries)
        XCTAssertEqual(handle(.character("s"), &state), [])
        XCTAssertEqual(state.status.text, ScreenLogic.nothingToSaveStatus)
        state.image = DecodedImage(
            info: SourceInfo(format: .png, width: 1, height: 1),
            pixmap: Pixmap(width: 1, height: 1)
        )
        state.imageSource = .bundled(state.entry.url)
        XCTAssertEqual(handle(.character("s"), &state), [], "the bundled picture is not in the cache")
        state.imageSource = nil
        state.loading = ScreenState.Loading(index: 0, started: Date(), progress: nil, automatic: true)
        XCTAssertEqual(handle(.character("s"), &state), [.save])
        ScreenLogic.saved(.success(.saved("/home/ada/Pictures/urlcache/2026-11-24 One.jpg")), home: "/home/ada", &state)
        XCTAssertEqual(state.status.text, "Saved to ~/Pictures/urlcache/2026-11-24 One.jpg")
        ScreenLogic.saved(.success(.alreadyThere("/srv/2026-11-24 One.jpg")), home: "/home/ada", &state)
        XCTAssertEqual(state.status.text, "Already saved as /srv/2026-11-24 One.jpg")
        ScreenLogic.saved(.failure(.writeFailed(path: "/mnt", errno: .noSpace)), home: "/home/ada", &state)
        XCTAssertEqual(state.status.text, "Not saved: cannot save to /mnt: no space left on device")
        XCTAssertTrue(state.status.isError)
    }

    func testWhileLoadingOnlyEscAndQuitAct() {
        var state = ScreenState(entries: entries)
        state.loading = ScreenState.Loading(index: 0, started: Date(), progress: nil, automatic: false)
        for key in [Key.character("d"), .enter, .character("c"), .right, .character("r")] {
            XCTAssertEqual(handle(key, &state), [], "\(key)")
        }
        XCTAssertNil(state.overlay)
        XCTAssertEqual(handle(.escape, &state), [.cancel])
        XCTAssertEqual(handle(.interrupt, &state), [.cancel, .quit])
    }

    func testToolbarClicks() {
        var state = ScreenState(entries: entries)
        let toolbar = Toolbar(width: 100)
        let clear = toolbar.items.first { $0.button == .clearCache }!
        XCTAssertEqual(
            ScreenLogic.handle(.click(row: 39, column: clear.column + 1), &state, toolbar: toolbar, toolbarRow: 39),
            []
        )
        XCTAssertEqual(state.overlay, .confirmClear)
        state.overlay = nil
        let display = toolbar.items.first { $0.button == .displayImage }!
        XCTAssertEqual(
            ScreenLogic.handle(.click(row: 39, column: display.column), &state, toolbar: toolbar, toolbarRow: 39),
            [.display(force: false)]
        )
        XCTAssertEqual(
            ScreenLogic.handle(.click(row: 10, column: display.column), &state, toolbar: toolbar, toolbarRow: 39),
            [],
            "a click off the toolbar does nothing"
        )
    }

    func testOutcomesFillTheFields() {
        var state = ScreenState(entries: entries)
        let updated = Date(timeIntervalSince1970: 1_800_000_000)
        let copy = CachedCopy(imagePath: "/c/x.img", updated: updated, metadata: nil)
        ScreenLogic.finished(
            DisplayReport(result: .success(.newlyCached), copy: copy),
            image: nil,
            automatic: false,
            now: Date(),
            &state
        )
        XCTAssertEqual(state.status.text, "Newly cached image")
        XCTAssertEqual(state.updated, updated)
        ScreenLogic.finished(
            DisplayReport(result: .failure(.transport(.cannotResolve(host: "a.example"))), copy: copy),
            image: nil,
            automatic: false,
            now: Date(),
            &state
        )
        XCTAssertTrue(state.status.text.contains("showing the cached image"), state.status.text)
        XCTAssertEqual(state.overlay, .alert("could not resolve host a.example"))
        XCTAssertEqual(handle(.enter, &state), [])
        XCTAssertNil(state.overlay, "Enter closes the alert")
        state.overlay = .alert("x")
        XCTAssertEqual(handle(.character("q"), &state), [], "q closes an alert, it does not quit under it")
        XCTAssertNil(state.overlay)
        ScreenLogic.finished(
            DisplayReport(result: .failure(.transport(.cancelled)), copy: copy),
            image: nil,
            automatic: false,
            now: Date(),
            &state
        )
        XCTAssertNil(state.overlay, "a cancel is no error")
        ScreenLogic.cleared(.success(1), &state)
        XCTAssertNil(state.updated)
        XCTAssertEqual(state.status.text, "")
    }

    func testAutomaticCheckWhenTheIntervalRunsOut() {
        var state = ScreenState(entries: entries)
        let now = Date()
        state.updated = now.addingTimeInterval(-100)
        XCTAssertFalse(ScreenLogic.dueForAutomaticCheck(state, now: now, interval: 3600))
        XCTAssertTrue(ScreenLogic.dueForAutomaticCheck(state, now: now, interval: 60))
        XCTAssertTrue(ScreenLogic.dueForAutomaticCheck(state, now: now, interval: 0))
        state.updated = now.addingTimeInterval(-30)
        XCTAssertFalse(
            ScreenLogic.dueForAutomaticCheck(state, now: now, interval: 0),
            "at most once a minute by itself"
        )
        state.updated = now.addingTimeInterval(-100)
        state.lastFailedCheck = now.addingTimeInterval(-10)
        XCTAssertFalse(
            ScreenLogic.dueForAutomaticCheck(state, now: now, interval: 60),
            "not again right after a failure"
        )
    }

    /// A check asked for (or the one at start) that was cancelled or
    /// failed holds the next check by itself back, as one by itself that
    /// failed does: Esc on a stale copy's wait for another urlcache was
    /// undone at once by a check by itself, which waited again.
    func testACancelledOrFailedCheckIsNotFollowedAtOnceByOneByItself() {
        let now = Date()
        let stale = CachedCopy(imagePath: "/c/x.img", updated: now.addingTimeInterval(-25 * 3600), metadata: nil)
        for error in [FetchError.cache(.lockWaitCancelled), .cache(.busy(pid: 7, seconds: 4)), .transport(.cancelled)] {
            var state = ScreenState(entries: entries)
            state.loading = ScreenState.Loading(index: 0, started: now, progress: nil, automatic: false)
            ScreenLogic.finished(
                DisplayReport(result: .failure(error), copy: stale),
                image: nil,
                automatic: false,
                now: now,
                &state
            )
            XCTAssertFalse(
                ScreenLogic.dueForAutomaticCheck(state, now: now.addingTimeInterval(1), interval: 86400),
                "\(error)"
            )
            XCTAssertTrue(
                ScreenLogic.dueForAutomaticCheck(state, now: now.addingTimeInterval(301), interval: 86400),
                "five minutes on, it checks: \(error)"
            )
        }
    }

    func testLayoutAndTooSmall() {
        XCTAssertNil(Layout(columns: 39, rows: 20))
        XCTAssertNil(Layout(columns: 80, rows: 11))
        let layout = Layout(columns: 80, rows: 24)!
        XCTAssertEqual(layout.toolbarRow, 23)
        XCTAssertEqual(layout.imageTop, 1)
        XCTAssertEqual(layout.statusRow + 1, layout.updatedRow)
        XCTAssertGreaterThan(layout.imageRows, 10)
        let terminal = RecordingTerminal(columns: 30, rows: 10)
        ScreenView(renderOptions: RenderOptions(), cellAspect: 0.5).draw(
            ScreenState(entries: entries),
            on: terminal,
            now: Date()
        )
        XCTAssertTrue(terminal.text.contains("Terminal too small"), terminal.text)
    }

    func testViewDrawsTitleFieldsInfoAndToolbar() {
        var state = ScreenState(entries: entries)
        state.status = .info("Previously cached image")
        state.updated = Date()
        // Black over red, the edge inside a cell row: a half block must show.
        var pixels = Pixmap(width: 8, height: 5, fill: LinearRGB(1, 0, 0))
        for i in 0..<(8 * 2 * 3) { pixels.values[i] = 0 }
        state.image = DecodedImage(info: SourceInfo(format: .png, width: 8, height: 5), pixmap: pixels)
        let terminal = RecordingTerminal(columns: 100, rows: 30)
        ScreenView(renderOptions: RenderOptions(), cellAspect: 0.5).draw(state, on: terminal, now: Date())
        XCTAssertEqual(terminal.line(0), "urlcache · One  1 of 2")
        XCTAssertTrue(terminal.text.contains("Previously cached image"))
        XCTAssertTrue(terminal.line(30 - 4).hasPrefix("Updated: "), terminal.line(26))
        XCTAssertTrue(
            terminal.text.contains("The cached image is updated if 24 hours has elapsed since the last update")
        )
        XCTAssertTrue(terminal.line(29).hasPrefix("[ Display Image (d) ] [ Clear Cache (c) ]"), terminal.line(29))
        XCTAssertTrue(
            terminal.text.contains("▀") || terminal.text.contains("█") || terminal.text.contains("▄"),
            "the art is drawn"
        )
        let narrow = RecordingTerminal(columns: 40, rows: 12)
        ScreenView(renderOptions: RenderOptions(), cellAspect: 0.5).draw(state, on: narrow, now: Date())
        XCTAssertTrue(narrow.text.contains("Display(d)"), narrow.text)
        XCTAssertFalse(
            narrow.text.contains(
                "The cached image is updated if 24 hours has elapsed since the last update and you press"
            )
        )
    }

    /// The info line names the entry's own rule: under the server's, the
    /// wait is what its headers say, capped by the interval. A list may mix
    /// rules, so it is the rule of the entry on screen.
    func testTheInfoLineSaysTheRuleOfTheEntryOnScreen() {
        let rules = [
            FreshnessRule(mode: .server, refreshInterval: 86_400), FreshnessRule(mode: .fixed, refreshInterval: 86_400),
        ]
        var state = ScreenState(entries: entries, rules: rules)
        let server = RecordingTerminal(columns: 100, rows: 30)
        ScreenView(renderOptions: RenderOptions(), cellAspect: 0.5).draw(state, on: server, now: Date())
        XCTAssertTrue(server.text.contains("the server's freshness time (at most 24 hours)"), server.text)
        state.index = 1
        let fixed = RecordingTerminal(columns: 100, rows: 30)
        ScreenView(renderOptions: RenderOptions(), cellAspect: 0.5).draw(state, on: fixed, now: Date())
        XCTAssertFalse(fixed.text.contains("the server's freshness time"), fixed.text)
        XCTAssertTrue(fixed.text.contains("if 24 hours has elapsed"), fixed.text)
    }

    func testIntervalWording() {
        XCTAssertEqual(ScreenView.describe(86_400), "24 hours")
        XCTAssertEqual(ScreenView.describe(90), "90 seconds")
        XCTAssertEqual(ScreenView.describe(1800), "30 minutes")
    }

    func testTheLoopWakesOnlyForTheSpinnerAndTheNextCheck() {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        var state = ScreenState(entries: entries)
        XCTAssertNil(
            ScreenLogic.nextWake(state, now: now, interval: 3600, spinnerPeriod: 0.125),
            "nothing shown: only events wake it"
        )
        state.updated = now.addingTimeInterval(-600)
        XCTAssertEqual(
            ScreenLogic.nextWake(state, now: now, interval: 3600, spinnerPeriod: 0.125),
            now.addingTimeInterval(3000)
        )
        state.lastFailedCheck = now.addingTimeInterval(-10)
        XCTAssertEqual(
            ScreenLogic.nextWake(state, now: now, interval: 60, spinnerPeriod: 0.125),
            now.addingTimeInterval(50),
            "after a failure, a minute's interval waits out the minute"
        )
        state.overlay = .help
        XCTAssertNil(
            ScreenLogic.nextWake(state, now: now, interval: 60, spinnerPeriod: 0.125),
            "no check by itself under a box"
        )
        state.overlay = nil
        state.loading = ScreenState.Loading(
            index: 0,
            started: now.addingTimeInterval(-0.3),
            progress: nil,
            automatic: false
        )
        let wake = ScreenLogic.nextWake(state, now: now, interval: 60, spinnerPeriod: 0.125)
        XCTAssertEqual(
            wake?.timeIntervalSince(now) ?? 0,
            0.075,
            accuracy: 1e-6,
            "the spinner's next frame, at 8 a second"
        )
    }

    func testBundledPictureIsLabelledUntilTheRealImageReplacesIt() {
        let picture = DecodedImage(
            info: SourceInfo(format: .jpeg, width: 8, height: 8),
            pixmap: Pixmap(width: 8, height: 8, fill: LinearRGB(0, 0, 1))
        )
        var state = ScreenState(entries: entries)
        state.loading = ScreenState.Loading(index: 0, started: Date(), progress: nil, automatic: false)
        ScreenLogic.showBundled(picture, &state)
        XCTAssertTrue(state.isBundled)
        XCTAssertEqual(state.status.text, "Bundled image (not yet downloaded)")
        XCTAssertNil(state.updated)
        let terminal = RecordingTerminal(columns: 60, rows: 20)
        ScreenView(renderOptions: RenderOptions(), cellAspect: 0.5).draw(state, on: terminal, now: Date())
        XCTAssertTrue(
            terminal.text.contains("Updated: never (Bundled image"),
            "labelled while the spinner has the status line: \(terminal.text)"
        )
        XCTAssertTrue(terminal.text.contains("Loading"), terminal.text)

        // A failed check keeps the picture and its label, and says why.
        var failed = state
        ScreenLogic.finished(
            DisplayReport(result: .failure(.transport(.cannotResolve(host: "h"))), copy: nil),
            image: nil,
            automatic: false,
            now: Date(),
            &failed
        )
        XCTAssertEqual(failed.image, picture)
        XCTAssertTrue(failed.isBundled)
        XCTAssertEqual(failed.status.text, "could not resolve host h")
        // The launch's check was asked by nobody: the status line says it, under the picture, with no box to close.
        XCTAssertNil(failed.overlay)

        // An automatic check held back by the entry's streak (nothing is
        // cached, so the streak comes with the answer): the next one waits
        // until the streak says, not the fixed interval.
        var held = state
        let streak = FailureStreak.after(nil, failedAt: Date(), cap: 86_400)
        ScreenLogic.finished(
            DisplayReport(result: .failure(.backingOff(streak)), copy: nil),
            image: nil,
            automatic: true,
            now: Date(),
            &held
        )
        XCTAssertEqual(held.backOffUntil, streak.until)

        // A downloaded image replaces it.
        var done = state
        let real = DecodedImage(
            info: SourceInfo(format: .jpeg, width: 8, height: 8),
            pixmap: Pixmap(width: 8, height: 8, fill: LinearRGB(1, 0, 0))
        )
        let copy = CachedCopy(imagePath: "/c/x.img", updated: Date(), metadata: nil)
        ScreenLogic.finished(
            DisplayReport(result: .success(.newlyCached), copy: copy),
            image: .success(real),
            automatic: false,
            now: Date(),
            &done
        )
        XCTAssertEqual(done.image, real)
        XCTAssertFalse(done.isBundled)
        XCTAssertEqual(done.status.text, "Newly cached image")

        // An image already on screen is never covered by the bundled one.
        var shown = done
        ScreenLogic.showBundled(picture, &shown)
        XCTAssertEqual(shown.image, real)
        XCTAssertFalse(shown.isBundled)
    }
}

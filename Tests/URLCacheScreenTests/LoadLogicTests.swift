import BlockArt
import Foundation
import XCTest

@testable import URLCacheKit
@testable import URLCacheScreen

/// What a load asks and brings back, as state: the loader's requests are
/// values the logic makes, not parameters the shell assembles.
final class LoadLogicTests: XCTestCase {
    let entries = [
        URLEntry(url: URL(string: "https://a.example/one.jpg")!, title: "One"),
        URLEntry(url: URL(string: "https://b.example/two.png")!),
    ]
    let picture = DecodedImage(info: SourceInfo(format: .png, width: 4, height: 4), pixmap: Pixmap(width: 4, height: 4))

    func testDisplayAsksWithTheScreensOfflineSwitchAndOffersEarlyOnlyOnAnEmptyScreen() {
        var state = ScreenState(entries: entries, offline: true)
        let now = Date(timeIntervalSince1970: 1_000)
        XCTAssertEqual(
            ScreenLogic.displayStarted(force: true, automatic: false, asked: true, now: now, &state),
            .display(force: true, automatic: false, offline: true, offerEarly: true)
        )
        XCTAssertEqual(state.loading?.started, now)
        XCTAssertEqual(state.loading?.asked, true)
        state.loading = nil
        state.offline = false
        state.image = picture
        XCTAssertEqual(
            ScreenLogic.displayStarted(force: false, automatic: true, asked: false, now: now, &state),
            .display(force: false, automatic: true, offline: false, offerEarly: false)
        )
        XCTAssertEqual(state.loading?.automatic, true)
    }

    func testStepsOverKeptImagesAskForTheirFilesAndStopAtTheEnds() {
        var state = ScreenState(entries: entries)
        XCTAssertNil(ScreenLogic.stepHistory([], step: 1, &state))
        XCTAssertEqual(state.status.text, "No earlier images kept for this entry")
        let day = Date(timeIntervalSince1970: 1_800_000_000)
        let items = (0..<3).map {
            HistoryItem(
                path: "/c/1.\($0).img",
                firstSeen: day.addingTimeInterval(Double(-86_400 * $0)),
                metadata: nil,
                isCurrent: $0 == 0
            )
        }
        XCTAssertEqual(ScreenLogic.stepHistory(items, step: 1, &state), .keptImage(path: "/c/1.1.img"))
        XCTAssertEqual(state.historyIndex, 1)
        XCTAssertEqual(ScreenLogic.stepHistory(items, step: 5, &state), .keptImage(path: "/c/1.2.img"))
        XCTAssertNil(ScreenLogic.stepHistory(items, step: 1, &state), "the oldest is on screen: nothing to decode")
        XCTAssertTrue(state.status.text.hasPrefix("3 of 3 · "), state.status.text)
    }

    func testADecodeOfAnotherFileGoesBackToFitAndOneOfTheSameKeepsTheZoom() {
        var state = ScreenState(entries: entries)
        ScreenLogic.redecoded(picture, source: .file("/c/a.img"), &state)
        state.viewport.zoom = 4
        ScreenLogic.redecoded(picture, source: .file("/c/a.img"), &state)
        XCTAssertEqual(state.viewport.zoom, 4, "a larger window's decode of the same file keeps the view")
        ScreenLogic.redecoded(picture, source: .file("/c/b.img"), &state)
        XCTAssertEqual(state.viewport, Viewport(), "another kept image starts at fit")
        XCTAssertEqual(state.imageSource, .file("/c/b.img"))
    }

    func testTheCheckIntervalIsTheServersWhenItSaidOne() {
        var state = ScreenState(entries: entries, refreshInterval: 3600)
        XCTAssertEqual(state.checkInterval, 3600)
        state.freshFor = 120
        XCTAssertEqual(state.checkInterval, 120)
    }

    func testACheckThatFindsTheCopyCurrentKeepsThePictureDrawn() {
        var state = ScreenState(entries: entries)
        let copy = CachedCopy(imagePath: "/c/a.img", updated: Date(timeIntervalSince1970: 1_000), metadata: nil)
        ScreenLogic.redecoded(picture, source: .file("/c/a.img"), &state)
        let drawn = state.image?.pixmap.identity
        // The same file decoded again: equal pixels, a new identity.
        let again = DecodedImage(info: picture.info, pixmap: Pixmap(width: 4, height: 4))
        XCTAssertNotEqual(again.pixmap.identity, drawn)
        let current = DisplayReport(result: .success(.upToDate), copy: copy)
        ScreenLogic.finished(current, image: .success(again), automatic: true, now: Date(), source: "/c/a.img", &state)
        XCTAssertEqual(state.image?.pixmap.identity, drawn, "its art and kitty image are not made again")
        // Other pixels from the same file (it was replaced) are shown.
        let other = DecodedImage(info: picture.info, pixmap: Pixmap(width: 4, height: 4, fill: LinearRGB(1, 1, 1)))
        ScreenLogic.finished(current, image: .success(other), automatic: true, now: Date(), source: "/c/a.img", &state)
        XCTAssertEqual(state.image?.pixmap.identity, other.pixmap.identity)
    }
}

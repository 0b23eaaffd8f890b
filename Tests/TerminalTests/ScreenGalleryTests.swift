import Foundation
import URLCacheHarness
import URLCacheTestSupport
import XCTest

/// The gallery as a person meets it in tmux: every entry's title and
/// picture with nothing fetched, a re-flow at 60×20, `r` on a tile, Enter.
extension ScreenTests {
    /// The lines holding a tile's picture: those with block art.
    private func artLines(_ screen: String) -> [Substring] {
        screen.split(separator: "\n").filter { $0.contains(where: isBlockArt) }
    }

    func testTheGalleryShowsWhatIsCachedReflowsAndOpensATile() throws {
        try copyFixture("photo.jpg", to: nginx.root)
        let tmux = try open([nginx.url("/earth.jpg"), nginx.url("/sun.png"), nginx.url("/photo.jpg")])
        tmux.wait(forText: "Newly cached image")
        tmux.send("n")
        tmux.wait(for: "the second entry") { $0.contains("2 of 3") && $0.contains("Newly cached image") }
        let requests = nginx.requests.count
        tmux.send("g")
        // 100 columns: three tiles of 31 across, two with pictures, the
        // third not cached yet.
        let grid = tmux.wait(for: "the gallery with two thumbnails") { screen in
            screen.contains("Gallery  3 entries") && self.artLines(screen).contains { $0.filter(isBlockArt).count > 20 }
                && screen.contains("not cached") && !screen.contains("…")
        }
        let titles = grid.split(separator: "\n").first { $0.contains("127.0.0.1/earth.jpg") }
        XCTAssertTrue(
            titles?.contains("127.0.0.1/sun.png") == true && titles?.contains("127.0.0.1/photo.jpg") == true,
            "the three titles side by side: \(grid)"
        )
        XCTAssertTrue(grid.contains("2 of 3 · Enter opens · r checks · Esc back"), grid)
        XCTAssertTrue(grid.contains("no picture yet"), grid)
        XCTAssertEqual(nginx.requests.count, requests, "the gallery fetches nothing")
        // 60×20: two tiles a row, and one row of them.
        tmux.resize(columns: 60, rows: 20)
        let small = tmux.wait(for: "the gallery at 60×20") { screen in
            screen.contains("127.0.0.1/sun.png") && !screen.contains("127.0.0.1/photo.jpg") && !screen.contains("…")
        }
        XCTAssertTrue(
            small.split(separator: "\n").contains {
                $0.contains("127.0.0.1/earth.jpg") && $0.contains("127.0.0.1/sun.png")
            },
            "re-flowed to two across: \(small)"
        )
        // The third tile is a row down: r checks it there, and its picture comes.
        tmux.send("Right")
        tmux.wait(forText: "3 of 3 · Enter opens")
        tmux.send("r")
        let checked = tmux.wait(for: "the third tile's picture") { screen in
            screen.contains("3 of 3") && screen.contains("Newly cached") && !screen.contains("not cached")
                && self.artLines(screen).contains { $0.filter(isBlockArt).count > 10 }
        }
        XCTAssertTrue(checked.contains("127.0.0.1/photo.jpg"), checked)
        XCTAssertEqual(nginx.requests.count, requests + 1, "r checked that entry, once")
        // Enter opens the second tile in the normal view.
        tmux.send("Left")
        tmux.send("Enter")
        let opened = tmux.wait(for: "the second entry again") { $0.contains("127.0.0.1/sun.png  2 of 3") }
        XCTAssertFalse(opened.contains("Gallery"), opened)
        tmux.send("q")
        XCTAssertTrue(tmux.waitForExit().contains("EXIT=0"))
    }
}

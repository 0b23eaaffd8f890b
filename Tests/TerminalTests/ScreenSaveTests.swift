import Foundation
import URLCacheHarness
import URLCacheTestSupport
import XCTest

/// `s` in the screen, as a person meets it in tmux.
extension ScreenTests {
    /// `s` saves the image on screen and says where; saved again, it is
    /// found there, not copied twice. (The bundled picture, which is not in
    /// the cache, is the first-launch test's.)
    func testSSavesTheImageOnScreenAndSaysWhere() throws {
        let list = try writeList(titled: [("Earth", nginx.url("/earth.jpg"))], in: home)
        let tmux = try open([], list: list)
        tmux.wait(forText: "Newly cached image")
        tmux.send("s")
        let day = UpdatedFormatDay.today("yyyy-MM-dd")
        let saved = tmux.wait(forText: "Saved to ~/Pictures/urlcache/\(day) Earth.jpg")
        XCTAssertFalse(saved.contains("Not saved"), saved)
        let path = home.file("Pictures/urlcache/\(day) Earth.jpg")
        XCTAssertEqual(
            FileManager.default.contents(atPath: path),
            FileManager.default.contents(atPath: nginx.root.file("earth.jpg"))
        )
        tmux.send("s")
        tmux.wait(forText: "Already saved as ~/Pictures/urlcache/\(day) Earth.jpg")
        tmux.send("q")
        XCTAssertTrue(tmux.waitForExit().contains("EXIT=0"))
    }
}

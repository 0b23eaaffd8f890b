import Foundation
import URLCacheHarness
import URLCacheTestSupport
import XCTest

/// Real terminals under Xvfb, screenshots, and what is on them
/// (Tests/Tools/termshot.py): the PSNR of the picture against its source,
/// its box, and the stray pixels beside it.
enum Termshot {
    static let tool = Fixtures.packageRoot.appendingPathComponent("Tests/Tools/termshot.py").path

    /// What termshot found.
    struct Measure {
        var db: Double
        var x: Int, y: Int, width: Int, height: Int
        /// Pixels other than the background in the band right of the
        /// picture's rows: text printed before the picture pushes its first
        /// row there.
        var stray: Int
    }

    /// Runs `command` in `terminal` (xterm-sixel, xterm, kitty, urxvt,
    /// zutty, mlterm, st, qterminal, sakura), types `keys` after `wait`
    /// seconds, and screenshots it into `home`.
    /// `atLeast`: seconds before the screen may count as settled.
    static func shot(
        _ terminal: String,
        _ command: [String],
        in home: TemporaryDirectory,
        keys: String = "",
        wait: Int = 4,
        atLeast: Int = 0
    ) throws -> String {
        let out = home.file("shot-\(UUID().uuidString).png")
        var env = ["WAIT": String(wait), "KEYS": keys, "WAIT2": "3", "HOME": home.path, "AT_LEAST": String(atLeast)]
        // The terminal's own variables decide, as for a person starting it.
        env["TMUX"] = ""
        let result = try runProgram(
            URL(fileURLWithPath: "/usr/bin/python3"),
            [tool, "shot", terminal, out] + command,
            environment: env,
            guardSeconds: 60
        )
        XCTAssertEqual(result.status, 0, result.stderr)
        return out
    }

    /// `rows`: the screenshot's rows to search (the screen's image area:
    /// its text rows would outweigh a narrow picture). `blackBackground`
    /// for the terminals that take no colour option.
    static func measure(
        _ shot: String,
        against source: String,
        rows: String? = nil,
        blackBackground: Bool = false
    ) throws -> Measure {
        let result = try runProgram(
            URL(fileURLWithPath: "/usr/bin/python3"),
            [tool, "psnr", shot, source] + (rows.map { ["--rows", $0] } ?? [])
                + (blackBackground ? ["--bg", "black"] : [])
        )
        let v = result.stdout.split(separator: " ").compactMap {
            Double($0.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        guard v.count == 6 else {
            XCTFail("termshot: \(result.stdout) \(result.stderr)")
            return Measure(db: 0, x: 0, y: 0, width: 0, height: 0, stray: -1)
        }
        return Measure(db: v[0], x: Int(v[1]), y: Int(v[2]), width: Int(v[3]), height: Int(v[4]), stray: Int(v[5]))
    }

    /// `env -u` for the variables of the terminal the tests themselves run
    /// in, which would leak into the one under Xvfb.
    static var clean: [String] {
        [
            "env", "-u", "TMUX", "-u", "KITTY_WINDOW_ID", "-u", "TERM_PROGRAM", "-u", "COLORTERM", "-u", "VTE_VERSION",
            "-u", "WT_SESSION",
            "-u", "KONSOLE_VERSION", "-u", "NO_COLOR",
        ]
    }
}

import Foundation
import URLCacheHarness
import XCTest

/// The real binary in a real terminal: a private tmux server, with
/// send-keys to type and capture-pane to read the screen.
final class TmuxSession {
    let socket = "urlcache-test-\(UUID().uuidString.prefix(8))"
    private(set) var columns: Int
    private(set) var rows: Int

    static var available: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux") }

    /// Starts `arguments` under `sh`, then prints EXIT=<status> and the
    /// terminal's stty settings, so tests can see how it ended.
    init(_ arguments: [String], environment: [String: String], columns: Int = 100, rows: Int = 32) throws {
        guard TmuxSession.available else { throw XCTSkip("tmux is not installed (Scripts/test installs it)") }
        self.columns = columns
        self.rows = rows
        let env = environment.map { "\($0.key)=\(TmuxSession.quote($0.value))" }.sorted().joined(separator: " ")
        let command =
            "env \(env) \(arguments.map(TmuxSession.quote).joined(separator: " ")); echo EXIT=$?; stty -a | tr ' ' '\\n' | grep -E '^-?(icanon|echo)$' | tr '\\n' ' '; echo; sleep 600"
        try tmux(["-f", "/dev/null", "new-session", "-d", "-x", "\(columns)", "-y", "\(rows)", "sh", "-c", command])
    }

    deinit { _ = try? tmux(["kill-server"]) }

    static func quote(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'" }

    /// Runs a tmux command through system(3), its output going to a file:
    /// the server tmux forks inherits the client's descriptors, so a pipe
    /// read to its end would wait for the server, and Foundation's Process
    /// was seen to miss the client's exit.
    @discardableResult
    func tmux(_ arguments: [String]) throws -> String {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("\(socket)-\(UUID().uuidString).out")
            .path
        defer { try? FileManager.default.removeItem(atPath: output) }
        let line = (["/usr/bin/tmux", "-L", socket] + arguments).map(TmuxSession.quote).joined(separator: " ")
        _ = system("\(line) </dev/null >\(TmuxSession.quote(output)) 2>/dev/null")
        return (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
    }

    /// The screen's text (with SGR sequences when `escapes`).
    func capture(escapes: Bool = false) -> String {
        (try? tmux(["capture-pane", "-p"] + (escapes ? ["-e"] : []))) ?? ""
    }

    func send(_ keys: String...) {
        _ = try? tmux(["send-keys"] + keys)
    }

    /// A left click at a 0-based cell, typed as the X10 mouse report
    /// (ESC [ M, button, column, row, each + 32) that tmux-256color's kmous
    /// announces: the bytes a terminal sends, so ncurses decodes a real
    /// click. Press then release; one byte per coordinate limits it to
    /// the first 94 columns and rows.
    func click(row: Int, column: Int) {
        _ = try? tmux([
            "send-keys", "-l", mouseReport(0, row: row, column: column) + mouseReport(3, row: row, column: column),
        ])
    }

    /// An X10 mouse report of `button` at a cell.
    private func mouseReport(_ button: Int, row: Int, column: Int) -> String {
        precondition(row < 94 && column < 94, "X10 mouse reports reach column and row 94")
        return "\u{1B}[M" + String(UnicodeScalar(UInt8(32 + button))) + String(UnicodeScalar(UInt8(33 + column)))
            + String(UnicodeScalar(UInt8(33 + row)))
    }

    /// Turns the wheel with the pointer at a cell (X10 report: button 64 up, 65 down).
    func wheel(up: Bool, row: Int, column: Int) {
        _ = try? tmux(["send-keys", "-l", mouseReport(up ? 64 : 65, row: row, column: column)])
    }

    /// Clicks inside `label` on the lowest line of `screen` that shows it;
    /// false when none does.
    @discardableResult
    func click(_ label: String, in screen: String) -> Bool {
        let lines = screen.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let row = lines.lastIndex(where: { $0.contains(label) }), let range = lines[row].range(of: label) else {
            return false
        }
        click(row: row, column: lines[row].distance(from: lines[row].startIndex, to: range.lowerBound) + 2)
        return true
    }

    func resize(columns: Int, rows: Int) {
        self.columns = columns
        self.rows = rows
        _ = try? tmux(["resize-window", "-x", "\(columns)", "-y", "\(rows)"])
    }

    var alternateScreenOn: Bool { ((try? tmux(["display", "-p", "#{alternate_on}"])) ?? "").hasPrefix("1") }

    /// Polls the screen until `condition` holds. The wait is a guard against
    /// hanging, not a timing assertion: the test then asserts on the content.
    @discardableResult
    func wait(
        for description: String,
        seconds: Double = 30,
        _ condition: (String) -> Bool,
        file: StaticString = #filePath,
        line: UInt = #line
    ) -> String {
        var screen = capture()
        let deadline = Date().addingTimeInterval(seconds)
        while !condition(screen) && Date() < deadline {
            usleep(50_000)
            screen = capture()
        }
        // The program may still be writing that frame (a full repaint goes
        // out top to bottom): take the screen once two captures agree, unless
        // what was waited for was only passing by (a progress figure).
        if condition(screen) {
            var settled = screen
            for _ in 0..<20 {
                usleep(25_000)
                let again = capture()
                if again == settled { break }
                settled = again
            }
            if condition(settled) { screen = settled }
        }
        XCTAssertTrue(condition(screen), "waited for \(description); screen:\n\(screen)", file: file, line: line)
        return screen
    }

    /// Waits until the program has exited and the shell has printed its
    /// status and the terminal's settings after it.
    @discardableResult
    func waitForExit(file: StaticString = #filePath, line: UInt = #line) -> String {
        wait(for: "the exit status and stty", { $0.contains("EXIT=") && $0.contains("icanon") }, file: file, line: line)
    }

    @discardableResult
    func wait(forText text: String, file: StaticString = #filePath, line: UInt = #line) -> String {
        wait(for: "\"\(text)\"", { $0.contains(text) }, file: file, line: line)
    }
}

/// A glyph of the block art: the Block Elements (U+2580–U+259F), which
/// hold the halves, the quadrants and the eighths.
func isBlockArt(_ c: Character) -> Bool {
    guard let scalar = c.unicodeScalars.first, c.unicodeScalars.count == 1 else { return false }
    return (0x2580...0x259F).contains(scalar.value)
}

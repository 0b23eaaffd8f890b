import Foundation
import XCTest

@testable import URLCacheKit

/// The hook's process: how each run ends, and its output, with real
/// programs (no shell is put in between: the tests name /bin/sh themselves).
final class NewImageHookTests: XCTestCase {
    private func run(
        _ command: [String],
        timeout: TimeInterval = 30,
        _ variables: [String: String] = [:]
    ) -> NewImageHook.Run {
        NewImageHook(command: command, timeout: timeout).run(with: variables)
    }

    func testEndingsAndOutput() {
        XCTAssertEqual(
            run(["/bin/sh", "-c", "echo \"$URLCACHE_TITLE\"; echo err >&2"], ["URLCACHE_TITLE": "$(x) `y`"]),
            .init(ending: .exited(0), output: "$(x) `y`\nerr\n")
        )
        XCTAssertEqual(run(["sh", "-c", "exit 3"]).ending, .exited(3), "found in PATH")
        XCTAssertEqual(run(["/bin/sh", "-c", "kill -9 $$"]).ending, .signalled(9))
        XCTAssertEqual(run(["/bin/sleep", "10"], timeout: 0.5).ending, .timedOut(seconds: 0.5))
        XCTAssertEqual(run(["/nonexistent/setter"]).ending, .notStarted("not found in PATH or not executable"))
        XCTAssertEqual(run([""]).ending, .notStarted("no program named"))
        XCTAssertNil(NewImageHook.Run(ending: .exited(0), output: "").warning(program: "feh"))
    }

    func testAChildLeftRunningDoesNotHoldTheRun() {
        // Its output is a file, not a pipe the child keeps open: the run
        // ends with the hook, whatever it started.
        let result = run(["/bin/sh", "-c", "sleep 3 & echo started"], timeout: 60)
        XCTAssertEqual(result, .init(ending: .exited(0), output: "started\n"))
    }

    func testTheEnvironmentIsTerminalSafeAndBounded() {
        let long = String(repeating: "é", count: 500)
        let variables = NewImageHook.environment(
            path: "/c/a.img",
            url: URL(string: "http://x.test/a.jpg")!,
            entry: 3,
            title: "\u{1b}]0;owned\u{7}" + long,
            credit: nil
        )
        XCTAssertEqual(variables["URLCACHE_ENTRY"], "3")
        XCTAssertEqual(variables["URLCACHE_CREDIT"], "")
        XCTAssertFalse(variables["URLCACHE_TITLE"]!.contains("\u{1b}"))
        XCTAssertEqual(variables["URLCACHE_TITLE"]!.count, NewImageHook.maxText + 1, "cut, with an ellipsis")
    }
}

import Foundation
import URLCacheHarness
import URLCacheKit
import URLCacheTestSupport
import XCTest

/// `Scripts/install` into a temporary prefix, then `--uninstall`: every file
/// where its reader looks, and nothing left behind.
final class InstallTests: XCTestCase {
    func testInstallThenUninstallLeavesNothing() throws {
        let home = try TemporaryDirectory()
        let prefix = home.file("prefix")
        let script = Fixtures.packageRoot.appendingPathComponent("Scripts/install")
        // The build the tests drive: this test must not wait on SwiftPM's own build.
        let installed = try runProgram(
            script,
            ["--prefix", prefix, "--binary", Paths.binary.path],
            environment: ["HOME": home.path, "PATH": ProcessInfo.processInfo.environment["PATH"] ?? ""]
        )
        XCTAssertEqual(installed.status, 0, installed.stderr)
        let files = [
            "bin/urlcache", "share/man/man1/urlcache.1", "share/bash-completion/completions/urlcache",
            "share/zsh/site-functions/_urlcache", "share/fish/vendor_completions.d/urlcache.fish",
            "share/systemd/user/urlcache-fetch.service", "share/systemd/user/urlcache-fetch.timer",
        ]
        for file in files {
            XCTAssertTrue(FileManager.default.fileExists(atPath: prefix + "/" + file), file)
        }
        let version = try runProgram(URL(fileURLWithPath: prefix + "/bin/urlcache"), ["--version"])
        XCTAssertEqual(version.stdout, URLCacheVersion.string + "\n")

        // man renders the page, with every command in it.
        let man = try runProgram(
            URL(fileURLWithPath: "/usr/bin/man"),
            ["-l", prefix + "/share/man/man1/urlcache.1"],
            environment: ["MANPAGER": "cat", "MANWIDTH": "80", "PATH": "/usr/bin:/bin"]
        )
        XCTAssertEqual(man.status, 0, man.stderr)
        XCTAssertEqual(man.stderr, "", "mdoc has nothing to warn of")
        for command in ["show", "fetch", "render", "list", "history", "clear", "probe", "--all", "--feed"] {
            XCTAssertTrue(man.stdout.contains(command), "\(command) in the manual")
        }
        for section in ["NAME", "SYNOPSIS", "DESCRIPTION", "ENVIRONMENT", "FILES", "EXIT STATUS", "EXAMPLES"] {
            XCTAssertTrue(man.stdout.contains("\n\(section)\n"), "the manual's \(section) section")
        }
        // The screen's keys, from its key table: zoom, pan, gallery, save, playback, suspend.
        for keys in ["+ - 0", "h j k l", "g G", "space .", "Ctrl-Z", "Esc g G"] {
            XCTAssertTrue(man.stdout.contains("  \(keys)  "), "\(keys) in the manual's keys")
        }
        let bash = try String(contentsOfFile: prefix + "/share/bash-completion/completions/urlcache", encoding: .utf8)
        XCTAssertTrue(bash.contains("complete") && bash.contains("fetch"), bash.prefix(200).description)
        let timer = try String(contentsOfFile: prefix + "/share/systemd/user/urlcache-fetch.timer", encoding: .utf8)
        XCTAssertTrue(
            timer.contains("OnCalendar=hourly") && timer.contains("RandomizedDelaySec=15min")
                && timer.contains("Persistent=true")
        )
        let service = try String(contentsOfFile: prefix + "/share/systemd/user/urlcache-fetch.service", encoding: .utf8)
        XCTAssertTrue(service.contains("ExecStart=\"\(prefix)/bin/urlcache\" fetch --all"), service)

        // systemd checks the units, where systemd is installed.
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/systemd-analyze") {
            let verify = try runProgram(
                URL(fileURLWithPath: "/usr/bin/systemd-analyze"),
                [
                    "verify", prefix + "/share/systemd/user/urlcache-fetch.service",
                    prefix + "/share/systemd/user/urlcache-fetch.timer",
                ],
                environment: ["MANPATH": prefix + "/share/man:", "PATH": "/usr/bin:/bin"]
            )
            XCTAssertEqual(verify.status, 0, verify.stdout + verify.stderr)
        } else {
            print("systemd-analyze is not installed here: the units were not verified")
        }

        let removed = try runProgram(script, ["--uninstall", "--prefix", prefix], environment: ["HOME": home.path])
        XCTAssertEqual(removed.status, 0, removed.stderr)
        XCTAssertFalse(
            FileManager.default.fileExists(atPath: prefix),
            "every file and every directory the install made is gone"
        )
    }

    /// What was there before stays: uninstall removes only its own files.
    func testUninstallKeepsWhatWasThereBefore() throws {
        let home = try TemporaryDirectory()
        let prefix = home.file("prefix")
        try FileManager.default.createDirectory(atPath: prefix + "/bin", withIntermediateDirectories: true)
        let mine = try home.write("prefix/bin/other-tool", "#!/bin/sh\n")
        let script = Fixtures.packageRoot.appendingPathComponent("Scripts/install")
        let path = ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "", "HOME": home.path]
        XCTAssertEqual(
            try runProgram(script, ["--prefix", prefix, "--binary", Paths.binary.path], environment: path).status,
            0
        )
        XCTAssertEqual(try runProgram(script, ["--uninstall", "--prefix", prefix], environment: path).status, 0)
        XCTAssertTrue(FileManager.default.fileExists(atPath: mine))
        XCTAssertFalse(FileManager.default.fileExists(atPath: prefix + "/bin/urlcache"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: prefix + "/share"))
        let again = try runProgram(script, ["--uninstall", "--prefix", prefix], environment: path)
        XCTAssertEqual(again.status, 1, "nothing to remove is said")
        XCTAssertTrue(again.stderr.contains("nothing installed at"), again.stderr)
    }
}

import Foundation
import Synchronization
import URLCacheHarness
import URLCacheKit
import URLCacheTestSupport
import XCTest

/// `Scripts/package` from the tree: a .deb lintian passes, with every file
/// where Debian's tools look, whose binary needs no Swift; installed with
/// dpkg, it runs, `man` finds its page and bash completes it, and a purge
/// leaves nothing. The release build is made once, for both tests.
final class PackageTests: XCTestCase {
    private static let debVersion = URLCacheVersion.string + "-1"
    private static let files = [
        "usr/bin/urlcache", "usr/share/man/man1/urlcache.1.gz",
        "usr/share/bash-completion/completions/urlcache", "usr/share/zsh/vendor-completions/_urlcache",
        "usr/share/fish/vendor_completions.d/urlcache.fish", "usr/lib/systemd/user/urlcache-fetch.service",
        "usr/lib/systemd/user/urlcache-fetch.timer", "usr/share/doc/urlcache/copyright",
        "usr/share/doc/urlcache/changelog.Debian.gz",
    ]
    /// The package, made once for both tests: the release build takes minutes.
    private static let made = Mutex<(dist: String, deb: String, tarball: String)?>(nil)

    override class func tearDown() {
        if let dist = made.withLock({ $0?.dist }) { try? FileManager.default.removeItem(atPath: dist) }
    }

    private func package() throws -> (deb: String, tarball: String) {
        for tool in ["/usr/bin/dpkg-deb", "/usr/bin/dpkg-shlibdeps", "/usr/bin/lintian"] {
            guard FileManager.default.isExecutableFile(atPath: tool) else {
                throw XCTSkip("\(tool) is not installed (Scripts/install-deps --tests installs it)")
            }
        }
        if let made = PackageTests.made.withLock({ $0 }) { return (made.deb, made.tarball) }
        let dist = FileManager.default.temporaryDirectory.appendingPathComponent("urlcache-package-\(UUID())").path
        let script = Fixtures.packageRoot.appendingPathComponent("Scripts/package")
        // The release build with the Swift runtime linked in, in a folder of its own.
        let result = try runProgram(script, ["--output", dist], guardSeconds: 1800)
        XCTAssertEqual(result.status, 0, result.stderr)
        let deb = dist + "/urlcache_\(PackageTests.debVersion)_amd64.deb"
        let tarball = dist + "/urlcache-\(URLCacheVersion.string)-x86_64-linux.tar.gz"
        XCTAssertEqual(result.stdout, deb + "\n" + tarball + "\n")
        PackageTests.made.withLock { $0 = (dist, deb, tarball) }
        return (deb, tarball)
    }

    func testThePackageIsWellFormedAndNeedsNoSwift() throws {
        let (deb, tarball) = try package()
        // lintian: no error, and every warning explained (debian/lintian-overrides).
        let lint = try run("/usr/bin/lintian", ["--fail-on", "error,warning", deb])
        XCTAssertEqual(lint.status, 0, lint.stdout + lint.stderr)

        let listed = try run("/usr/bin/dpkg-deb", ["-c", deb]).stdout
        for file in PackageTests.files { XCTAssertTrue(listed.contains("./\(file)\n"), "\(file) in the .deb") }
        let fields = try run("/usr/bin/dpkg-deb", ["-f", deb, "Depends", "Recommends"]).stdout
        for library in ["libpng16-16", "libjpeg62-turbo", "libncursesw6", "libgif7", "libwebp7", "libcurl4"] {
            XCTAssertTrue(fields.contains(library), "\(library) in Depends: \(fields)")
        }
        XCTAssertTrue(fields.contains("Recommends: libavif"), fields)
        XCTAssertTrue(fields.contains("liblcms2-2"), fields)

        let tree = try run("/bin/tar", ["-tzf", tarball]).stdout
        let top = "urlcache-\(URLCacheVersion.string)-x86_64-linux/"
        for file in [
            "bin/urlcache", "share/man/man1/urlcache.1.gz", "share/systemd/user/urlcache-fetch.timer", "README",
        ] {
            XCTAssertTrue(tree.contains(top + file + "\n"), "\(file) in the tarball")
        }
        try checkTheBinaryNeedsNoSwift(deb)
    }

    /// dpkg -i, then the binary, its page and its completion; dpkg -P,
    /// then nothing of it left. Only as root, and only where no urlcache
    /// package is installed already (this test does not replace one).
    func testThePackageInstallsAndAPurgeLeavesNothing() throws {
        guard getuid() == 0 else { throw XCTSkip("dpkg -i needs root: the .deb was not installed") }
        guard try run("/usr/bin/dpkg-query", ["-W", "urlcache"]).status != 0 else {
            throw XCTSkip("a urlcache package is installed here already: the .deb was not installed over it")
        }
        let (deb, _) = try package()
        let installed = try run("/usr/bin/dpkg", ["-i", deb])
        XCTAssertEqual(installed.status, 0, installed.stdout + installed.stderr)
        defer { _ = try? run("/usr/bin/dpkg", ["-P", "urlcache"]) }

        let version = try run("/usr/bin/urlcache", ["--version"])
        XCTAssertEqual(version.stdout, URLCacheVersion.string + "\n", version.stderr)
        let page = try run("/usr/bin/man", ["-w", "urlcache"])
        XCTAssertEqual(page.stdout, "/usr/share/man/man1/urlcache.1.gz\n", page.stderr)
        // What bash offers for `urlcache fe<TAB>`, as bash-completion asks it.
        let completion = """
            source /usr/share/bash-completion/completions/urlcache
            COMP_WORDS=(urlcache fe); COMP_CWORD=1; COMP_LINE="urlcache fe"; COMP_POINT=11
            _urlcache urlcache fe urlcache; printf '%s\\n' "${COMPREPLY[@]}"
            """
        let offered = try run("/bin/bash", ["-c", completion])
        XCTAssertEqual(offered.stdout, "fetch\n", offered.stderr)

        let purged = try run("/usr/bin/dpkg", ["-P", "urlcache"])
        XCTAssertEqual(purged.status, 0, purged.stdout + purged.stderr)
        for file in PackageTests.files {
            XCTAssertFalse(FileManager.default.fileExists(atPath: "/" + file), "\(file) left behind")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: "/usr/share/doc/urlcache"), "its doc folder left behind")
    }

    /// The binary as the .deb holds it, with nothing of the build's
    /// environment: no Swift library linked, and it renders a fixture.
    private func checkTheBinaryNeedsNoSwift(_ deb: String) throws {
        let unpacked = try TemporaryDirectory()
        XCTAssertEqual(try run("/usr/bin/dpkg-deb", ["-x", deb, unpacked.path]).status, 0)
        let binary = unpacked.file("usr/bin/urlcache")
        let linked = try run("/usr/bin/ldd", [binary]).stdout
        XCTAssertFalse(linked.contains("swift"), linked)
        XCTAssertFalse(linked.contains("not found"), linked)
        // FoundationEssentials alone: swift-corelibs-foundation would link
        // in ICU's 34 MB of data, named "icudt…", and relocate it at every start.
        let bytes = try Data(contentsOf: URL(fileURLWithPath: binary))
        XCTAssertNil(bytes.range(of: Data("icudt".utf8)), "ICU's data in the binary")
        XCTAssertLessThan(bytes.count, 50 << 20, "the binary's size")
        let fixture = Fixtures.images.appendingPathComponent("earth.jpg").path
        let rendered = try run(
            "/usr/bin/env",
            ["-i", "PATH=/usr/bin:/bin", binary, "render", fixture, "--size", "20x8", "--colors", "256"]
        )
        XCTAssertEqual(rendered.status, 0, rendered.stderr)
        XCTAssertEqual(rendered.stdout.split(separator: "\n").count, 8, rendered.stdout)
        XCTAssertTrue(rendered.stdout.contains("\u{1B}[38;5;"), "256-colour art")
    }

    private func run(_ program: String, _ arguments: [String]) throws -> RunResult {
        try runProgram(URL(fileURLWithPath: program), arguments, guardSeconds: 300)
    }
}

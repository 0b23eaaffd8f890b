import Foundation
import Synchronization
import URLCacheTestSupport
import XCTest

/// Where the built binary is (the fixtures: `Fixtures`).
public enum Paths {
    /// The `urlcache` binary SwiftPM built beside the test bundle.
    public static var binary: URL {
        var dir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        while dir.path != "/" {
            let candidate = dir.appendingPathComponent("urlcache")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            dir = dir.deletingLastPathComponent()
        }
        return Fixtures.packageRoot.appendingPathComponent(".build/debug/urlcache")
    }

    /// The clang that came with the Swift toolchain (beside `swift` on
    /// PATH), to build a test's small C helper on any machine that builds
    /// the project.
    public static var toolchainClang: URL {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin"
        for dir in path.split(separator: ":") {
            let swift = URL(fileURLWithPath: String(dir)).appendingPathComponent("swift")
            if FileManager.default.isExecutableFile(atPath: swift.path) {
                return swift.deletingLastPathComponent().appendingPathComponent("clang")
            }
        }
        return URL(fileURLWithPath: "/usr/bin/clang")
    }
}

/// A directory removed when the test ends.
public final class TemporaryDirectory {
    public let url: URL
    public var path: String { url.path }

    public init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("urlcache-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    public func file(_ name: String) -> String { url.appendingPathComponent(name).path }

    @discardableResult
    public func write(_ name: String, _ text: String) throws -> String {
        let path = file(name)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }
}

/// What a run of the binary printed.
public struct RunResult {
    public init(status: Int32, stdout: String, stderr: String) {
        (self.status, self.stdout, self.stderr) = (status, stdout, stderr)
    }

    public var status: Int32
    public var stdout: String
    public var stderr: String
    public var lines: [String] {
        stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).filter { !$0.isEmpty }
    }
}

/// Runs a program to its end, feeding `input` on stdin. Its output and
/// its errors are read at the same time, so that neither pipe can fill
/// while the other is read (a full one would stop the program). A run that
/// outlives `guardSeconds` is killed: the tests must never hang (this is a
/// safety net, not an assertion about speed).
@discardableResult
public func runProgram(
    _ executable: URL,
    _ arguments: [String],
    environment: [String: String] = [:],
    input: Data? = nil,
    guardSeconds: TimeInterval = 120,
    directory: String? = nil
) throws -> RunResult {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
    var env = ProcessInfo.processInfo.environment
    // Loopback servers must never be reached through a proxy.
    env["NO_PROXY"] = "127.0.0.1,localhost"
    env["no_proxy"] = "127.0.0.1,localhost"
    for (key, value) in environment { env[key] = value }
    process.environment = env
    let out = Pipe()
    let err = Pipe()
    let inPipe = Pipe()
    process.standardOutput = out
    process.standardError = err
    process.standardInput = input == nil ? FileHandle.nullDevice : inPipe
    try process.run()
    // Armed before anything can block: writing input the program never reads included.
    let killer = DispatchWorkItem { if process.isRunning { process.terminate() } }
    DispatchQueue.global().asyncAfter(deadline: .now() + guardSeconds, execute: killer)
    let group = DispatchGroup()
    let collected = Collected()
    if let input {
        DispatchQueue.global().async(group: group) {
            inPipe.fileHandleForWriting.write(input)
            try? inPipe.fileHandleForWriting.close()
        }
    }
    DispatchQueue.global().async(group: group) { collected.set(out: out.fileHandleForReading.readDataToEndOfFile()) }
    DispatchQueue.global().async(group: group) { collected.set(err: err.fileHandleForReading.readDataToEndOfFile()) }
    group.wait()
    process.waitUntilExit()
    killer.cancel()
    let data = collected.value
    return RunResult(
        status: process.terminationStatus,
        stdout: String(decoding: data.out, as: UTF8.self),
        stderr: String(decoding: data.err, as: UTF8.self)
    )
}

/// The two pipes' bytes, written by their readers' threads.
private final class Collected: Sendable {
    struct Both: Sendable { var out = Data(), err = Data() }
    private let state = Mutex(Both())
    func set(out data: Data) { state.withLock { $0.out = data } }
    func set(err data: Data) { state.withLock { $0.err = data } }
    var value: Both { state.withLock { $0 } }
}

/// Runs `urlcache` with a private HOME and XDG directories.
public func urlcache(
    _ arguments: [String],
    home: TemporaryDirectory,
    environment: [String: String] = [:],
    input: Data? = nil
) throws -> RunResult {
    var env = ["HOME": home.path, "XDG_CONFIG_HOME": home.file("config"), "XDG_CACHE_HOME": home.file("cache")]
    for (key, value) in environment { env[key] = value }
    return try runProgram(Paths.binary, arguments, environment: env, input: input)
}

/// Copies a fixture image into a server's root.
public func copyFixture(_ name: String, to dir: TemporaryDirectory, as target: String? = nil) throws {
    let destination = dir.file(target ?? name)
    try? FileManager.default.removeItem(atPath: destination)
    try FileManager.default.copyItem(atPath: Fixtures.images.appendingPathComponent(name).path, toPath: destination)
}

/// Sets a file's modification time `seconds` into the past, as `touch -d` does.
public func age(_ path: String, by seconds: TimeInterval) throws {
    try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-seconds)], ofItemAtPath: path)
}

/// A file's modification time.
public func modificationDate(_ path: String) throws -> Date {
    let attributes = try FileManager.default.attributesOfItem(atPath: path)
    return try XCTUnwrap(attributes[.modificationDate] as? Date)
}

/// A plist URL list holding these URLs.
public func writeList(_ urls: [String], in dir: TemporaryDirectory, name: String = "list.plist") throws -> String {
    let items = urls.map { "<string>\($0.replacingOccurrences(of: "&", with: "&amp;"))</string>" }.joined(
        separator: "\n"
    )
    return try dir.write(
        name,
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0"><array>
        \(items)
        </array></plist>
        """
    )
}

/// A URL list in the dict shape: one image and integer settings beside it.
public func writeList(_ url: String, settings: [String: Int], in dir: TemporaryDirectory) throws -> String {
    let keys = settings.sorted { $0.key < $1.key }.map { "<key>\($0.key)</key><integer>\($0.value)</integer>" }.joined()
    return try dir.write(
        "list.plist",
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0"><dict>\(keys)
        <key>images</key><array><string>\(url)</string></array>
        </dict></plist>
        """
    )
}

/// A URL list of `{url, title}` dicts, titles XML-escaped.
public func writeList(
    titled entries: [(title: String, url: String)],
    in dir: TemporaryDirectory,
    name: String = "titled.plist"
) throws -> String {
    func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }
    let items = entries.map {
        "<dict><key>title</key><string>\(escaped($0.title))</string><key>url</key><string>\(escaped($0.url))</string></dict>"
    }
    return try dir.write(
        name,
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0"><array>
        \(items.joined(separator: "\n"))
        </array></plist>
        """
    )
}

/// Today as the history's status line writes it ("23 Nov 2026"), or as
/// another format says (a saved copy's name: "yyyy-MM-dd").
public enum UpdatedFormatDay {
    public static func today(_ format: String = "d MMM yyyy") -> String {
        let formatter = DateFormatter()
        formatter.dateFormat = format
        formatter.locale = Locale(identifier: "en_US_POSIX")
        return formatter.string(from: Date())
    }
}

import Foundation
import XCTest
import URLCacheTestSupport

/// Where the built binary is (the fixtures: `Fixtures`).
enum Paths {
    /// The `urlcache` binary SwiftPM built beside the test bundle.
    static var binary: URL {
        var dir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        while dir.path != "/" {
            let candidate = dir.appendingPathComponent("urlcache")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            dir = dir.deletingLastPathComponent()
        }
        return Fixtures.packageRoot.appendingPathComponent(".build/debug/urlcache")
    }
}

/// A directory removed when the test ends.
final class TemporaryDirectory {
    let url: URL
    var path: String { url.path }

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("urlcache-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    func file(_ name: String) -> String { url.appendingPathComponent(name).path }

    @discardableResult
    func write(_ name: String, _ text: String) throws -> String {
        let path = file(name)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }
}

/// What a run of the binary printed.
struct RunResult {
    var status: Int32
    var stdout: String
    var stderr: String
    var lines: [String] { stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).filter { !$0.isEmpty } }
}

/// Runs a program to its end, feeding `input` on stdin. A run that outlives
/// `guardSeconds` is killed: the tests must never hang (this is a safety net,
/// not an assertion about speed).
@discardableResult
func runProgram(_ executable: URL, _ arguments: [String], environment: [String: String] = [:], input: Data? = nil,
         guardSeconds: TimeInterval = 120, directory: String? = nil) throws -> RunResult {
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
    let out = Pipe(), err = Pipe(), inPipe = Pipe()
    process.standardOutput = out
    process.standardError = err
    process.standardInput = input == nil ? FileHandle.nullDevice : inPipe
    try process.run()
    if let input {
        inPipe.fileHandleForWriting.write(input)
        try? inPipe.fileHandleForWriting.close()
    }
    let killer = DispatchWorkItem { if process.isRunning { process.terminate() } }
    DispatchQueue.global().asyncAfter(deadline: .now() + guardSeconds, execute: killer)
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    let errData = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    killer.cancel()
    return RunResult(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                     stderr: String(decoding: errData, as: UTF8.self))
}

/// Runs `urlcache` with a private HOME and XDG directories.
func urlcache(_ arguments: [String], home: TemporaryDirectory, environment: [String: String] = [:],
              input: Data? = nil) throws -> RunResult {
    var env = ["HOME": home.path, "XDG_CONFIG_HOME": home.file("config"), "XDG_CACHE_HOME": home.file("cache")]
    for (key, value) in environment { env[key] = value }
    return try runProgram(Paths.binary, arguments, environment: env, input: input)
}

/// Copies a fixture image into a server's root.
func copyFixture(_ name: String, to dir: TemporaryDirectory, as target: String? = nil) throws {
    let destination = dir.file(target ?? name)
    try? FileManager.default.removeItem(atPath: destination)
    try FileManager.default.copyItem(atPath: Fixtures.images.appendingPathComponent(name).path, toPath: destination)
}

/// Sets a file's modification time `seconds` into the past, as `touch -d` does.
func age(_ path: String, by seconds: TimeInterval) throws {
    try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-seconds)], ofItemAtPath: path)
}

func modificationDate(_ path: String) throws -> Date {
    let attributes = try FileManager.default.attributesOfItem(atPath: path)
    return try XCTUnwrap(attributes[.modificationDate] as? Date)
}

/// A plist URL list holding these URLs.
func writeList(_ urls: [String], in dir: TemporaryDirectory, name: String = "list.plist") throws -> String {
    let items = urls.map { "<string>\($0.replacingOccurrences(of: "&", with: "&amp;"))</string>" }.joined(separator: "\n")
    return try dir.write(name, """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0"><array>
        \(items)
        </array></plist>
        """)
}

/// A URL list in the dict shape: one image and integer settings beside it.
func writeList(_ url: String, settings: [String: Int], in dir: TemporaryDirectory) throws -> String {
    let keys = settings.sorted { $0.key < $1.key }.map { "<key>\($0.key)</key><integer>\($0.value)</integer>" }.joined()
    return try dir.write("list.plist", """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0"><dict>\(keys)
        <key>images</key><array><string>\(url)</string></array>
        </dict></plist>
        """)
}

/// A URL list of `{url, title}` dicts, titles XML-escaped.
func writeList(titled entries: [(title: String, url: String)], in dir: TemporaryDirectory, name: String = "titled.plist") throws -> String {
    func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
    }
    let items = entries.map { "<dict><key>title</key><string>\(escaped($0.title))</string><key>url</key><string>\(escaped($0.url))</string></dict>" }
    return try dir.write(name, """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0"><array>
        \(items.joined(separator: "\n"))
        </array></plist>
        """)
}

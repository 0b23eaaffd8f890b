import Foundation
import URLCacheKit
import XCTest

/// Our SHA-256 against FIPS 180-4's examples and coreutils' `sha256sum`.
final class SHA256Tests: XCTestCase {
    func testKnownVectors() {
        XCTAssertEqual(SHA256.hex(Array("".utf8)), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        XCTAssertEqual(
            SHA256.hex(Array("abc".utf8)),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        )
        XCTAssertEqual(
            SHA256.hex(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
        )
        XCTAssertEqual(
            SHA256.hex([UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)),
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"
        )
    }

    /// Every length around the padding's edges (55, 56, 63, 64 and 119,
    /// 120 bytes change how many blocks the tail takes), and a long
    /// message, hashed by sha256sum too.
    func testAgreesWithSha256sum() throws {
        var generator = SystemRandomNumberGenerator()
        let long = (0..<300_001).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let messages = (0...130).map { Array(long.prefix($0)) } + [long]
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sha-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var paths: [String] = []
        for (i, message) in messages.enumerated() {
            let path = directory.appendingPathComponent("m\(i)").path
            try Data(message).write(to: URL(fileURLWithPath: path))
            paths.append(path)
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
        process.arguments = paths
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let theirs = output.split(separator: "\n").map { String($0.prefix(64)) }
        XCTAssertEqual(theirs.count, messages.count)
        for (i, message) in messages.enumerated() where i < theirs.count {
            XCTAssertEqual(SHA256.hex(message), theirs[i], "\(message.count) bytes")
        }
    }
}

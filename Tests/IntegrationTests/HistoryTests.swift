import Foundation
import URLCacheHarness
import URLCacheTestSupport
import XCTest

/// The history: each entry keeps its last N distinct images; the whole
/// cache stays under maxCacheBytes, the oldest earlier images going first.
final class HistoryTests: NginxTestCase {
    private var cacheDir: String { home.file("cache/urlcache") }

    private func images() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: cacheDir)) ?? []).filter { $0.hasSuffix(".img") }
            .sorted()
    }

    /// Serves `fixture` as `name`, newer than before (a changed image).
    private func publish(_ fixture: String, as name: String, step: Int) throws {
        try copyFixture(fixture, to: nginx.root, as: name)
        try FileManager.default.setAttributes(
            [.modificationDate: Date().addingTimeInterval(Double(step))],
            ofItemAtPath: nginx.root.file(name)
        )
    }

    func testKeepsTheLastNDistinctImagesNewestFirst() throws {
        let list = try writeList([nginx.url("/daily.jpg")], in: home)
        var path = ""
        for (step, fixture) in ["earth.jpg", "photo.jpg", "tall.jpg", "photo.jpg"].enumerated() {
            try publish(fixture, as: "daily.jpg", step: step)
            if !path.isEmpty { try age(path, by: 25 * 3600) }
            let result = try urlcache(["fetch", "--config", list, "--keep", "3"], home: home)
            XCTAssertEqual(result.lines.first, "Newly cached image", result.stderr)
            path = result.lines[2]
        }
        // Unchanged: a 304 adds nothing (FeedControllerTests: and keeps the day it was first seen).
        try age(path, by: 25 * 3600)
        XCTAssertEqual(
            try urlcache(["fetch", "--config", list, "--keep", "3"], home: home).lines.first,
            "Cached image is up to date"
        )
        XCTAssertEqual(images().count, 3, "the current image and two earlier ones")

        let history = try urlcache(["history", "--config", list], home: home)
        XCTAssertEqual(history.status, 0, history.stderr)
        XCTAssertEqual(history.lines.count, 6, history.stdout)
        guard history.lines.count == 6 else { return }
        XCTAssertTrue(history.lines[0].hasPrefix("1. ") && history.lines[0].hasSuffix("(current)"), history.stdout)
        XCTAssertEqual(history.lines[1].trimmingCharacters(in: .whitespaces), path)
        // Newest first: photo (current), tall, photo again (an earlier download of it).
        let kept = try stride(from: 1, to: 6, by: 2).map {
            try Data(contentsOf: URL(fileURLWithPath: history.lines[$0].trimmingCharacters(in: .whitespaces)))
        }
        XCTAssertEqual(
            kept,
            try ["photo.jpg", "tall.jpg", "photo.jpg"].map {
                try Data(contentsOf: Fixtures.images.appendingPathComponent($0))
            }
        )
        XCTAssertEqual(
            try urlcache(["fetch", "--config", list], home: home).lines.count,
            3,
            "fetch still prints the newest"
        )
    }

    func testTheCacheBoundEvictsTheOldestEarlierImagesNeverACurrentOne() throws {
        func size(_ name: String) throws -> Int {
            try XCTUnwrap(
                FileManager.default.attributesOfItem(atPath: Fixtures.images.appendingPathComponent(name).path)[.size]
                    as? Int
            )
        }
        // In the end a holds tall, photo and earth, b tall and earth: room
        // for all but the two earths (half of one more would not do).
        let bound = try 2 * size("tall.jpg") + size("photo.jpg") + size("earth.jpg") / 2
        let list = try home.write(
            "bounded.plist",
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict><key>maxCacheBytes</key><integer>\(bound)</integer>
            <key>images</key><array><string>\(nginx.url("/a.jpg"))</string><string>\(nginx.url("/b.jpg"))</string></array></dict></plist>
            """
        )
        var paths: [String: String] = [:]
        for (step, (name, fixture)) in [
            ("a.jpg", "earth.jpg"), ("b.jpg", "earth.jpg"), ("a.jpg", "photo.jpg"), ("b.jpg", "tall.jpg"),
            ("a.jpg", "tall.jpg"),
        ].enumerated() {
            try publish(fixture, as: name, step: step)
            if let path = paths[name] { try age(path, by: 25 * 3600) }
            let entry = name == "a.jpg" ? "1" : "2"
            let result = try urlcache(["fetch", "--config", list, "--entry", entry], home: home)
            XCTAssertEqual(result.lines.first, "Newly cached image", result.stderr)
            paths[name] = result.lines[2]
        }
        let total = images().compactMap {
            try? FileManager.default.attributesOfItem(atPath: cacheDir + "/" + $0)[.size] as? Int
        }.reduce(0, +)
        XCTAssertLessThanOrEqual(total, bound)
        // Both current images are there; the oldest earlier ones (a's and b's earth) went first.
        XCTAssertEqual(
            try Data(contentsOf: URL(fileURLWithPath: paths["a.jpg"]!)),
            try Data(contentsOf: Fixtures.images.appendingPathComponent("tall.jpg"))
        )
        XCTAssertEqual(
            try Data(contentsOf: URL(fileURLWithPath: paths["b.jpg"]!)),
            try Data(contentsOf: Fixtures.images.appendingPathComponent("tall.jpg"))
        )
        let a = try urlcache(["history", "--config", list, "--entry", "1"], home: home)
        XCTAssertEqual(a.lines.count, 4, "a keeps its photo, its earth is gone: \(a.stdout)")
        let b = try urlcache(["history", "--config", list, "--entry", "2"], home: home)
        XCTAssertEqual(b.lines.count, 2, "b's earth is gone: \(b.stdout)")
    }

    func testTwoProcessesAtOnceLoseNoCurrentImage() throws {
        let names = (1...6).map { "e\($0).jpg" }
        for (step, name) in names.enumerated() { try publish("earth.jpg", as: name, step: step) }
        let list = try home.write(
            "many.plist",
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict><key>maxCacheBytes</key><integer>2</integer><key>images</key><array>
            \(names.map { "<string>\(nginx.url("/" + $0))</string>" }.joined())
            </array></dict></plist>
            """
        )
        for round in 0..<2 {
            for (step, name) in names.enumerated() {
                try publish(round == 0 ? "earth.jpg" : "photo.jpg", as: name, step: 20 * round + step)
            }
            for file in images() where round > 0 { try age(cacheDir + "/" + file, by: 25 * 3600) }
            // Two processes, each through every entry, at the same time.
            let fetch = "\(Paths.binary.path) fetch --config \(list) --cache-dir \(home.file("cache/urlcache")) --entry"
            let script =
                "(for e in 1 2 3 4 5 6; do \(fetch) $e; done) & (for e in 6 5 4 3 2 1; do \(fetch) $e; done) & wait"
            _ = try runProgram(URL(fileURLWithPath: "/bin/bash"), ["-c", script], environment: ["HOME": home.path])
        }
        for entry in 1...6 {
            let result = try urlcache(["fetch", "--config", list, "--entry", String(entry), "--offline"], home: home)
            XCTAssertEqual(result.status, 0, result.stderr)
            XCTAssertEqual(
                try Data(contentsOf: URL(fileURLWithPath: result.lines[2])),
                try Data(contentsOf: Fixtures.images.appendingPathComponent("photo.jpg"))
            )
        }
        XCTAssertEqual(images().count, 6, "over the bound: only the current images stay")
    }
}

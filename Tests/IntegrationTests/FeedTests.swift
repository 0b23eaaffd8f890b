import Foundation
import URLCacheHarness
import URLCacheTestSupport
import XCTest

/// Feed entries end to end: the real binary against nginx serving feeds
/// shaped like APOD's, Bing's, an RSS and an Atom feed and a page, with
/// every request counted from nginx's log.
final class FeedTests: NginxTestCase {
    /// Puts a feed fixture at `path` on nginx, `{{BASE}}` filled in.
    private func serveFeed(_ fixture: String, at path: String, edit: (String) -> String = { $0 }) throws {
        let text = try String(contentsOf: Fixtures.feeds.appendingPathComponent(fixture), encoding: .utf8)
        try serveText(edit(text.replacingOccurrences(of: "{{BASE}}", with: nginx.url(""))), at: path)
    }

    private func serveText(_ text: String, at path: String) throws {
        let file = nginx.root.file(String(path.dropFirst()))
        try FileManager.default.createDirectory(
            atPath: (file as NSString).deletingLastPathComponent,
            withIntermediateDirectories: true
        )
        try? FileManager.default.removeItem(atPath: file)
        try Data(text.utf8).write(to: URL(fileURLWithPath: file))
        // A later Last-Modified than the version before, as a real update has.
        try FileManager.default.setAttributes(
            [.modificationDate: Date().addingTimeInterval(Double(serial))],
            ofItemAtPath: file
        )
        serial += 2
    }
    private var serial = 0

    private func serveImage(_ fixture: String, at path: String) throws {
        let file = nginx.root.file(String(path.dropFirst()))
        try FileManager.default.createDirectory(
            atPath: (file as NSString).deletingLastPathComponent,
            withIntermediateDirectories: true
        )
        try? FileManager.default.removeItem(atPath: file)
        try FileManager.default.copyItem(atPath: Fixtures.images.appendingPathComponent(fixture).path, toPath: file)
    }

    private func feedList(_ path: String, select: String? = nil) throws -> String {
        let selectKey = select.map { "<key>select</key><string>\($0)</string>" } ?? ""
        return try home.write(
            "feeds.plist",
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><array><dict><key>feed</key><string>\(nginx.url(path))</string>\(selectKey)</dict></array></plist>
            """
        )
    }

    private func fetch(_ list: String, _ extra: [String] = []) throws -> RunResult {
        try urlcache(["fetch", "--config", list] + extra, home: home)
    }

    private func bytes(_ fixture: String) throws -> Data {
        try Data(contentsOf: Fixtures.images.appendingPathComponent(fixture))
    }

    func testAPODEveryHopIsConditionalAndCounted() throws {
        try serveFeed("apod.json", at: "/apod.json")
        try serveImage("photo.jpg", at: "/image/hd/andromeda.jpg")
        let list = try feedList("/apod.json")

        let first = try fetch(list)
        XCTAssertEqual(first.status, 0, first.stderr)
        XCTAssertEqual(first.lines.first, "Newly cached image")
        XCTAssertTrue(first.lines.contains("Title: Andromeda Rising"), first.stdout)
        XCTAssertTrue(first.lines.contains("Credit: Jane Stargazer"), first.stdout)
        let path = first.lines[2]
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), try bytes("photo.jpg"))
        XCTAssertEqual(nginx.requests.map(\.path), ["/apod.json", "/image/hd/andromeda.jpg"])

        // Fresh: nothing at all.
        XCTAssertEqual(try fetch(list).lines.first, "Previously cached image")
        XCTAssertEqual(nginx.requests.count, 2)

        // Stale, feed unchanged: one 304 for the feed, none for the image.
        try age(path, by: 25 * 3600)
        let unchanged = try fetch(list)
        XCTAssertEqual(unchanged.lines.first, "Cached image is up to date", unchanged.stderr)
        var requests = Array(nginx.requests.dropFirst(2))
        XCTAssertEqual(requests.map(\.path), ["/apod.json"])
        XCTAssertEqual(requests.first?.status, 304)
        XCTAssertNotNil(requests.first?.ifModifiedSince)
        XCTAssertGreaterThan(try modificationDate(path), Date().addingTimeInterval(-60), "Updated moved")

        // The feed changed but names the same image: a conditional GET of it.
        try serveFeed("apod.json", at: "/apod.json") {
            $0.replacingOccurrences(of: "Andromeda Rising", with: "Andromeda, Again")
        }
        try age(path, by: 25 * 3600)
        let retitled = try fetch(list)
        XCTAssertEqual(retitled.lines.first, "Cached image is up to date", retitled.stderr)
        XCTAssertTrue(retitled.lines.contains("Title: Andromeda, Again"), retitled.stdout)
        requests = Array(nginx.requests.dropFirst(3))
        XCTAssertEqual(requests.map(\.path), ["/apod.json", "/image/hd/andromeda.jpg"])
        XCTAssertEqual(requests.map(\.status), [200, 304])
        XCTAssertEqual(requests.last?.bodyBytes, 0)

        // A new item: the feed and one plain GET of the new image.
        try serveImage("tall.jpg", at: "/image/hd/comet.jpg")
        try serveFeed("apod.json", at: "/apod.json") { $0.replacingOccurrences(of: "andromeda.jpg", with: "comet.jpg") }
        try age(path, by: 25 * 3600)
        let renewed = try fetch(list)
        XCTAssertEqual(renewed.lines.first, "Newly cached image", renewed.stderr)
        requests = Array(nginx.requests.dropFirst(5))
        XCTAssertEqual(requests.map(\.path), ["/apod.json", "/image/hd/comet.jpg"])
        XCTAssertEqual(requests.map(\.status), [200, 200])
        XCTAssertNil(requests.last?.ifNoneMatch, "a new URL is not asked conditionally")
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), try bytes("tall.jpg"))
    }

    func testAVideoDayKeepsThePreviousImage() throws {
        try serveFeed("apod.json", at: "/apod.json")
        try serveImage("photo.jpg", at: "/image/hd/andromeda.jpg")
        let list = try feedList("/apod.json")
        let path = try fetch(list).lines[2]
        try serveFeed("apod-video.json", at: "/apod.json")
        try age(path, by: 25 * 3600)
        let video = try fetch(list)
        XCTAssertEqual(video.status, 0, video.stderr)
        XCTAssertEqual(
            video.lines.first,
            "Today's item is a video: https://www.youtube.com/embed/abc123?rel=0; showing the previous image"
        )
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), try bytes("photo.jpg"))
        XCTAssertEqual(nginx.requests.map(\.path), ["/apod.json", "/image/hd/andromeda.jpg", "/apod.json"])
        // With nothing cached, a video day is a one-line failure.
        let empty = try TemporaryDirectory()
        let none = try urlcache(["fetch", "--config", list], home: empty)
        XCTAssertEqual(none.status, 1)
        XCTAssertTrue(none.stderr.contains("today's item is a video"), none.stderr)
    }

    /// APOD with `thumbs=true` on a video day: the still is shown and the
    /// status names the video; a day of another kind keeps the picture.
    func testAVideoDaysStillAndADayOfAnotherKind() throws {
        try serveFeed("apod-video-thumbs.json", at: "/apod.json")
        try serveImage("tall.jpg", at: "/vi/abc123/0.jpg")
        let list = try feedList("/apod.json")
        let video = try fetch(list)
        XCTAssertEqual(video.status, 0, video.stderr)
        XCTAssertEqual(
            video.lines.first,
            "Today's item is a video: https://www.youtube.com/embed/abc123?rel=0 (a still of it is shown)"
        )
        let path = video.lines[2]
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), try bytes("tall.jpg"))
        XCTAssertEqual(nginx.requests.map(\.path), ["/apod.json", "/vi/abc123/0.jpg"])

        try serveFeed("apod-other.json", at: "/apod.json")
        try age(path, by: 25 * 3600)
        let other = try fetch(list)
        XCTAssertEqual(other.status, 0, other.stderr)
        XCTAssertEqual(other.lines.first, "Today's item is not an image (other); showing the previous image")
        XCTAssertFalse(other.stderr.contains("no key"), other.stderr)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), try bytes("tall.jpg"))
        XCTAssertEqual(nginx.requests.count, 3, "the feed only")
    }

    func testBingRSSAtomAndPageFindTheirImages() throws {
        let cases: [(fixture: String, path: String, image: String, select: String?)] = [
            ("bing.json", "/HPImageArchive.json", "/th", nil),
            ("media.rss", "/potd.rss", "/fern_large.jpg", nil),
            ("commons-potd.rss", "/commons.rss", "/commons/thumb/Old_bridge.jpg/1280px-Old_bridge.jpg", nil),
            ("feed.atom", "/night/feed.atom", "/night/images/orion.jpg", nil),
            ("page.html", "/gallery/week.html", "/gallery/lighthouse.jpg", nil),
            // The shapes captured from the real services.
            ("apod-days.json", "/apod-range.json", "/image/2611/comet.jpg", nil),
            ("flickr.js", "/services/feeds/photos_public.js", "/flickr/5300000001_ab12cd34ef_m.jpg", "items.0.media.m"),
            ("bing.xml", "/HPImageArchive.xml", "/th", nil),
            ("media-width.rss", "/harbour.rss", "/harbour_1920.jpg", nil),
            ("thumbnail-only.rss", "/dunes.rss", "/dunes_medium.jpg", nil),
            (
                // The largest of MediaWiki's steps up to the file's 4000 pixels.
                "wikipedia-potd.rss", "/potd-wiki.rss", "/wikipedia/commons/thumb/a/ab/Red_fox.jpg/3840px-Red_fox.jpg",
                nil
            ),
            ("astropix.html", "/apod/astropix.html", "/apod/image/2611/comet_big.jpg", nil),
        ]
        for (fixture, path, image, select) in cases {
            try serveFeed(fixture, at: path)
            try serveImage("photo.jpg", at: image)
            let before = nginx.requests.count
            let result = try fetch(try feedList(path, select: select))
            XCTAssertEqual(result.status, 0, "\(fixture): \(result.stderr)")
            XCTAssertEqual(nginx.requests.dropFirst(before).map(\.path), [path, image], fixture)
            // The image is asked on the connection the feed came on.
            XCTAssertEqual(Set(nginx.requests.dropFirst(before).map(\.connection)).count, 1, fixture)
        }
    }

    func testBadFeedsSayWhyInOneLineAndKeepTheImage() throws {
        try serveFeed("apod.json", at: "/apod.json")
        try serveImage("photo.jpg", at: "/image/hd/andromeda.jpg")
        let list = try feedList("/apod.json")
        let path = try fetch(list).lines[2]
        let bad: [(body: String, cause: String)] = [
            (
                "<!DOCTYPE html><html><head><title>Nothing</title></head><body><p>No picture today.</p></body></html>",
                "no og:image, link rel=image_src or picture in its content"
            ),
            (#"{"title": "no image"}"#, "has no key hdurl, url, image, images.0.url"),
            (#"{"hdurl": 12}"#, "key hdurl holds a number"),
            (#"<?xml version="1.0"?><rss version="2.0"><channel><title>Empty</title></channel></rss>"#, "has no item"),
            (#"{"hdurl": "file:///etc/passwd"}"#, "scheme file is not allowed"),
            (#"{"hdurl": "/apod.json"}"#, "names itself"),
            (
                #"{"hdurl": "/image/missing.jpg"}"#,
                "image " + nginx.url("/image/missing.jpg") + " (from the feed): server answered HTTP 404"
            ),
        ]
        for (body, cause) in bad {
            try serveText(body, at: "/apod.json")
            try age(path, by: 25 * 3600)
            let result = try fetch(list)
            XCTAssertEqual(result.status, 3, "\(body): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains(cause), "\(cause) in \(result.stderr)")
            XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, result.stderr)
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), try bytes("photo.jpg"), body)
        }
        // 50 MB of feed: refused at the 2 MiB limit for feeds, not read.
        let huge = nginx.root.file("apod.json")
        try serveText(#"{"hdurl": ""#, at: "/apod.json")
        let handle = try XCTUnwrap(FileHandle(forWritingAtPath: huge))
        try handle.truncate(atOffset: 50 << 20)
        try handle.close()
        try age(path, by: 25 * 3600)
        let result = try fetch(list)
        XCTAssertEqual(result.status, 3, result.stderr)
        XCTAssertTrue(result.stderr.contains("feed larger than the 2 MiB limit for feeds"), result.stderr)
        // Stopped at the head (its Content-Length): nginx counts what the socket buffers took, far from 50 MB.
        XCTAssertLessThan(nginx.requests.last?.bodyBytes ?? 0, 10 << 20)
    }

    /// A video day's still under no-store is shown as any no-store image:
    /// from outside the cache, with the status that says so.
    func testANoStoreVideoDaysStillIsShownNotKept() throws {
        try serveFeed("apod-video-thumbs.json", at: "/apod.json")
        try serveImage("tall.jpg", at: "/vi/abc123/0.jpg")
        let result = try fetch(try feedList("/nostore/apod.json"), ["--freshness", "server"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.lines.first, "Not cached: the server said no-store (shown once, nothing written)")
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: result.lines[2])), try bytes("tall.jpg"))
        let cached = (try? FileManager.default.contentsOfDirectory(atPath: home.file("cache/urlcache"))) ?? []
        XCTAssertEqual(cached.filter { $0.hasSuffix(".img") }, [], "nothing in the cache")
    }

    func testANoStoreFeedUnderTheServersRulesWritesNothing() throws {
        try serveFeed("apod.json", at: "/apod.json")
        try serveImage("photo.jpg", at: "/image/hd/andromeda.jpg")
        let list = try feedList("/nostore/apod.json")
        for _ in 0..<2 {
            let result = try fetch(list, ["--freshness", "server"])
            XCTAssertEqual(result.status, 0, result.stderr)
            XCTAssertEqual(result.lines.first, "Not cached: the server said no-store (shown once, nothing written)")
            XCTAssertTrue(result.lines.contains("Title: Andromeda Rising"), result.stdout)
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: result.lines[2])), try bytes("photo.jpg"))
        }
        let cached = (try? FileManager.default.contentsOfDirectory(atPath: home.file("cache/urlcache"))) ?? []
        XCTAssertEqual(cached.filter { $0.hasSuffix(".img") || $0.hasSuffix(".meta") }, [], "nothing in the cache")
        XCTAssertEqual(
            nginx.requests.map(\.path),
            ["/nostore/apod.json", "/image/hd/andromeda.jpg", "/nostore/apod.json", "/image/hd/andromeda.jpg"]
        )
        XCTAssertNil(nginx.requests.last?.ifNoneMatch, "nothing kept to ask with")
    }

    func testOfflineMakesNoRequest() throws {
        try serveFeed("apod.json", at: "/apod.json")
        try serveImage("photo.jpg", at: "/image/hd/andromeda.jpg")
        let list = try feedList("/apod.json")
        let path = try fetch(list).lines[2]
        try age(path, by: 30 * 86_400)
        let offline = try fetch(list, ["--offline"])
        XCTAssertEqual(offline.status, 0, offline.stderr)
        XCTAssertEqual(offline.lines.first, "Offline: cached image, no request made")
        XCTAssertEqual(offline.lines[2], path)
        XCTAssertEqual(nginx.requests.count, 2, "no request at all")
        let empty = try TemporaryDirectory()
        let nothing = try urlcache(["fetch", "--config", list, "--offline"], home: empty)
        XCTAssertEqual(nothing.status, 1)
        XCTAssertEqual(nothing.stderr.split(separator: "\n").count, 1)
        XCTAssertTrue(
            nothing.stderr.contains("nothing cached for this entry (offline: no request made)"),
            nothing.stderr
        )
        XCTAssertEqual(nginx.requests.count, 2)
    }
}

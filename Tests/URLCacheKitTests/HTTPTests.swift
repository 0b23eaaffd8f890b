import Foundation
import XCTest

@testable import URLCacheKit

/// Header lines as libcurl hands them over, HTTP dates, and which files the
/// cache may remove.
final class HTTPTests: XCTestCase {
    private func parse(_ lines: [String]) -> [ResponseHead] {
        var parser = ResponseHeadParser()
        return lines.compactMap { parser.take($0) }
    }

    func testFinalHeadWithValidatorsVerbatim() {
        let heads = parse([
            "HTTP/1.1 200 OK\r\n", "ETag: W/\"abc\"\r\n", "last-modified:  Sat, 01 Nov 2026 10:00:00 GMT \r\n",
            "Content-Type: image/png\r\n", "Content-Length: 1234\r\n", "X-Other: 1\r\n", "\r\n",
        ])
        XCTAssertEqual(
            heads,
            [
                ResponseHead(
                    status: 200,
                    reason: "OK",
                    contentType: "image/png",
                    contentLength: 1234,
                    validators: Validators(etag: "W/\"abc\"", lastModified: "Sat, 01 Nov 2026 10:00:00 GMT")
                )
            ]
        )
    }

    func testInterimAndFollowedRedirectsAreNotFinal() {
        let heads = parse([
            "HTTP/1.1 100 Continue\r\n", "\r\n",
            "HTTP/1.1 301 Moved Permanently\r\n", "Location: /b\r\n", "ETag: \"old\"\r\n", "\r\n",
            "HTTP/2 404 \r\n", "\r\n",
        ])
        XCTAssertEqual(heads.count, 1)
        XCTAssertEqual(heads.first?.status, 404)
        XCTAssertNil(heads.first?.validators.etag, "a redirect's headers do not leak into the final head")
    }

    func testRedirectWithoutLocationAnd304AreFinal() {
        XCTAssertEqual(parse(["HTTP/1.1 302 Found\r\n", "\r\n"]).first?.status, 302)
        XCTAssertEqual(parse(["HTTP/1.1 304 Not Modified\r\n", "Location: /x\r\n", "\r\n"]).first?.status, 304)
    }

    func testMalformedLinesAreIgnored() {
        let heads = parse([
            "HTTP/1.1 abc\r\n", "no colon here\r\n", ": empty name\r\n", "Content-Length: lots\r\n", "\r\n",
        ])
        XCTAssertEqual(heads.first?.status, 0)
        XCTAssertNil(heads.first?.contentLength)
    }

    func testHTTPDatesInEveryForm() {
        let expected = Date(timeIntervalSince1970: 1_762_941_600)  // 2025-11-12 10:00:00 UTC
        XCTAssertEqual(HTTPDate.parse("Wed, 12 Nov 2025 10:00:00 GMT"), expected)
        XCTAssertEqual(HTTPDate.parse("Wednesday, 12-Nov-25 10:00:00 GMT"), expected)
        XCTAssertEqual(HTTPDate.parse("Wed Nov 12 10:00:00 2025"), expected)
        XCTAssertNil(HTTPDate.parse("yesterday-ish"))
        // RFC 9110 §5.6.7 and nothing else: the forms curl_getdate took.
        for invalid in [
            "Wed, 12 Nov 2025 10:00:00 UTC", "Wed, 12 Nov 25 10:00:00 GMT", "Wed 12 Nov 2025 10:00:00 GMT",
            "Wed,  12 Nov 2025 10:00:00 GMT", "Wed, 12-Nov-2025 10:00:00 GMT", "Wed, 12 Nov 2025 1:00:00 GMT",
            "wed, 12 nov 2025 10:00:00 GMT", "Wed, 31 Nov 2025 10:00:00 GMT", "Wed, 12 Nov 2025 24:00:00 GMT",
            "Wed, 12 Nov 2025 10:00:00 GMT ", "Wed, 12 Nov 2025 10:00:00 +0000", "",
        ] {
            XCTAssertNil(HTTPDate.parse(invalid), invalid)
        }
        XCTAssertEqual(
            HTTPDate.parse("Wed Nov  2 10:00:00 2025"),
            Date(timeIntervalSince1970: 1_762_077_600),
            "asctime, a one-digit day"
        )
        XCTAssertEqual(HTTPDate.parse("Thu, 01 Jan 1970 00:00:00 GMT"), Date(timeIntervalSince1970: 0))
        XCTAssertEqual(
            HTTPDate.parse("Tue, 29 Feb 2028 23:59:60 GMT"),
            Date(timeIntervalSince1970: 1_835_481_600),
            "leap day, leap second"
        )
    }

    func testOnlyOurOwnFilesAreEverRemoved() {
        let hex = String(repeating: "0123456789abcdef", count: 2)
        for ours in [
            hex + ".img", hex + ".meta", hex + ".lock", "." + hex + ".tmp.123.456", "." + hex + ".tmp.meta.1.2",
        ] {
            XCTAssertTrue(DiskCache.isOurs(ours), ours)
        }
        for theirs in [
            "notes.txt", hex.uppercased() + ".img", String(hex.dropLast()) + ".img", hex + ".jpg",
            hex + ".img.bak", "photo.img", String(repeating: "g", count: 32) + ".img",
        ] {
            XCTAssertFalse(DiskCache.isOurs(theirs), theirs)
        }
    }

    /// A limit libcurl will not take stops the transfer with its name,
    /// before any connection: nothing runs on libcurl's defaults.
    func testARefusedSafetyOptionIsAnErrorNotADefault() throws {
        var limits = TransferLimits()
        limits.maxRedirects = -5  // libcurl takes -1 (no limit) and up, refuses the rest
        let request = TransferRequest(url: try XCTUnwrap(URL(string: "http://127.0.0.1:9/")), limits: limits)
        XCTAssertThrowsError(try CurlTransport().perform(request, receiver: TakeAll())) { error in
            guard case let .optionRefused(option, _)? = error as? TransportError else { return XCTFail("\(error)") }
            XCTAssertEqual(option, "CURLOPT_MAXREDIRS")
            XCTAssertTrue("\(error)".hasPrefix("libcurl refused CURLOPT_MAXREDIRS ("), "\(error)")
        }
    }
}

/// A receiver that takes whatever comes.
private final class TakeAll: TransferReceiver {
    func head(_ head: ResponseHead) -> TransferDecision<Never> { .proceed }
    func body(_ bytes: UnsafeRawBufferPointer) -> TransferDecision<Never> { .proceed }
    func progress(_ progress: TransferProgress) -> Bool { true }
}

import Foundation
import URLCacheHarness
import URLCacheTestSupport
import XCTest

/// Every transfer of a process shares one connection cache: later checks
/// reuse the connections earlier ones opened, and over HTTP/2 the checks
/// of `fetch --all` in flight at once are streams of one connection.
/// Against real nginx, whose access log numbers each connection.
final class ConnectionTests: XCTestCase {
    private var home: TemporaryDirectory!

    override func setUpWithError() throws { home = try TemporaryDirectory() }
    override func tearDown() { home = nil }

    /// Eight pictures on one host, six checks in flight: the first six
    /// open a connection each over HTTP/1.1, and the last two take free
    /// ones instead of opening more.
    func testLaterChecksReuseConnections() throws {
        let nginx = try Nginx()
        defer { nginx.stop() }
        let names = (1...8).map { "picture\($0).jpg" }
        for name in names { try copyFixture("earth.jpg", to: nginx.root, as: name) }
        let list = try writeList(names.map { nginx.url("/\($0)") }, in: home)
        let result = try urlcache(["fetch", "--all", "--config", list], home: home)
        XCTAssertEqual(result.status, 0, result.stderr)
        let requests = nginx.requests
        XCTAssertEqual(requests.map(\.path).sorted(), names.map { "/\($0)" }.sorted())
        XCTAssertEqual(Set(requests.map(\.httpProtocol)), ["HTTP/1.1"])
        let connections = Set(requests.compactMap(\.connection))
        XCTAssertLessThanOrEqual(connections.count, 6, "\(requests.map(\.connection))")
    }

    /// Over TLS with HTTP/2 offered, five checks at once are five streams
    /// of one connection. The server's self-signed certificate is trusted
    /// through SSL_CERT_FILE, as the curl program would take it (with
    /// CURL_CA_BUNDLE, which wins, emptied: some machines set it).
    func testHTTP2CarriesEveryCheckOnOneConnection() throws {
        let nginx = try Nginx(tls: true, http2: true)
        defer { nginx.stop() }
        let names = (1...5).map { "picture\($0).jpg" }
        for name in names { try copyFixture("earth.jpg", to: nginx.root, as: name) }
        let list = try writeList(names.map { nginx.url("/\($0)") }, in: home)
        let result = try urlcache(
            ["fetch", "--all", "--config", list],
            home: home,
            environment: ["CURL_CA_BUNDLE": "", "SSL_CERT_FILE": nginx.certificate]
        )
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.lines.filter { $0 == "   Newly cached image" }.count, 5, result.stdout)
        let requests = nginx.requests
        XCTAssertEqual(requests.count, 5)
        XCTAssertEqual(Set(requests.map(\.httpProtocol)), ["HTTP/2.0"])
        XCTAssertEqual(Set(requests.map(\.connection)).count, 1, "\(requests.map(\.connection))")
    }
}

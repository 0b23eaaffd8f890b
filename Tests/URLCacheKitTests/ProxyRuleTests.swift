import Foundation
import XCTest

@testable import URLCacheKit

/// What the environment says of the network: which proxy a failure names
/// (libcurl's rules for the proxy variables), which certificates are
/// trusted (the curl program's).
final class ProxyRuleTests: XCTestCase {
    private func proxy(_ url: String, _ environment: [String: String]) -> String? {
        URL(string: url).flatMap { ProxyRule.proxy(for: $0, environment: environment) }?.description
    }

    func testEachSchemeHasItsVariable() {
        XCTAssertEqual(proxy("https://a.example/x.jpg", ["https_proxy": "http://p:3128"]), "p:3128 (https_proxy)")
        XCTAssertEqual(proxy("https://a.example/x.jpg", ["HTTPS_PROXY": "p:8080"]), "p:8080 (HTTPS_PROXY)")
        XCTAssertEqual(proxy("http://a.example/x.jpg", ["http_proxy": "p:1"]), "p:1 (http_proxy)")
        XCTAssertNil(proxy("http://a.example/x.jpg", ["HTTP_PROXY": "p:1"]), "libcurl ignores HTTP_PROXY (httpoxy)")
        XCTAssertEqual(proxy("http://a.example/x.jpg", ["ALL_PROXY": "p:2"]), "p:2 (ALL_PROXY)")
    }

    func testNoProxyAsLibcurlReadsIt() {
        let https = ["https_proxy": "p:3128"]
        func bypassed(_ url: String, _ list: String) -> Bool {
            proxy(url, https.merging(["no_proxy": list]) { $1 }) == nil
        }
        XCTAssertTrue(bypassed("https://a.example/x", "*"))
        XCTAssertFalse(bypassed("https://a.example/x", "b.example,*"), "* counts only alone")
        XCTAssertTrue(bypassed("https://img.a.example/x", "other, .a.example"))
        XCTAssertTrue(bypassed("https://img.a.example./x", "a.example."), "trailing dots ignored")
        XCTAssertFalse(bypassed("https://nota.example/x", "a.example"), "a suffix only at a dot")
        XCTAssertTrue(bypassed("https://10.1.2.3/x", "192.168.0.0/16 10.0.0.0/8"))
        XCTAssertFalse(bypassed("https://11.1.2.3/x", "10.0.0.0/8"))
    }

    func testAPasswordIsNeverShown() {
        XCTAssertEqual(
            proxy("https://a.example/x", ["https_proxy": "http://me:secret@p.lan:3128"]),
            "p.lan:3128 (https_proxy)"
        )
        XCTAssertEqual(proxy("https://a.example/x", ["https_proxy": "me:s e@cr%t@p lan"]), "p lan (https_proxy)")
    }

    /// CURL_CA_BUNDLE wins over SSL_CERT_FILE and SSL_CERT_DIR, as in curl;
    /// empty values count as unset.
    func testTrustedCertificatesAreReadAsCurlReadsThem() {
        let both = TrustedCertificates(environment: [
            "CURL_CA_BUNDLE": "/a.pem", "SSL_CERT_FILE": "/b.pem", "SSL_CERT_DIR": "/c",
        ])
        XCTAssertEqual(both.file, "/a.pem")
        XCTAssertNil(both.directory)
        let ssl = TrustedCertificates(environment: [
            "CURL_CA_BUNDLE": "", "SSL_CERT_FILE": "/b.pem", "SSL_CERT_DIR": "/c",
        ])
        XCTAssertEqual(ssl.file, "/b.pem")
        XCTAssertEqual(ssl.directory, "/c")
        XCTAssertEqual(TrustedCertificates(environment: [:]), TrustedCertificates(environment: ["SSL_CERT_FILE": ""]))
    }
}

import Foundation
import XCTest
import URLCacheTestSupport

/// One request a server saw.
struct LoggedRequest: Decodable {
    var method: String
    var path: String
    var status: Int
    var bodyBytes: Int
    var ifNoneMatch: String?
    var ifModifiedSince: String?
    var userAgent: String?
    var acceptEncoding: String?
    var accept: String?
    var proxied: Bool?
}

/// The scriptable server (Tests/Servers/scripted_server.py) on 127.0.0.1:
/// the misbehaving kinds nginx will not play.
final class ScriptedServer {
    let root: TemporaryDirectory
    let logPath: String
    let port: Int
    private let process: Process

    init() throws {
        root = try TemporaryDirectory()
        logPath = root.file("requests.log")
        _ = FileManager.default.createFile(atPath: logPath, contents: nil)
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", Fixtures.servers.appendingPathComponent("scripted_server.py").path, root.path, logPath]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = out.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        let text = String(decoding: line, as: UTF8.self)
        guard text.hasPrefix("PORT "), let port = Int(text.dropFirst(5).trimmingCharacters(in: .whitespacesAndNewlines)) else {
            process.terminate()
            throw NSError(domain: "ScriptedServer", code: 1, userInfo: [NSLocalizedDescriptionKey: "server did not start: \(text)"])
        }
        self.port = port
    }

    deinit { stop() }

    /// Stops the server (XCTest keeps test cases alive: call it in tearDown).
    func stop() { terminate(process) }

    func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }

    var requests: [LoggedRequest] {
        let text = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return text.split(separator: "\n").compactMap { try? decoder.decode(LoggedRequest.self, from: Data($0.utf8)) }
    }
}

/// A test case with a home of its own and a real nginx, stopped after each
/// test (the fetch, feed, freshness and history tests).
class NginxTestCase: XCTestCase {
    var home: TemporaryDirectory!
    var nginx: Nginx!

    override func setUpWithError() throws {
        home = try TemporaryDirectory()
        nginx = try Nginx()
    }

    override func tearDown() {
        nginx?.stop()
        nginx = nil
        home = nil
    }
}

/// A test case with a home of its own and the scripted server, serving
/// the fixtures the subclass names; a tmpfs a test mounted is unmounted
/// after it (the misbehaving, hostile, reliability, cache, save and signal tests).
class ScriptedServerTestCase: XCTestCase {
    var home: TemporaryDirectory!
    var server: ScriptedServer!
    var mountPoint: String?

    /// A real small file system (a tmpfs with `options`) at `path`, created
    /// if missing, unmounted after the test; skips without root.
    func mountTmpfs(at path: String, options: String) throws {
        guard getuid() == 0 else { throw XCTSkip("mounting a tmpfs needs root") }
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        let mounted = try runProgram(URL(fileURLWithPath: "/bin/mount"), ["-t", "tmpfs", "-o", options, "tmpfs", path])
        guard mounted.status == 0 else { throw XCTSkip("cannot mount tmpfs here: \(mounted.stderr)") }
        mountPoint = path
    }

    /// The fixture images the server serves, and the names it serves them as.
    var served: [(fixture: String, name: String)] { [] }

    override func setUpWithError() throws {
        home = try TemporaryDirectory()
        server = try ScriptedServer()
        for (fixture, name) in served { try copyFixture(fixture, to: server.root, as: name) }
    }

    /// A `fetch` of `url` (a trickle) that hangs holding its entry, once it
    /// receives: its temporary file is in `cacheDir`.
    func startHangingFetch(_ url: String, cacheDir: String) throws -> Process {
        let hanging = Process()
        hanging.executableURL = Paths.binary
        hanging.arguments = ["fetch", "--url", url, "--cache-dir", cacheDir, "--max-time", "60"]
        hanging.environment = ["HOME": home.path, "NO_PROXY": "127.0.0.1"]
        hanging.standardOutput = FileHandle.nullDevice
        hanging.standardError = FileHandle.nullDevice
        try hanging.run()
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline, !((try? FileManager.default.contentsOfDirectory(atPath: cacheDir)) ?? []).contains(where: { $0.contains(".tmp.") }) {
            usleep(50_000)
        }
        return hanging
    }

    override func tearDown() {
        if let mountPoint { _ = try? runProgram(URL(fileURLWithPath: "/bin/umount"), [mountPoint]) }
        mountPoint = nil
        server?.stop()
        server = nil
        home = nil
    }
}

/// A real nginx on 127.0.0.1 serving a directory, with its true
/// Last-Modified, ETag and 304 behaviour, and an access log the tests read.
final class Nginx {
    let root: TemporaryDirectory
    let port: Int
    private let prefix: TemporaryDirectory
    private let process: Process

    static var executable: String? {
        ["/usr/sbin/nginx", "/usr/local/sbin/nginx", "/usr/bin/nginx"].first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Whether it speaks HTTPS (with a self-signed certificate no one trusts).
    let tls: Bool

    /// `tls`: serve HTTPS with a fresh self-signed certificate for
    /// 127.0.0.1, made by openssl, which no trust store holds.
    init(tls: Bool = false) throws {
        guard let nginx = Nginx.executable else { throw XCTSkip("nginx is not installed (Scripts/test installs nginx-light)") }
        self.tls = tls
        root = try TemporaryDirectory()
        prefix = try TemporaryDirectory()
        port = try freePort()
        var listen = "listen 127.0.0.1:\(port);"
        if tls {
            let made = try runProgram(URL(fileURLWithPath: "/usr/bin/openssl"), [
                "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=127.0.0.1",
                "-addext", "subjectAltName=IP:127.0.0.1",
                "-keyout", prefix.file("key.pem"), "-out", prefix.file("cert.pem"),
            ])
            guard made.status == 0 else { throw NSError(domain: "Nginx", code: 2, userInfo: [NSLocalizedDescriptionKey: made.stderr]) }
            listen = """
                listen 127.0.0.1:\(port) ssl;
                        ssl_certificate \(prefix.file("cert.pem"));
                        ssl_certificate_key \(prefix.file("key.pem"));
                """
        }
        let conf = try prefix.write("nginx.conf", """
            daemon off;
            master_process off;
            worker_processes 1;
            error_log \(prefix.file("error.log")) warn;
            pid \(prefix.file("nginx.pid"));
            events { worker_connections 64; }
            http {
                log_format tests '$request_method $uri $status $body_bytes_sent "$http_if_none_match" "$http_if_modified_since"';
                access_log \(prefix.file("access.log")) tests;
                client_body_temp_path \(prefix.path)/body;
                proxy_temp_path \(prefix.path)/proxy;
                fastcgi_temp_path \(prefix.path)/fastcgi;
                uwsgi_temp_path \(prefix.path)/uwsgi;
                scgi_temp_path \(prefix.path)/scgi;
                types { image/png png; image/jpeg jpg; application/json json; application/rss+xml rss; application/atom+xml atom; text/html html; }
                server {
                    \(listen)
                    root \(root.path);
                    # Freshness as real servers send it (FreshnessTests).
                    location /max10m/ { alias \(root.path)/; expires 10m; }
                    location /nocache/ { alias \(root.path)/; add_header Cache-Control "no-cache"; }
                    location /nostore/ { alias \(root.path)/; add_header Cache-Control "no-store"; }
                }
            }
            """)
        process = Process()
        process.executableURL = URL(fileURLWithPath: nginx)
        process.arguments = ["-p", prefix.path, "-c", conf, "-e", prefix.file("error.log")]
        // Children must not hold the test runner's output open.
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        try waitForPort(port)
    }

    deinit { stop() }

    /// Stops nginx (XCTest keeps test cases alive: call it in tearDown).
    func stop() { terminate(process) }

    func url(_ path: String) -> String { "\(tls ? "https" : "http")://127.0.0.1:\(port)\(path)" }

    /// Access-log lines: method, uri, status, body bytes, If-None-Match, If-Modified-Since.
    var requests: [LoggedRequest] {
        let text = (try? String(contentsOfFile: prefix.file("access.log"), encoding: .utf8)) ?? ""
        return text.split(separator: "\n").map { line in
            let quoted = line.split(separator: "\"", omittingEmptySubsequences: false).map(String.init)
            let fields = quoted[0].split(separator: " ").map(String.init)
            func header(_ value: String) -> String? { value == "-" ? nil : value }
            return LoggedRequest(method: fields[0], path: fields[1], status: Int(fields[2]) ?? 0,
                                 bodyBytes: Int(fields[3]) ?? 0,
                                 ifNoneMatch: quoted.count > 1 ? header(quoted[1]) : nil,
                                 ifModifiedSince: quoted.count > 3 ? header(quoted[3]) : nil)
        }
    }
}

/// Ends a server process and waits for it.
func terminate(_ process: Process) {
    guard process.isRunning else { return }
    process.terminate()
    process.waitUntilExit()
}

/// A port nobody listens on now (bound to 0, read, released).
func freePort() throws -> Int {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer -> Int32 in
            guard bind(fd, pointer, length) == 0 else { return -1 }
            return getsockname(fd, pointer, &length)
        }
    }
    guard bound == 0 else { throw NSError(domain: "freePort", code: Int(errno)) }
    return Int(UInt16(bigEndian: address.sin_port))
}

/// Waits until something accepts connections on the port (nginx starting).
func waitForPort(_ port: Int) throws {
    for _ in 0..<200 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        close(fd)
        if result == 0 { return }
        usleep(25_000)
    }
    throw NSError(domain: "waitForPort", code: port, userInfo: [NSLocalizedDescriptionKey: "nothing listens on \(port)"])
}

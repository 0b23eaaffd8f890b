import Foundation
import Synchronization
import URLCacheTestSupport
import XCTest

/// One request a server saw.
public struct LoggedRequest: Decodable {
    public var method: String
    public var path: String
    public var status: Int
    public var bodyBytes: Int
    public var ifNoneMatch: String?
    public var ifModifiedSince: String?
    public var userAgent: String?
    public var acceptEncoding: String?
    public var accept: String?
    public var proxied: Bool?
    /// nginx's serial number of the connection the request came on.
    public var connection: Int?
    /// The protocol it came in: "HTTP/1.1", "HTTP/2.0".
    public var httpProtocol: String?
}

/// The scriptable server (Tests/Servers/scripted_server.py) on 127.0.0.1:
/// the misbehaving kinds nginx will not play.
public final class ScriptedServer {
    public let root: TemporaryDirectory
    public let logPath: String
    public let port: Int
    private let process: Process

    public init() throws {
        root = try TemporaryDirectory()
        logPath = root.file("requests.log")
        _ = FileManager.default.createFile(atPath: logPath, contents: nil)
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "python3", Fixtures.servers.appendingPathComponent("scripted_server.py").path, root.path, logPath,
        ]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        // The server binds port 0 and says which port it got; a server
        // that says nothing within 30 s is a failed start, not a hang.
        let said = Mutex(Data())
        let reader = DispatchSemaphore(value: 0)
        let handle = out.fileHandleForReading
        DispatchQueue.global().async {
            while !said.withLock({ $0.contains(UInt8(ascii: "\n")) }) {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                said.withLock { $0.append(chunk) }
            }
            reader.signal()
        }
        let ended = reader.wait(timeout: .now() + 30) == .success
        let text = String(decoding: said.withLock { $0 }, as: UTF8.self)
        guard ended, text.hasPrefix("PORT "),
            let port = Int(text.dropFirst(5).trimmingCharacters(in: .whitespacesAndNewlines))
        else {
            terminate(process)
            throw NSError(
                domain: "ScriptedServer",
                code: 1,
                userInfo: [NSLocalizedDescriptionKey: "server did not start: \(text)"]
            )
        }
        self.port = port
    }

    deinit { stop() }

    /// Stops the server (XCTest keeps test cases alive: call it in tearDown).
    public func stop() { terminate(process) }

    public func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }

    public var requests: [LoggedRequest] {
        let text = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return text.split(separator: "\n").compactMap { try? decoder.decode(LoggedRequest.self, from: Data($0.utf8)) }
    }
}

/// A test case with a home of its own and a real nginx, stopped after each
/// test (the fetch, feed, freshness and history tests).
open class NginxTestCase: XCTestCase {
    public var home: TemporaryDirectory!
    public var nginx: Nginx!

    open override func setUpWithError() throws {
        home = try TemporaryDirectory()
        nginx = try Nginx()
    }

    open override func tearDown() {
        nginx?.stop()
        nginx = nil
        home = nil
    }
}

/// A test case with a home of its own and the scripted server, serving
/// the fixtures the subclass names; a tmpfs a test mounted is unmounted
/// after it (the misbehaving, hostile, reliability, cache, save and signal tests).
open class ScriptedServerTestCase: XCTestCase {
    public var home: TemporaryDirectory!
    public var server: ScriptedServer!
    public var mountPoint: String?

    /// A real small file system (a tmpfs with `options`) at `path`, created
    /// if missing, unmounted after the test; skips without root.
    public func mountTmpfs(at path: String, options: String) throws {
        guard getuid() == 0 else { throw XCTSkip("mounting a tmpfs needs root") }
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        let mounted = try runProgram(URL(fileURLWithPath: "/bin/mount"), ["-t", "tmpfs", "-o", options, "tmpfs", path])
        guard mounted.status == 0 else { throw XCTSkip("cannot mount tmpfs here: \(mounted.stderr)") }
        mountPoint = path
    }

    /// The fixture images the server serves, and the names it serves them as.
    open var served: [(fixture: String, name: String)] { [] }

    open override func setUpWithError() throws {
        home = try TemporaryDirectory()
        server = try ScriptedServer()
        for (fixture, name) in served { try copyFixture(fixture, to: server.root, as: name) }
    }

    /// A `fetch` of `url` (a trickle) that hangs holding its entry, once it
    /// receives: its temporary file is in `cacheDir`.
    public func startHangingFetch(_ url: String, cacheDir: String) throws -> Process {
        let hanging = Process()
        hanging.executableURL = Paths.binary
        hanging.arguments = ["fetch", "--url", url, "--cache-dir", cacheDir, "--max-time", "60"]
        hanging.environment = ["HOME": home.path, "NO_PROXY": "127.0.0.1"]
        hanging.standardOutput = FileHandle.nullDevice
        hanging.standardError = FileHandle.nullDevice
        try hanging.run()
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline,
            !((try? FileManager.default.contentsOfDirectory(atPath: cacheDir)) ?? []).contains(where: {
                $0.contains(".tmp.")
            })
        {
            usleep(50_000)
        }
        return hanging
    }

    open override func tearDown() {
        if let mountPoint { _ = try? runProgram(URL(fileURLWithPath: "/bin/umount"), [mountPoint]) }
        mountPoint = nil
        server?.stop()
        server = nil
        home = nil
    }
}

/// A real nginx on 127.0.0.1 serving a directory, with its true
/// Last-Modified, ETag and 304 behaviour, and an access log the tests read.
public final class Nginx {
    public let root: TemporaryDirectory
    public let port: Int
    private let prefix: TemporaryDirectory
    private let process: Process

    static var executable: String? {
        ["/usr/sbin/nginx", "/usr/local/sbin/nginx", "/usr/bin/nginx"].first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
    }

    /// Whether it speaks HTTPS (with a self-signed certificate no one trusts).
    public let tls: Bool

    /// `tls`: serve HTTPS with a fresh self-signed certificate for
    /// 127.0.0.1, made by openssl, which no trust store holds (`certificate`
    /// names it, for a client told to trust it). `http2`: offer HTTP/2 too.
    public init(tls: Bool = false, http2: Bool = false) throws {
        guard let nginx = Nginx.executable else {
            throw XCTSkip("nginx is not installed (Scripts/test installs nginx-light)")
        }
        self.tls = tls
        root = try TemporaryDirectory()
        prefix = try TemporaryDirectory()
        if tls {
            let made = try runProgram(
                URL(fileURLWithPath: "/usr/bin/openssl"),
                [
                    "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=127.0.0.1",
                    "-addext", "subjectAltName=IP:127.0.0.1",
                    "-keyout", prefix.file("key.pem"), "-out", prefix.file("cert.pem"),
                ]
            )
            guard made.status == 0 else {
                throw NSError(domain: "Nginx", code: 2, userInfo: [NSLocalizedDescriptionKey: made.stderr])
            }
        }
        (port, process) = try Nginx.start(nginx, prefix: prefix, root: root, tls: tls, http2: http2)
    }

    /// The certificate it serves over TLS.
    public var certificate: String { prefix.file("cert.pem") }

    /// nginx cannot listen on port 0 and say which port it got, so it is
    /// given one and asked, through the kernel, whether it holds it: a
    /// port another server took (tests run in parallel) is tried again with
    /// another. The ports are below the kernel's ephemeral range, which
    /// clients' own ports come from.
    private static func start(
        _ nginx: String,
        prefix: TemporaryDirectory,
        root: TemporaryDirectory,
        tls: Bool,
        http2: Bool
    ) throws -> (port: Int, process: Process) {
        for _ in 0..<20 {
            let port = Int.random(in: 20_000..<32_000)
            let conf = try prefix.write(
                "nginx.conf",
                configuration(port: port, prefix: prefix, root: root, tls: tls, http2: http2)
            )
            try? FileManager.default.removeItem(atPath: prefix.file("error.log"))
            let process = Process()
            process.executableURL = URL(fileURLWithPath: nginx)
            process.arguments = ["-p", prefix.path, "-c", conf, "-e", prefix.file("error.log")]
            // Children must not hold the test runner's output open.
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            let deadline = Date().addingTimeInterval(10)
            while Date() < deadline, process.isRunning {
                if Listening.holds(pid: process.processIdentifier, port: port) { return (port, process) }
                // nginx retries a taken port for seconds: no need to wait for it.
                let log = (try? String(contentsOfFile: prefix.file("error.log"), encoding: .utf8)) ?? ""
                if log.contains("bind()") { break }
                usleep(10_000)
            }
            terminate(process)
        }
        let log = (try? String(contentsOfFile: prefix.file("error.log"), encoding: .utf8)) ?? ""
        throw NSError(domain: "Nginx", code: 1, userInfo: [NSLocalizedDescriptionKey: "nginx did not start: \(log)"])
    }

    private static func configuration(
        port: Int,
        prefix: TemporaryDirectory,
        root: TemporaryDirectory,
        tls: Bool,
        http2: Bool
    ) -> String {
        var listen = "listen 127.0.0.1:\(port);"
        if tls {
            listen = """
                listen 127.0.0.1:\(port) ssl\(http2 ? " http2" : "");
                        ssl_certificate \(prefix.file("cert.pem"));
                        ssl_certificate_key \(prefix.file("key.pem"));
                """
        }
        return """
            daemon off;
            master_process off;
            worker_processes 1;
            error_log \(prefix.file("error.log")) warn;
            pid \(prefix.file("nginx.pid"));
            events { worker_connections 64; }
            http {
                log_format tests '$request_method $uri $status $body_bytes_sent "$http_if_none_match" "$http_if_modified_since" $connection $server_protocol';
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
            """
    }

    deinit { stop() }

    /// Stops nginx (XCTest keeps test cases alive: call it in tearDown).
    public func stop() { terminate(process) }

    public func url(_ path: String) -> String { "\(tls ? "https" : "http")://127.0.0.1:\(port)\(path)" }

    /// Access-log lines: method, uri, status, body bytes, If-None-Match,
    /// If-Modified-Since, connection number, protocol.
    public var requests: [LoggedRequest] {
        let text = (try? String(contentsOfFile: prefix.file("access.log"), encoding: .utf8)) ?? ""
        return text.split(separator: "\n").map { line in
            let quoted = line.split(separator: "\"", omittingEmptySubsequences: false).map(String.init)
            let fields = quoted[0].split(separator: " ").map(String.init)
            func header(_ value: String) -> String? { value == "-" ? nil : value }
            let after = quoted.count > 4 ? quoted[4].split(separator: " ").map(String.init) : []
            return LoggedRequest(
                method: fields[0],
                path: fields[1],
                status: Int(fields[2]) ?? 0,
                bodyBytes: Int(fields[3]) ?? 0,
                ifNoneMatch: quoted.count > 1 ? header(quoted[1]) : nil,
                ifModifiedSince: quoted.count > 3 ? header(quoted[3]) : nil,
                connection: after.first.flatMap { Int($0) },
                httpProtocol: after.dropFirst().first
            )
        }
    }
}

/// Ends a server process and waits for it.
public func terminate(_ process: Process) {
    guard process.isRunning else { return }
    process.terminate()
    process.waitUntilExit()
}

import Foundation
import URLCacheTestSupport
import XCTest

/// Debian's Squid on 127.0.0.1, a shared cache in memory in front of the
/// test's servers, as a site puts one in front of many machines: the
/// shared-cache tests send every machine's `fetch --all` through it.
public final class Squid {
    public let port: Int
    private let prefix: TemporaryDirectory
    private let process: Process

    /// The environment that sends a client's plain-HTTP requests through it
    /// (the harness otherwise keeps loopback away from every proxy).
    public var clientEnvironment: [String: String] {
        ["http_proxy": "http://127.0.0.1:\(port)", "no_proxy": "", "NO_PROXY": ""]
    }

    public init() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/sbin/squid") else {
            throw XCTSkip("squid is not installed (Scripts/install-deps --tests installs it)")
        }
        prefix = try TemporaryDirectory()
        // Squid started as root runs as Debian's proxy user: it writes its
        // logs here.
        chmod(prefix.path, 0o777)
        var started: (Int, Process)?
        // Squid cannot listen on port 0 and say which it got: a port another
        // server took (tests run in parallel) is tried again with another.
        for _ in 0..<10 where started == nil {
            let port = Int.random(in: 32_000..<40_000)
            let conf = try prefix.write("squid.conf", Squid.configuration(port: port, prefix: prefix))
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/sbin/squid")
            process.arguments = ["-N", "-f", conf]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            let deadline = Date().addingTimeInterval(20)
            while Date() < deadline, process.isRunning, !Listening.holds(pid: process.processIdentifier, port: port) {
                usleep(20_000)
            }
            if Listening.holds(pid: process.processIdentifier, port: port) {
                started = (port, process)
            } else {
                terminate(process)
            }
        }
        guard let (port, process) = started else {
            let log = (try? String(contentsOfFile: prefix.file("cache.log"), encoding: .utf8)) ?? ""
            throw NSError(
                domain: "Squid",
                code: 1,
                userInfo: [NSLocalizedDescriptionKey: "squid did not start: \(log)"]
            )
        }
        (self.port, self.process) = (port, process)
    }

    /// A memory cache that lets loopback through and nobody else, keeps
    /// objects by RFC 9111 with its usual heuristic (20 % of the age since
    /// Last-Modified, at most 3 days), and stops at once when told.
    private static func configuration(port: Int, prefix: TemporaryDirectory) -> String {
        """
        http_port 127.0.0.1:\(port)
        pid_filename \(prefix.file("squid.pid"))
        access_log stdio:\(prefix.file("access.log")) squid
        cache_log \(prefix.file("cache.log"))
        cache_store_log none
        coredump_dir \(prefix.path)
        cache_mem 64 MB
        maximum_object_size_in_memory 16 MB
        refresh_pattern . 0 20% 4320
        acl loopback src 127.0.0.0/8
        http_access allow loopback
        http_access deny all
        pinger_enable off
        shutdown_lifetime 0 seconds
        logfile_rotate 0
        """
    }

    deinit { stop() }

    /// Stops Squid (XCTest keeps test cases alive: call it in tearDown).
    public func stop() { terminate(process) }

    /// How Squid answered each request, from its access log: TCP_MISS,
    /// TCP_MEM_HIT, TCP_IMS_HIT, TCP_REFRESH_UNMODIFIED…
    public var outcomes: [String] {
        let text = (try? String(contentsOfFile: prefix.file("access.log"), encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line in
            line.split(separator: " ").first { $0.hasPrefix("TCP_") }.map { String($0.split(separator: "/")[0]) }
        }
    }
}

import Foundation

/// Which process listens where, as the kernel says it (/proc): how a
/// server that cannot report the port it got is checked to hold the one
/// it was given, and not another server that took it first.
enum Listening {
    /// Whether `pid` holds a TCP socket listening on 127.0.0.1:`port`.
    static func holds(pid: Int32, port: Int) -> Bool {
        let inodes = listeningInodes(port: port)
        guard !inodes.isEmpty, let fds = try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd") else {
            return false
        }
        return fds.contains { fd in
            guard let link = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\(fd)") else {
                return false
            }
            return inodes.contains(link)
        }
    }

    /// The socket inodes listening on 127.0.0.1:`port` (/proc/net/tcp:
    /// local address in hex, state 0A is LISTEN, the inode tenth).
    private static func listeningInodes(port: Int) -> Set<String> {
        guard let table = try? String(contentsOfFile: "/proc/net/tcp", encoding: .utf8) else { return [] }
        let local = "0100007F:" + String(format: "%04X", port)
        var inodes: Set<String> = []
        for line in table.split(separator: "\n").dropFirst() {
            let fields = line.split(separator: " ")
            guard fields.count > 9, fields[1] == local, fields[3] == "0A" else { continue }
            inodes.insert("socket:[\(fields[9])]")
        }
        return inodes
    }
}

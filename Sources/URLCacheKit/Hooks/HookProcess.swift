import FoundationEssentials
import URLCacheSupport

#if canImport(Glibc)
import Glibc
#endif

/// Starting and waiting for a hook's process: no shell, a deadline, and
/// output gathered in an unlinked temporary file rather than a pipe, so
/// that a child the hook leaves running (a wallpaper daemon) cannot keep
/// urlcache waiting for the pipe's end.
enum HookProcess {
    /// The executable `program` names: a path as given, else the first
    /// executable file of that name in PATH.
    static func locate(_ program: String) -> String? {
        if program.contains("/") { return Posix.isExecutable(program) ? program : nil }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for dir in path.split(separator: ":") where !dir.isEmpty {
            let candidate = "\(dir)/\(program)"
            if Posix.isExecutableFile(candidate) { return candidate }
        }
        return nil
    }

    static func run(
        _ executable: String,
        arguments: [String],
        environment: [String: String],
        timeout: TimeInterval
    ) -> NewImageHook.Run {
        // Posix.open: O_EXCL on a name of our own, and close-on-exec, so a
        // hook started meanwhile on another thread does not inherit this
        // one's output (dup2 onto 1 and 2 clears the flag there).
        let path = "\(Posix.temporaryDirectory)/urlcache-hook.\(getpid()).\(UInt64.random(in: 0...UInt64.max))"
        let fd: Int32
        do { fd = try Posix.open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW, 0o600) } catch {
            return .init(ending: .notStarted("no temporary file for its output: \(error)"), output: "")
        }
        try? Posix.unlinkIfPresent(path)
        defer { close(fd) }
        let pid: pid_t
        switch spawn(executable, arguments: arguments, environment: environment, output: fd) {
        case let .success(started): pid = started
        case let .failure(error): return .init(ending: .notStarted(error.description), output: "")
        }
        let ending = wait(for: pid, timeout: timeout)
        lseek(fd, 0, SEEK_SET)
        let output = ((try? Posix.read(fd, stoppingPast: NewImageHook.maxOutput)) ?? []).prefix(NewImageHook.maxOutput)
        return .init(ending: ending, output: String(decoding: output, as: UTF8.self))
    }

    /// glibc's posix_spawn_file_actions_addclosefrom_np (2.34 and later),
    /// which Swift's Glibc module does not declare; nil on an older glibc,
    /// whose hooks then inherit what is open (Debian 12 has 2.36).
    private static let closeFrom: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32)? =
        {
            guard let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") else { return nil }
            return unsafeBitCast(
                symbol,
                to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self
            )
        }()

    /// posix_spawn, not Foundation's Process: Process learns of the exit
    /// through a socket the child inherits, so a daemon the hook starts
    /// (`swaybg &`) would hold it until the daemon ends. The hook gets its
    /// own process group (a timeout stops all it started), default signal
    /// dispositions, /dev/null for input and `output` for both outputs.
    private static func spawn(
        _ executable: String,
        arguments: [String],
        environment: [String: String],
        output: Int32
    ) -> Result<pid_t, Errno> {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, output, 1)
        posix_spawn_file_actions_adddup2(&actions, output, 2)
        // Nothing else: libcurl's idle connections (and whatever else is
        // open) stay ours, not a daemon's the hook leaves running.
        _ = closeFrom?(&actions, 3)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigdefault(&attributes, &all)
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(
            &attributes,
            Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK)
        )
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid = pid_t()
        let status = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        return status == 0 ? .success(pid) : .failure(Errno(rawValue: status))
    }

    /// Waits for `pid`; past `timeout`, its group is sent SIGTERM, then
    /// SIGKILL two seconds later.
    private static func wait(for pid: pid_t, timeout: TimeInterval) -> NewImageHook.Ending {
        // Elapsed time, as every other limit: a clock set back or forward
        // neither kills the hook early nor lets it run on.
        let deadline = ContinuousClock.now + .milliseconds(Int(min(timeout, 1e9) * 1000))
        var status: Int32 = 0
        // Looked at after 0.5 ms, then twice as long each time up to 20 ms:
        // a question to tmux is answered in 2–3 ms, and a flat 20 ms pause
        // made every start in tmux wait that long for it.
        var pause = GrowingPause(first: 500, cap: 20_000)
        while true {
            let done = waitpid(pid, &status, WNOHANG)
            if done == pid { break }
            if done < 0, errno != EINTR { return .notStarted("lost: \(Errno.current)") }
            if ContinuousClock.now >= deadline {
                kill(-pid, SIGTERM)
                let grace = ContinuousClock.now + .seconds(2)
                while waitpid(pid, &status, WNOHANG) == 0 {
                    if ContinuousClock.now >= grace {
                        kill(-pid, SIGKILL)
                        _ = waitpid(pid, &status, 0)
                        break
                    }
                    usleep(20_000)
                }
                return .timedOut(seconds: timeout)
            }
            pause.sleep()
        }
        // <sys/wait.h>'s macros: the low 7 bits a signal, else the exit status above them.
        let signal = status & 0x7F
        return signal == 0 ? .exited((status >> 8) & 0xFF) : .signalled(signal)
    }
}

/// A short program's output (standard output and error together), for questions answered by another
/// program (detection asks tmux what its client is). Run as a hook is: no
/// shell, its own process group, killed past `timeout`.
public enum ProgramOutput {
    /// What `program` (a path, or a name looked up in PATH) printed; nil
    /// when it is not found, does not exit 0, or runs past `timeout`.
    public static func of(
        _ program: String,
        _ arguments: [String],
        environment: [String: String],
        timeout: TimeInterval
    ) -> String? {
        guard let executable = HookProcess.locate(program) else { return nil }
        let run = HookProcess.run(executable, arguments: arguments, environment: environment, timeout: timeout)
        return run.ending == .exited(0) ? run.output : nil
    }
}

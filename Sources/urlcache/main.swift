import ArgumentParser
import BlockArt
import FoundationEssentials

#if canImport(Glibc)
import Glibc
#endif

// The executable only parses arguments and wires the parts together; this
// is the one place where a failure becomes an exit status.
//
// A command that is done ends the process with _exit, not exit: a thread it
// no longer waits for (the screen's check, quit before its answer) may still
// be inside libcurl or OpenSSL, whose exit handlers then free the locks that
// thread holds (seen: a segfault in libcrypto when q came during start-up).
// Everything worth keeping is written by then; stdio is flushed here.
func end(_ status: Int32) -> Never {
    fflush(nil)
    _exit(status)
}

// One heap for every thread: memory freed by one decode serves the next (ImageMemory says why).
ImageMemory.shareOneHeap()

do {
    let arguments = Array(CommandLine.arguments.dropFirst())
    try URLCacheCommand.checkCommandName(arguments)
    var command = try URLCacheCommand.parseQuickly(arguments) ?? URLCacheCommand.parseAsRoot(arguments)
    try command.run()
    end(0)
} catch let failure as Failure {
    if !failure.message.isEmpty { printError("urlcache: \(failure.message)") }
    end(failure.status)
} catch {
    // ArgumentParser ends a bad command line with 64 (EX_USAGE); the
    // commands document 2 for every usage error, as their own checks give,
    // so scripts see one status for "you called it wrong".
    if URLCacheCommand.exitCode(for: error) == .validationFailure {
        URLCacheCommand.fullMessage(for: error).split(separator: "\n", omittingEmptySubsequences: false).forEach {
            printError(String($0))
        }
        URLCacheCommand.exit(withError: ExitCode(2))
    }
    URLCacheCommand.exit(withError: error)
}

import ArgumentParser
import Foundation

// The executable only parses arguments and wires the parts together; this
// is the one place where a failure becomes an exit status.
do {
    try URLCacheCommand.checkCommandName(Array(CommandLine.arguments.dropFirst()))
    var command = try URLCacheCommand.parseAsRoot()
    try command.run()
} catch let failure as Failure {
    if !failure.message.isEmpty { printError("urlcache: \(failure.message)") }
    URLCacheCommand.exit(withError: ExitCode(failure.status))
} catch {
    // ArgumentParser ends a bad command line with 64 (EX_USAGE); the
    // commands document 2 for every usage error, as their own checks give,
    // so scripts see one status for "you called it wrong".
    if URLCacheCommand.exitCode(for: error) == .validationFailure {
        URLCacheCommand.fullMessage(for: error).split(separator: "\n", omittingEmptySubsequences: false).forEach { printError(String($0)) }
        URLCacheCommand.exit(withError: ExitCode(2))
    }
    URLCacheCommand.exit(withError: error)
}

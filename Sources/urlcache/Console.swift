import BlockArt
import FoundationEssentials
import URLCacheSupport

#if canImport(Glibc)
import Glibc
#endif

/// The one door text leaves the command line by. Every line is made
/// terminal-safe here, where it is shown, not where it was read: text from
/// a server, a feed, the list or the cache's own files (which anyone who can
/// write the cache can edit) can take no path to the terminal that skips
/// the rule. Pictures and art, which are escape sequences by design, are
/// written by their commands as bytes.
enum Console {
    /// One line on standard output.
    static func line(_ text: String) {
        write(Array((text.terminalSafe + "\n").utf8))
    }

    /// Bytes on standard output (or `fd`), as they are. A closed pipe ends
    /// the program by SIGPIPE, as before; another error loses the output,
    /// which has nowhere else to go.
    static func write(_ bytes: [UInt8], to fd: Int32 = STDOUT_FILENO) {
        try? writeAll(fd, bytes)
    }

    /// Lines on standard output, each made safe on its own.
    static func lines(_ texts: [String]) {
        texts.forEach(line)
    }
}

/// One line on standard error, made terminal-safe.
func printError(_ line: String) {
    // A decoder that silences a library's own printing points fd 2
    // elsewhere meanwhile, holding this lock (jxl_shim.c).
    StandardError.withLock { Console.write(Array((line.terminalSafe + "\n").utf8), to: STDERR_FILENO) }
}

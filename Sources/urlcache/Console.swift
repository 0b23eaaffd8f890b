import BlockArt
import Foundation
import URLCacheSupport

/// The one door text leaves the command line by. Every line is made
/// terminal-safe here, where it is shown, not where it was read: text from
/// a server, a feed, the list or the cache's own files (which anyone who can
/// write the cache can edit) can take no path to the terminal that skips
/// the rule. Pictures and art, which are escape sequences by design, are
/// written by their commands as bytes.
enum Console {
    /// One line on standard output.
    static func line(_ text: String) {
        FileHandle.standardOutput.write(Data((text.terminalSafe + "\n").utf8))
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
    StandardError.withLock { FileHandle.standardError.write(Data((line.terminalSafe + "\n").utf8)) }
}

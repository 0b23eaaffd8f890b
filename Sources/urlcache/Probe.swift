import ArgumentParser
import BlockArt
import FoundationEssentials
import URLCacheScreen

#if canImport(Glibc)
import Glibc
#endif

/// `urlcache probe`: what `auto` detects, and from what.
struct Probe: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "probe",
        abstract: "Print what the terminal was detected to show, and the evidence.",
        discussion: """
            The first thing to run when the picture looks wrong: the environment read, the \
            terminal's replies and how long they took, the size in pixels, and the format, \
            colours and glyphs chosen.
            """
    )

    @Option(help: ArgumentHelp("Take these colours, as the other commands do.", valueName: "mode"))
    var colors: ColorChoice = .auto

    func run() throws {
        let environment = ProcessInfo.processInfo.environment
        var (detection, answer) = PictureDetection.detect(environment: environment, requestedColors: colors.requested)
        PictureDetection.askKittyMedium(&detection, environment: environment)
        var lines = detection.reasons
        if let answer, answer.replies.complete {
            let r = answer.replies
            lines.append("kitty graphics: \(r.kittyGraphics ? "yes" : "no"), sixel (DA1 4): \(r.sixel ? "yes" : "no")")
        }
        let window = WindowSize.of(STDOUT_FILENO) ?? WindowSize.of(STDIN_FILENO)
        if let window {
            var size = "size: \(window.columns)x\(window.rows) cells"
            if let cell = window.cellPixels {
                size +=
                    ", \(window.pixelWidth)x\(window.pixelHeight) pixels (cell \(cell.width)x\(cell.height)) from TIOCGWINSZ"
            } else if let cell = detection.cellPixels {
                size += ", cell \(cell.width)x\(cell.height) pixels from CSI 16t"
            } else {
                let cell = WindowSize.assumedCellPixels
                size += ", pixel size unknown (cell \(cell.width)x\(cell.height) assumed)"
            }
            lines.append(size)
        } else {
            lines.append("size: not a terminal")
        }
        lines.append("terminal: \(detection.terminal)")
        var format =
            "format: \(detection.format.rawValue)"
            + (detection.format == .sixel ? " (\(detection.registers) colour registers)" : "")
        switch detection.route(for: detection.format) {
        case .direct: break
        case .passthrough: format += ", through tmux's passthrough"
        case .placeholders:
            format +=
                ", as Unicode placeholders (the upload through tmux's passthrough, on for this pane while it is sent)"
        }
        lines.append(format)
        lines.append("colours: \(detection.colors.rawValue)")
        lines.append("symbols: \(detection.symbols.rawValue)")
        Console.lines(lines)
    }
}

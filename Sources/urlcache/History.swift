import ArgumentParser
import FoundationEssentials
import URLCacheKit

/// `urlcache history`: the images an entry has kept, newest first.
struct History: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "List the images an entry has kept, newest first, with the path of each.",
        discussion:
            "Each entry keeps its last 7 distinct images (the list's keep, or fetch --keep); an unchanged check adds none."
    )

    @OptionGroup var list: ListOptions

    @OptionGroup var target: TargetOptions

    func run() throws {
        let (chosen, items) = try list.keptImages(target)
        guard !items.isEmpty else { throw Failure.failed("\(chosen.displayName): nothing cached yet") }
        for (offset, item) in items.enumerated() {
            var line = "\(offset + 1). \(UpdatedFormat.string(item.firstSeen))"
            if let title = item.metadata?.caption.title { line += "  \(title)" }
            if item.isCurrent { line += "  (current)" }
            Console.line(line)
            Console.line("   \(item.path)")
        }
    }
}

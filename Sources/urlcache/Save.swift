import ArgumentParser
import FoundationEssentials
import URLCacheKit

/// `urlcache save`: a copy of the cached image, out of the cache, into a
/// folder of the user's; prints its path.
struct Save: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "save",
        abstract: "Copy the cached image out of the cache and print the copy's path.",
        discussion: """
            The copy is named "YYYY-MM-DD Title.ext": the day the image was first seen, \
            its title, and its format's extension. An existing file is never overwritten \
            (the copy becomes "… (2)"); the same image saved twice is found, not copied \
            again. Clear Cache and eviction never touch saved copies.
            """
    )

    @OptionGroup var list: ListOptions

    @OptionGroup var target: TargetOptions

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "The kept image to save, numbered as `urlcache history` lists them (default 1, the current one).",
            valueName: "n"
        )
    )
    var history: Int?

    @Option(
        help: ArgumentHelp(
            "The folder to save into (default: urlcache/ in the pictures folder xdg-user-dir names, else ~/Pictures/urlcache).",
            valueName: "dir"
        )
    )
    var to: String?

    func validate() throws {
        if let history, history < 1 {
            throw ValidationError(
                "--history must be 1 or more: kept images are numbered from 1, as `urlcache history` shows"
            )
        }
        if let to, to.isEmpty { throw ValidationError("--to needs a folder") }
    }

    func run() throws {
        let (chosen, items) = try list.keptImages(target)
        let number = history ?? 1
        guard !items.isEmpty else {
            throw Failure.failed(SaveError.nothingCached(entry: chosen.displayName).description)
        }
        guard number <= items.count else {
            throw Failure.usage(
                "--history \(number): \(chosen.displayName) keeps \(items.count) image\(items.count == 1 ? "" : "s")"
            )
        }
        let folder = to ?? PicturesFolder.locate(environment: list.environment)
        do {
            let outcome = try SavedCopy.save(items[number - 1], of: chosen, to: folder)
            if case .alreadyThere = outcome { printError("urlcache: already saved; the same image is there") }
            Console.line(outcome.path)
        } catch {
            throw Failure.failed(error.description)
        }
    }
}

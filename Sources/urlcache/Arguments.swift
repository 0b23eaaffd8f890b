import ArgumentParser
import BlockArt

// Option values parsed into types once, where ArgumentParser reads them:
// a bad value is a usage error naming the option, and no command parses a
// string a second time.

extension SymbolSet: ExpressibleByArgument {}
extension Dither: ExpressibleByArgument {}

/// `--colors`: a colour mode, or auto (detected from the terminal).
enum ColorChoice: ExpressibleByArgument, Equatable {
    case auto
    case mode(ColorMode)

    init?(argument: String) {
        if argument == "auto" {
            self = .auto
        } else if let mode = ColorMode(rawValue: argument) {
            self = .mode(mode)
        } else {
            return nil
        }
    }

    /// The mode asked for; nil for auto.
    var requested: ColorMode? {
        if case let .mode(mode) = self { return mode }
        return nil
    }

    var defaultValueDescription: String { "auto" }
    static var allValueStrings: [String] { ["auto"] + ColorMode.allCases.map(\.rawValue) }
}

/// `--format`: a picture format, or auto (detected from the terminal).
/// chafa's `sixels` is taken for sixel.
enum FormatChoice: ExpressibleByArgument, Equatable {
    case auto
    case format(PictureFormat)

    init?(argument: String) {
        switch argument {
        case "auto": self = .auto
        case "sixels": self = .format(.sixel)
        default:
            guard let format = PictureFormat(rawValue: argument) else { return nil }
            self = .format(format)
        }
    }

    /// The format asked for; nil for auto.
    var requested: PictureFormat? {
        if case let .format(format) = self { return format }
        return nil
    }

    var defaultValueDescription: String { "auto" }
    static var allValueStrings: [String] { ["auto"] + PictureFormat.allCases.map(\.rawValue) }
}

/// `--background RRGGBB`.
extension RGB8: ExpressibleByArgument {
    public init?(argument: String) { self.init(hex: argument) }
    public var defaultValueDescription: String {
        [r, g, b].map { $0 < 16 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
    }
}

/// `--size COLSxROWS`, each 1 to 4096. BlockArt, which owns the type,
/// knows nothing of the command line.
extension CellSize: ExpressibleByArgument {
    public init?(argument: String) {
        let parts = argument.lowercased().split(separator: "x")
        guard parts.count == 2, let c = Int(parts[0]), let r = Int(parts[1]),
            (1...4096).contains(c), (1...4096).contains(r)
        else { return nil }
        self.init(columns: c, rows: r)
    }
}

/// A number of seconds; each option's `validate()` says which are allowed.
struct Seconds: ExpressibleByArgument {
    var value: Double

    init?(argument: String) {
        // The range is each option's own, checked in words by its validate().
        guard let value = Double(argument), value.isFinite else { return nil }
        self.value = value
    }
}

/// `--cell-aspect`: a cell's width over its height, 0.05–20.
struct CellAspect: ExpressibleByArgument {
    var value: Double

    init?(argument: String) {
        guard let value = Double(argument), value > 0.05, value < 20 else { return nil }
        self.value = value
    }
}

extension KittyMedium: ExpressibleByArgument {}

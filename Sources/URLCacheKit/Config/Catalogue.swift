import FoundationEssentials

/// A source a person can add to the list by its short name (`urlcache
/// sources`, `urlcache add NAME`): what variety, the GNOME picture-of-the-
/// day extensions and KDE's wallpaper plugin offer, in urlcache's terms.
public struct CatalogueSource: Sendable, Equatable {
    /// What it serves.
    public enum Kind: Sendable, Equatable {
        /// A new picture each day, named in a feed.
        case daily
        /// One image address, redrawn every few minutes (a satellite's or
        /// the Sun's latest).
        case live(minutes: Int)

        public var description: String {
            switch self {
            case .daily: return "a picture a day"
            case let .live(minutes): return "live, every \(minutes) min"
            }
        }
    }

    /// The short name `add` takes.
    public var name: String
    public var title: String
    public var kind: Kind
    /// The address, before the environment's part (`{market}`, `{key}`).
    public var address: String
    /// Where the picture is found in a feed; nil for an image address.
    public var feed: FeedSpec?
    /// The key it needs, and what a person should know of it.
    public var key: String?
    /// Its licence or terms, in a word or two.
    public var terms: String

    /// The list entry for it, with the environment's part filled in: Bing's
    /// market from the locale, NASA's key from `NASA_API_KEY`.
    public func entry(environment: [String: String]) -> URLEntry? {
        let filled =
            address
            .replacing("{market}", with: Catalogue.bingMarket(environment))
            .replacing("{key}", with: Catalogue.nasaKey(environment))
        return URL(string: filled).map { URLEntry(url: $0, title: title, feed: feed) }
    }
}

/// The built-in catalogue of sources, and the names it answers to.
public enum Catalogue {
    /// The sources, in the order `urlcache sources` lists them.
    public static let sources: [CatalogueSource] = days + live

    /// The source named `name` (any case), if there is one.
    public static func source(named name: String) -> CatalogueSource? {
        sources.first { $0.name == name.lowercased() }
    }

    /// Bing's market from the locale, as swsnr's GNOME "Picture of the Day"
    /// extension takes it: `LC_ALL`, else `LC_MESSAGES`, else `LANG`, cut
    /// at `.` and `@`, `_` as `-` (`de_AT.UTF-8` is `de-AT`). A locale that
    /// is no Bing market (C, POSIX) sends none: Bing then picks by address.
    static func bingMarket(_ environment: [String: String]) -> String {
        let locale = [environment["LC_ALL"], environment["LC_MESSAGES"], environment["LANG"]]
            .compactMap { $0 }.first { !$0.isEmpty }
        let tag = (locale ?? "").split(whereSeparator: { $0 == "." || $0 == "@" }).first
            .map { $0.replacing("_", with: "-") }
        guard let tag, let market = bingMarkets.first(where: { $0.lowercased() == tag.lowercased() }) else {
            return ""
        }
        return market
    }

    /// The markets Bing's image of the day is published in (the list of
    /// neffo's GNOME Bing wallpaper extension, utils.js).
    static let bingMarkets = [
        "ar-XA", "da-DK", "de-AT", "de-CH", "de-DE", "en-AU", "en-CA", "en-GB", "en-ID", "en-IE", "en-IN", "en-MY",
        "en-NZ", "en-PH", "en-SG", "en-US", "en-WW", "en-XA", "en-ZA", "es-AR", "es-CL", "es-ES", "es-MX", "es-US",
        "es-XL", "et-EE", "fi-FI", "fr-BE", "fr-CA", "fr-CH", "fr-FR", "he-IL", "hr-HR", "hu-HU", "it-IT", "ja-JP",
        "ko-KR", "lt-LT", "lv-LV", "nb-NO", "nl-BE", "nl-NL", "pl-PL", "pt-BR", "pt-PT", "ro-RO", "ru-RU", "sk-SK",
        "sl-SL", "sv-SE", "th-TH", "tr-TR", "uk-UA", "zh-CN", "zh-HK", "zh-TW",
    ]

    /// `NASA_API_KEY` when set, else NASA's shared `DEMO_KEY`.
    static func nasaKey(_ environment: [String: String]) -> String {
        let key = environment["NASA_API_KEY"] ?? ""
        // Letters, marks and numbers: what Foundation's `CharacterSet.alphanumerics` holds.
        let safe = key.unicodeScalars.allSatisfy {
            switch $0.properties.generalCategory {
            case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
                .nonspacingMark, .spacingMark, .enclosingMark, .decimalNumber, .letterNumber, .otherNumber:
                true
            default: false
            }
        }
        return !key.isEmpty && safe ? key : "DEMO_KEY"
    }
}

import BlockArt
import FoundationEssentials

/// Which of the sizes a document offers a check takes (`size` in the
/// list, `--fetch-size`): the largest, for a wallpaper hook; or the screen's,
/// the smallest that fills the picture area, which saves the bandwidth of
/// the rest over ssh and metered links.
public enum SizePolicy: String, Sendable, Equatable, CaseIterable {
    case largest
    case screen
}

/// What one check asks for.
public enum SizeAsk: Sendable, Equatable {
    /// The largest offered (`fetch`'s default).
    case largest
    /// The smallest offer that fills `area`, else the largest.
    case screen(PixelSize)
    /// The screen's default: `screen(area)` while the entry has no image,
    /// then `largest` without ever fetching a picture again for its size.
    case screenFirst(PixelSize)

    /// The ask for `policy` (nil: none was set), with `area` the picture's
    /// pixels when known (nil: no terminal, so the largest).
    public static func given(_ policy: SizePolicy?, area: PixelSize?, screenDefault: Bool) -> SizeAsk {
        guard let area, area.width > 0, area.height > 0 else { return .largest }
        switch policy {
        case .largest?: return .largest
        case .screen?: return .screen(area)
        case nil: return screenDefault ? .screenFirst(area) : .largest
        }
    }

    /// The ask for an entry that has (`hasCopy`) or has not an image yet.
    func settled(hasCopy: Bool) -> SizeAsk {
        if case let .screenFirst(area) = self { return hasCopy ? .largest : .screen(area) }
        return self
    }

    /// Whether a copy taken as `taken` says is what this ask would take,
    /// or better; nil `taken` (one size, or a record from before sizes)
    /// always is. `screenFirst` keeps whatever the entry has.
    func isServed(by taken: TakenSize?) -> Bool {
        guard let taken, !taken.largest else { return true }
        switch self {
        case .largest: return false
        case .screenFirst: return true
        case let .screen(area): return taken.offer.fills(area)
        }
    }

    /// The offer to take of `offers` (smallest first): the smallest that
    /// fills the area, else the largest.
    func pick(_ offers: [SizeOffer]) -> SizeOffer? {
        guard case let .screen(area) = self else { return offers.last }
        return offers.first { $0.fills(area) } ?? offers.last
    }
}

extension SizeOffer {
    /// Whether the picture, fitted into `area`, needs no enlarging: it is
    /// as wide, or as high, as the area. An unknown size never is known to.
    func fills(_ area: PixelSize) -> Bool {
        if let width, width >= area.width { return true }
        if let height, height >= area.height { return true }
        return false
    }
}

/// Which size a cached picture was taken at, kept in its record: what
/// `list` and the screen's `i` box show, and what tells a later check
/// whether the copy is the size it wants.
public struct TakenSize: Sendable, Equatable, Codable {
    /// The size taken, as declared (its URL is the record's image URL).
    public var width: Int?
    public var height: Int?
    /// How many sizes the document offered.
    public var offered: Int
    /// Whether it was the largest of them.
    public var largest: Bool
    /// The area it was taken for ("screen"); nil for the largest.
    public var area: String?

    /// It as an offer (for `fills`).
    var offer: SizeOffer { SizeOffer(url: URL(fileURLWithPath: "/"), width: width, height: height) }

    /// "1366x768 of 7 sizes, for a 1280x700 screen", "the largest of 7
    /// sizes (3840x2160)".
    public var summary: String {
        let size = offer.sizeText
        if largest { return "the largest of \(offered) sizes" + (size.map { " (\($0))" } ?? "") }
        let what = size ?? "a smaller size"
        return "\(what) of \(offered) sizes" + (area.map { ", for a \($0) screen" } ?? "")
    }

    /// What taking `offer` of `offers` (at least two) for `ask` was; nil
    /// when the document offered one size.
    static func taking(_ offer: SizeOffer, of offers: [SizeOffer], for ask: SizeAsk) -> TakenSize? {
        guard offers.count > 1 else { return nil }
        var area: String?
        if case let .screen(size) = ask { area = size.description }
        return TakenSize(
            width: offer.width,
            height: offer.height,
            offered: offers.count,
            largest: offer.url == offers.last?.url,
            area: area
        )
    }
}

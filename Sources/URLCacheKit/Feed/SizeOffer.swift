import FoundationEssentials
import URLCacheSupport

/// One size a document offers of the day's picture: Bing's `_UHD` and
/// `_1366x768`, a MediaWiki thumbnail step, a `srcset` candidate, APOD's
/// `url` beside its `hdurl`. Its size is what the document declares, or
/// what the address itself says; nil when neither tells.
public struct SizeOffer: Sendable, Equatable {
    public var url: URL
    public var width: Int?
    public var height: Int?

    public init(url: URL, width: Int? = nil, height: Int? = nil) {
        self.url = url
        self.width = width
        self.height = height
    }

    /// "1920x1080", "1920 wide", or nil when the size is not known.
    public var sizeText: String? {
        switch (width, height) {
        case let (w?, h?): return "\(w)x\(h)"
        case let (w?, nil): return "\(w) wide"
        case let (nil, h?): return "\(h) high"
        case (nil, nil): return nil
        }
    }

    /// The sizes offered of `media`'s picture, smallest first, one of each
    /// URL: those the document names (`offers`, first of equal URLs), the
    /// others its address's shape offers (`SizeVariants`), and the picture
    /// itself; empty when that is one. Offers of unknown size come first
    /// in the document's order (APOD's `url`, then its `hdurl`), then those
    /// of known size by it; the picture, when its size is unknown, last,
    /// since it is the largest the document names.
    static func offered(_ offers: [SizeOffer], picture media: FeedItem.Media) -> [SizeOffer] {
        guard case let .image(picture) = media else { return [] }
        let own = offers.first { $0.url == picture } ?? SizeOffer(url: picture)
        let variants = SizeVariants.of(
            ImageCandidate(url: picture.absoluteString, width: own.width, height: own.height)
        )
        .compactMap { variant in
            URL(string: variant.url).map { SizeOffer(url: $0, width: variant.width, height: variant.height) }
        }
        var seen = Set<String>()
        let unique = (offers + variants + [own]).filter { seen.insert($0.url.absoluteString).inserted }
        guard unique.count > 1 else { return [] }
        let ownSized = unique.first { $0.url == picture }?.area != nil
        let unknown = unique.filter { $0.area == nil && $0.url != picture }
        let known = unique.filter { $0.area != nil }.enumerated().sorted {
            ($0.element.area ?? 0, $0.offset) < ($1.element.area ?? 0, $1.offset)
        }
        return unknown + known.map(\.element) + (ownSized ? [] : [own])
    }

    /// The pixels it covers, for ordering: width × height, else the width
    /// squared, else nil.
    var area: Int? {
        if let width, let height { return width * height }
        return width.map { $0 * $0 } ?? height.map { $0 * $0 }
    }
}

/// An `<img>` as a reader takes it: the largest size it declares is the
/// picture; every size it offers goes with it.
struct ImageSizes {
    var picture: String
    var sizes: [ImageCandidate]

    /// Its `src` (the `width` and `height` it declares), each `srcset`
    /// candidate (a `w` width, or an `x` density times the declared
    /// width), heights scaled by the declared shape; then the other sizes
    /// its address's shape offers. nil when it names no picture.
    init?(img attributes: [String: String]) {
        let declared = ImageSizes.declared(attributes)
        guard let picture = ImageCandidate.largest(declared)?.url else { return nil }
        self.picture = picture
        sizes = declared
        // MediaWiki names the original's size: its other thumbnails up to it.
        let file = ImageCandidate(url: "", width: attributes["data-file-width"], height: attributes["data-file-height"])
        if let largest = ImageCandidate.largest(declared), let width = file.width, let height = file.height {
            sizes += SizeVariants.of(largest, file: (width, height))
        }
    }

    /// `picture`, and the sizes offered with it (none: the one).
    init(picture: String, sizes: [ImageCandidate] = []) {
        self.picture = picture
        self.sizes = sizes
    }

    private static func declared(_ attributes: [String: String]) -> [ImageCandidate] {
        let own = ImageCandidate(url: "", width: attributes["width"], height: attributes["height"])
        let aspect = own.width.flatMap { w in own.height.map { Double($0) / Double(w) } }
        var result: [ImageCandidate] = []
        if let src = attributes["src"]?.trimming(.whitespaces), !src.isEmpty {
            var offer = own
            offer.url = src
            result.append(offer)
        }
        for candidate in Srcset.candidates(attributes["srcset"] ?? "") {
            var offer = ImageCandidate(url: candidate.url)
            offer.width = (candidate.width ?? own.width.map { Double($0) * candidate.density }).map {
                Int($0.rounded())
            }
            if let width = offer.width, let aspect { offer.height = Int((Double(width) * aspect).rounded()) }
            // A density with no declared width still ranks by it (src is 1x).
            if offer.width == nil, candidate.density > 1 { offer.bytes = Int(candidate.density * 1000) }
            result.append(offer)
        }
        return result
    }
}

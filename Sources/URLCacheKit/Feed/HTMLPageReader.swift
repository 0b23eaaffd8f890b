import Foundation

/// A web page that announces its picture: `og:image`, else
/// `link rel=image_src`, else the largest picture its main content shows
/// (APOD's own `astropix.html` announces none); its title and description
/// from the same tags.
enum HTMLPageReader {
    static func read(_ bytes: [UInt8], feedURL: URL) throws(FeedError) -> FeedItem {
        var scanner = MarkupScanner(bytes)
        var meta: [String: String] = [:]
        var imageSource: String?
        var base: URL?
        var title: String?
        var inTitle = false
        var shown = ShownImages()
        while let event = scanner.next() {
            shown.take(event)
            switch event {
            case let .start("meta", attributes):
                guard let key = (attributes["property"] ?? attributes["name"])?.lowercased(),
                    let content = attributes["content"]
                else { continue }
                if meta[key] == nil { meta[key] = content }
            case let .start("link", attributes):
                let rels = (attributes["rel"] ?? "").lowercased().split(separator: " ")
                if rels.contains("image_src"), imageSource == nil, let href = attributes["href"] { imageSource = href }
            case let .start("base", attributes):
                if base == nil, let href = attributes["href"] {
                    base = URL(string: href, relativeTo: feedURL)?.absoluteURL
                }
            case .start("title", _):
                inTitle = title == nil
            case let .text(text) where inTitle:
                title = (title ?? "") + text
            case .end("title"):
                inTitle = false
            default: break
            }
        }
        let og = ["og:image", "og:image:url", "og:image:secure_url"].lazy.compactMap { meta[$0] }.first { !$0.isEmpty }
        guard let source = og ?? imageSource ?? shown.largest else { throw .pageWithoutImage }
        return FeedItem(
            media: .image(try FeedReader.imageURL(source, relativeTo: base ?? feedURL)),
            title: meta["og:title"] ?? title,
            credit: meta["author"] ?? meta["article:author"],
            description: (meta["og:description"] ?? meta["description"]).flatMap(FeedText.plain(html:)),
            link: meta["og:url"]
        )
    }
}

/// The pictures a page shows in its content, gathered tag by tag: each
/// `<img>` outside the page's header, navigation, footer and asides, by
/// the full-size file an `<a href>` around it names, else its largest
/// `srcset` candidate or `src`. Inside `<main>` or `<article>` when the page
/// has them.
struct ShownImages {
    /// Elements whose images are the site's, not the day's.
    static let chrome: Set<String> = ["header", "nav", "footer", "aside"]
    /// Smaller than this on a side (declared), an image is an icon.
    static let iconSide = 64

    private var images: [(candidate: ImageCandidate, inMain: Bool, linked: Bool)] = []
    private var links: [String?] = []
    private var chromeDepth = 0
    private var mainDepth = 0

    mutating func take(_ event: MarkupEvent) {
        switch event {
        case let .start("a", attributes):
            links.append(attributes["href"].flatMap { XMLFeedReader.looksLikeImage($0) ? $0 : nil })
        case .end("a"):
            _ = links.popLast()
        case let .start(name, _) where Self.chrome.contains(name):
            chromeDepth += 1
        case let .end(name) where Self.chrome.contains(name):
            chromeDepth = max(0, chromeDepth - 1)
        case .start("main", _), .start("article", _):
            mainDepth += 1
        case .end("main"), .end("article"):
            mainDepth = max(0, mainDepth - 1)
        case let .start("img", attributes) where chromeDepth == 0:
            add(attributes)
        default: break
        }
    }

    private mutating func add(_ attributes: [String: String]) {
        var candidate = ImageCandidate(url: "", width: attributes["width"], height: attributes["height"])
        if min(candidate.width ?? Int.max, candidate.height ?? Int.max) < Self.iconSide { return }
        let linked = links.last.flatMap { $0 }
        guard let source = linked ?? Srcset.largest(attributes["srcset"], src: attributes["src"]),
            !source.lowercased().hasPrefix("data:")
        else { return }
        candidate.url = source
        images.append((candidate, mainDepth > 0, linked != nil))
    }

    /// The main content's images (all when it is not marked), those an
    /// `<a>` links to full size first, then the largest declared; the
    /// first of equals.
    var largest: String? {
        let inMain = images.filter(\.inMain)
        let pool = inMain.isEmpty ? images : inMain
        let linked = pool.filter(\.linked)
        return ImageCandidate.largest((linked.isEmpty ? pool : linked).map(\.candidate))?.url
    }
}

import FoundationEssentials

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
        let announced = og ?? imageSource
        guard let source = announced ?? shown.largest else { throw .pageWithoutImage }
        // A picture the page only shows may have a heading of its own
        // (APOD's bold line beside it) where the page's title is the site's.
        let heading = announced == nil ? shown.heading(near: source, besides: title) : nil
        return FeedItem(
            media: .image(try FeedReader.imageURL(source, relativeTo: base ?? feedURL)),
            sizes: announced == nil ? FeedReader.offers(shown.sizes(of: source), relativeTo: base ?? feedURL) : [],
            title: meta["og:title"] ?? heading ?? title,
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

    /// Elements whose text is a heading: a picture's own title is one of
    /// these beside it.
    static let headings: Set<String> = ["h1", "h2", "h3", "h4", "b", "strong", "figcaption"]

    private var images: [(candidate: ImageCandidate, sizes: [ImageCandidate], inMain: Bool, linked: Bool, at: Int)] =
        []
    private var links: [String?] = []
    private var chromeDepth = 0
    private var mainDepth = 0
    /// The events seen: where each image and heading is.
    private var position = 0
    /// Headings read, and where they ended; the one being read.
    private var read: [(text: String, at: Int)] = []
    private var reading: (depth: Int, text: String)?

    mutating func take(_ event: MarkupEvent) {
        position += 1
        readHeading(event)
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
        let shown = ImageSizes(img: attributes)
        guard let source = linked ?? shown?.picture, !source.lowercased().hasPrefix("data:") else { return }
        candidate.url = source
        // The linked file is the full size; the `<img>`'s are smaller ones.
        let sizes = (linked.map { [ImageCandidate(url: $0)] } ?? []) + (shown?.sizes ?? [])
        images.append((candidate, sizes, mainDepth > 0, linked != nil, position))
    }

    /// The sizes offered of the picture at `url`.
    func sizes(of url: String) -> [ImageCandidate] {
        images.first { $0.candidate.url == url }?.sizes ?? []
    }

    private mutating func readHeading(_ event: MarkupEvent) {
        switch event {
        case let .start(name, _) where Self.headings.contains(name):
            reading = (reading?.depth ?? 0) + 1 == 1 ? (1, "") : reading.map { ($0.depth + 1, $0.text) }
        case let .text(text):
            reading?.text += text
        case let .end(name) where Self.headings.contains(name):
            guard let open = reading else { return }
            reading = open.depth > 1 ? (open.depth - 1, open.text) : nil
            let text = open.text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            if open.depth == 1, !text.isEmpty { read.append((text, position)) }
        default: break
        }
    }

    /// The heading nearest the picture at `url` (the last before it or the
    /// first after it, nearer first), when it names the picture: not a
    /// label ("Image Credit:"), not the page's `title`, not longer than a
    /// title is.
    func heading(near url: String, besides title: String?) -> String? {
        guard let at = images.first(where: { $0.candidate.url == url })?.at else { return nil }
        let site = title?.split(whereSeparator: \.isWhitespace).joined(separator: " ").lowercased()
        let names = read.filter { !$0.text.hasSuffix(":") && $0.text.lowercased() != site && $0.text.count <= 120 }
        let before = names.last { $0.at < at }
        let after = names.first { $0.at > at }
        let nearest = [before, after].compactMap { $0 }.min { abs($0.at - at) < abs($1.at - at) }
        return nearest?.text
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

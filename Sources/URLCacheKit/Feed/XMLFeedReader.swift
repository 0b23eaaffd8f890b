import FoundationEssentials
import URLCacheSupport

/// RSS 2.0, RSS 1.0, Atom and Bing's XML archive: the newest item's image
/// enclosure, else its largest `media:content`, else Bing's `<url>`, else
/// the first `<img>` of its HTML (its largest `srcset` candidate), else its
/// largest `media:thumbnail`.
enum XMLFeedReader {
    /// One item as read, before the image is chosen.
    struct Draft {
        var fields: [String: String] = [:]
        var enclosures: [(url: String, type: String)] = []
        var media: [ImageCandidate] = []
        var thumbnails: [ImageCandidate] = []
        var inlineImages: [ImageSizes] = []
        var link: String?
        /// Bing's `<images><image>`: the picture is the text of `<url>`.
        var isArchiveImage = false

        var date: Date? {
            for key in ["pubdate", "published", "updated", "dc:date"] {
                if let text = fields[key], let date = FeedDates.parse(text) { return date }
            }
            return nil
        }
    }

    /// The elements of an item whose text is kept.
    static let textFields: Set<String> = [
        "title", "link", "description", "content:encoded", "summary", "content", "pubdate",
        "published", "updated", "dc:date", "dc:creator", "media:credit", "copyright",
        "dc:rights", "name", "url", "headline", "copyrightlink",
    ]

    static func read(_ bytes: [UInt8], feedURL: URL) throws(FeedError) -> FeedItem {
        var scanner = MarkupScanner(bytes)
        var stack: [String] = []
        var feedTitle: String?
        var items: [Draft] = []
        var draft: Draft?
        var itemDepth = 0
        // The element whose text is being gathered, and the depth it opened at.
        var capture: (name: String, depth: Int, text: String)?
        while let event = scanner.next() {
            switch event {
            case let .start(name, attributes):
                let isArchiveImage = name == "image" && stack.last == "images"
                stack.append(name)
                if name == "item" || name == "entry" || isArchiveImage {
                    draft = Draft()
                    draft?.isArchiveImage = isArchiveImage
                    itemDepth = stack.count
                    capture = nil
                    continue
                }
                guard draft != nil else {
                    if name == "title", feedTitle == nil, capture == nil { capture = (name, stack.count, "") }
                    continue
                }
                take(name, attributes, into: &draft!)
                if capture == nil, textFields.contains(name), stack.count <= itemDepth + 2 {
                    capture = (name, stack.count, "")
                }
            case let .text(text):
                capture?.text += text
            case let .end(name):
                guard let index = stack.lastIndex(of: name) else { continue }
                let depth = index + 1
                if let open = capture, open.depth >= depth {
                    if draft == nil {
                        feedTitle = feedTitle ?? open.text
                    } else if draft!.fields[open.name] == nil {
                        draft!.fields[open.name] = open.text
                    }
                    capture = nil
                }
                stack.removeSubrange(index...)
                if let finished = draft, depth <= itemDepth {
                    items.append(finished)
                    draft = nil
                }
            }
        }
        if let unfinished = draft { items.append(unfinished) }
        guard !items.isEmpty else { throw .noItem(kind: bytes.isEmpty ? "feed" : "RSS/Atom feed") }
        return try item(items[pick(items.map(\.date))], feedTitle: feedTitle, feedURL: feedURL)
    }

    /// Which item is the day's. Items in date order, newest first or oldest
    /// first (Wikimedia's feed is oldest first), give the newest. Items out
    /// of date order were put in that order on purpose, by rank (a "top" or
    /// "hot" listing): the publisher's first is the pick, as it is when an
    /// item has no date.
    static func pick(_ dates: [Date?]) -> Int {
        let known = dates.compactMap { $0 }
        guard known.count == dates.count, let newest = known.indices.max(by: { known[$0] < known[$1] }) else {
            return 0
        }
        let pairs = zip(known, known.dropFirst())
        let ordered = pairs.allSatisfy { $0 >= $1 } || pairs.allSatisfy { $0 <= $1 }
        return ordered ? newest : 0
    }

    /// What a tag inside an item says by its attributes alone.
    private static func take(_ name: String, _ attributes: [String: String], into draft: inout Draft) {
        switch name {
        case "enclosure":
            if let url = attributes["url"] { draft.enclosures.append((url, attributes["type"] ?? "")) }
        case "link":
            // Atom: rel=enclosure is a picture's link; alternate (or none) the page.
            guard let href = attributes["href"] else { return }
            let rel = attributes["rel"] ?? "alternate"
            if rel == "enclosure" { draft.enclosures.append((href, attributes["type"] ?? "")) }
            if rel == "alternate", draft.link == nil { draft.link = href }
        case "media:content":
            guard let url = attributes["url"] else { return }
            let medium = (attributes["medium"] ?? "").lowercased()
            let type = (attributes["type"] ?? "").lowercased()
            let isImage =
                medium == "image" || type.hasPrefix("image/") || (medium.isEmpty && type.isEmpty && looksLikeImage(url))
            guard isImage else { return }
            draft.media.append(
                ImageCandidate(
                    url: url,
                    width: attributes["width"],
                    height: attributes["height"],
                    bytes: attributes["filesize"]
                )
            )
        case "media:thumbnail":
            guard let url = attributes["url"] else { return }
            draft.thumbnails.append(ImageCandidate(url: url, width: attributes["width"], height: attributes["height"]))
        case "img":
            if let image = ImageSizes(img: attributes) { draft.inlineImages.append(image) }
        default: break
        }
    }

    private static func item(_ draft: Draft, feedTitle: String?, feedURL: URL) throws(FeedError) -> FeedItem {
        let html =
            draft.fields["description"] ?? draft.fields["content:encoded"] ?? draft.fields["content"]
            ?? draft.fields["summary"]
        var source: ImageSizes?
        if let enclosure = draft.enclosures.first(where: {
            $0.type.lowercased().hasPrefix("image/") || ($0.type.isEmpty && looksLikeImage($0.url))
        }) {
            source = ImageSizes(picture: enclosure.url)
        } else if let largest = ImageCandidate.largest(draft.media) {
            source = ImageSizes(picture: largest.url, sizes: draft.media)
        } else if draft.isArchiveImage, let url = draft.fields["url"], !url.isEmpty {
            source = ImageSizes(picture: url)
        } else {
            source =
                [
                    draft.fields["content:encoded"], draft.fields["description"], draft.fields["content"],
                    draft.fields["summary"],
                ]
                .compactMap { $0 }.lazy.compactMap(FeedText.firstImage(html:)).first ?? draft.inlineImages.first
                ?? ImageCandidate.largest(draft.thumbnails).map { ImageSizes(picture: $0.url, sizes: draft.thumbnails) }
        }
        guard let source else { throw .itemWithoutImage }
        let link =
            draft.link
            ?? (draft.fields["link"] ?? draft.fields["copyrightlink"])?.trimming(.whitespacesAndNewlines)
        let credit = ["media:credit", "dc:creator", "name", "copyright", "dc:rights"].lazy.compactMap {
            draft.fields[$0]
        }
        .compactMap(FeedText.clean).first
        return FeedItem(
            media: .image(try FeedReader.imageURL(source.picture, relativeTo: feedURL)),
            sizes: FeedReader.offers(source.sizes, relativeTo: feedURL),
            title: (draft.fields["title"] ?? draft.fields["headline"]).flatMap(FeedText.plain(html:))
                ?? feedTitle.flatMap(FeedText.plain(html:)),
            credit: credit,
            description: html.flatMap(FeedText.plain(html:)),
            link: link.flatMap { $0.isEmpty ? nil : $0 }
        )
    }

    static func looksLikeImage(_ url: String) -> Bool {
        let path = url.lowercased().split(separator: "?").first.map(String.init) ?? ""
        return [".jpg", ".jpeg", ".png", ".gif", ".webp"].contains { path.hasSuffix($0) }
    }
}

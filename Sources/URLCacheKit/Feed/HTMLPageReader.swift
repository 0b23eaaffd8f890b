import Foundation

/// A web page that announces its picture: `og:image`, else
/// `link rel=image_src`; its title and description from the same tags.
enum HTMLPageReader {
    static func read(_ bytes: [UInt8], feedURL: URL) throws(FeedError) -> FeedItem {
        var scanner = MarkupScanner(bytes)
        var meta: [String: String] = [:]
        var imageSource: String?
        var base: URL?
        var title: String?
        var inTitle = false
        while let event = scanner.next() {
            switch event {
            case let .start("meta", attributes):
                guard let key = (attributes["property"] ?? attributes["name"])?.lowercased(), let content = attributes["content"] else { continue }
                if meta[key] == nil { meta[key] = content }
            case let .start("link", attributes):
                let rels = (attributes["rel"] ?? "").lowercased().split(separator: " ")
                if rels.contains("image_src"), imageSource == nil, let href = attributes["href"] { imageSource = href }
            case let .start("base", attributes):
                if base == nil, let href = attributes["href"] { base = URL(string: href, relativeTo: feedURL)?.absoluteURL }
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
        guard let source = og ?? imageSource else { throw .pageWithoutImage }
        return FeedItem(media: .image(try FeedReader.imageURL(source, relativeTo: base ?? feedURL)),
                        title: meta["og:title"] ?? title,
                        credit: meta["author"] ?? meta["article:author"],
                        description: (meta["og:description"] ?? meta["description"]).flatMap(FeedText.plain(html:)),
                        link: meta["og:url"])
    }
}

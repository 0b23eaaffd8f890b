import Foundation

/// A JSON feed (APOD's API, Bing's HPImageArchive): the image URL at a
/// dotted key path, the words beside it in the same object.
enum JSONFeedReader {
    /// Tried in turn when the list gives no `select`.
    static let defaultPaths = ["hdurl", "url", "image", "images.0.url"]

    static func read(_ bytes: [UInt8], select: String?, feedURL: URL) throws(FeedError) -> FeedItem {
        let root: Any
        do { root = try JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed]) } catch {
            throw .badJSON
        }
        let paths = select.map { [$0] } ?? defaultPaths
        var found: (text: String, container: [String: Any])?
        for path in paths {
            switch lookup(path, in: root) {
            case let .string(text, container):
                found = (text, container)
            case .missing where select == nil:
                continue
            case .missing:
                throw .missingKey(path: path)
            case let .other(what):
                throw .notAString(path: path, found: what)
            }
            break
        }
        guard let found else { throw .missingKey(path: paths.joined(separator: ", ")) }
        let object = found.container
        func string(_ key: String) -> String? { (object[key] as? String).flatMap(FeedText.clean) }
        let topTitle = (root as? [String: Any]).flatMap { $0["title"] as? String }
        var item = FeedItem(media: .other(kind: "", link: nil),
                            title: string("title") ?? topTitle,
                            credit: string("copyright") ?? string("credit") ?? string("author"),
                            description: (object["explanation"] as? String ?? object["description"] as? String).flatMap(FeedText.plain(html:)),
                            link: string("copyrightlink") ?? string("link"))
        // APOD's video days: the URL is a video player's, not a picture.
        if let type = string("media_type"), type.lowercased() != "image" {
            item.media = .other(kind: type, link: string("url") ?? found.text)
            return item
        }
        item.media = .image(try FeedReader.imageURL(found.text, relativeTo: feedURL))
        return item
    }

    enum Found {
        case string(String, container: [String: Any])
        case missing
        case other(String)
    }

    /// Follows `path` ("images.0.url": a key, an array index, a key).
    static func lookup(_ path: String, in root: Any) -> Found {
        var value: Any = root
        var container: [String: Any] = [:]
        for part in path.split(separator: ".", omittingEmptySubsequences: false) {
            if let dict = value as? [String: Any] {
                guard let next = dict[String(part)] else { return .missing }
                container = dict
                value = next
            } else if let array = value as? [Any], let index = Int(part), index >= 0 {
                guard index < array.count else { return .missing }
                value = array[index]
            } else {
                return .missing
            }
        }
        if let text = value as? String { return .string(text, container: container) }
        return .other(describe(value))
    }

    static func describe(_ value: Any) -> String {
        switch value {
        case is NSNull: return "null"
        case is NSNumber: return "a number"
        case is [Any]: return "an array"
        case is [String: Any]: return "an object"
        default: return "a \(type(of: value))"
        }
    }
}

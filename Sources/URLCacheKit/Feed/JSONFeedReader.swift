import FoundationEssentials

/// A JSON feed (APOD's API, Bing's HPImageArchive, Flickr's JSONP): the
/// image URL at a dotted key path, the words beside it in the same object.
enum JSONFeedReader {
    /// Tried in turn when the list gives no `select`.
    static let defaultPaths = ["hdurl", "url", "image", "images.0.url"]

    static func read(_ bytes: [UInt8], select: String?, feedURL: URL) throws(FeedError) -> FeedItem {
        let root: Any
        let text = JSONText.unwrapped(bytes)
        let depth = JSONText.nesting(text)
        guard depth <= JSONText.maxNesting else { throw .nestedTooDeep(depth: depth, limit: JSONText.maxNesting) }
        do { root = try AnyTree.json(Data(text)) } catch {
            throw .badJSON
        }
        // APOD's start_date and count forms answer an array of days, oldest
        // first: without a path that indexes it, today is the newest day.
        let day = select?.split(separator: ".").first.flatMap { Int($0) } == nil ? newestDay(in: root) : root
        if select == nil, let object = day as? [String: Any], let kind = object["media_type"] as? String,
            kind.lowercased() != "image"
        {
            return try notAnImage(object, kind: kind, root: root, feedURL: feedURL)
        }
        let paths = select.map { [$0] } ?? defaultPaths
        var found: (text: String, containers: [[String: Any]])?
        for path in paths {
            switch lookup(path, in: day) {
            case let .string(text, containers):
                found = (text, containers)
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
        // APOD's video days: the URL is a video player's, not a picture.
        if let object = found.containers.first, let kind = object["media_type"] as? String, kind.lowercased() != "image"
        {
            return try notAnImage(object, kind: kind, root: root, feedURL: feedURL)
        }
        var item = words(in: found.containers)
        item.media = .image(try FeedReader.imageURL(found.text, relativeTo: feedURL))
        // APOD's `url` is the same picture, smaller than its `hdurl`.
        if select == nil, let day = found.containers.first, day["hdurl"] as? String == found.text,
            let smaller = day["url"] as? String
        {
            item.sizes = FeedReader.offers(
                [ImageCandidate(url: smaller), ImageCandidate(url: found.text)],
                relativeTo: feedURL
            )
        }
        return item
    }

    /// A day that is no picture: its still (`thumbnail_url`, which APOD
    /// sends with `thumbs=true`) when it has one, else only its kind and link.
    private static func notAnImage(
        _ object: [String: Any],
        kind: String,
        root: Any,
        feedURL: URL
    ) throws(FeedError) -> FeedItem {
        var item = words(in: [object] + [root].compactMap { $0 as? [String: Any] })
        let link = (object["url"] as? String).flatMap(FeedText.clean)
        if let still = (object["thumbnail_url"] as? String).flatMap(FeedText.clean) {
            item.media = .still(try FeedReader.imageURL(still, relativeTo: feedURL), kind: kind, link: link)
        } else {
            item.media = .other(kind: kind, link: link)
        }
        return item
    }

    /// The title, credit, description and link nearest the image URL:
    /// each from the innermost object on the path that has it (Flickr's
    /// `items.0.media.m` finds its words in `items.0`).
    private static func words(in containers: [[String: Any]]) -> FeedItem {
        func string(_ key: String) -> String? {
            containers.lazy.compactMap { ($0[key] as? String).flatMap(FeedText.clean) }.first
        }
        func html(_ key: String) -> String? {
            containers.lazy.compactMap { ($0[key] as? String).flatMap(FeedText.plain(html:)) }.first
        }
        return FeedItem(
            media: .other(kind: "", link: nil),
            title: string("title"),
            credit: string("copyright") ?? string("credit") ?? string("author"),
            description: html("explanation") ?? html("description"),
            link: string("copyrightlink") ?? string("link")
        )
    }

    /// The newest element of an array of days, by its `date` when every
    /// element has one that reads, else the last; any other root as it is.
    static func newestDay(in root: Any) -> Any {
        guard let days = root as? [Any], let last = days.last else { return root }
        let dates = days.map { (($0 as? [String: Any])?["date"] as? String).flatMap(FeedDates.parse) }
        guard dates.allSatisfy({ $0 != nil }) else { return last }
        // The last of equal dates: the array runs oldest first.
        return days[dates.indices.max { (dates[$0]!, $0) < (dates[$1]!, $1) } ?? days.count - 1]
    }

    enum Found {
        /// The string, and the objects on its path, innermost first.
        case string(String, containers: [[String: Any]])
        case missing
        case other(String)
    }

    /// Follows `path` ("images.0.url": a key, an array index, a key; "-1"
    /// counts from an array's end).
    static func lookup(_ path: String, in root: Any) -> Found {
        var value: Any = root
        var containers: [[String: Any]] = []
        for part in path.split(separator: ".", omittingEmptySubsequences: false) {
            if let dict = value as? [String: Any] {
                guard let next = dict[String(part)] else { return .missing }
                containers.insert(dict, at: 0)
                value = next
            } else if let array = value as? [Any], let index = Int(part) {
                let position = index < 0 ? array.count + index : index
                guard array.indices.contains(position) else { return .missing }
                value = array[position]
            } else {
                return .missing
            }
        }
        if let text = value as? String { return .string(text, containers: containers) }
        return .other(describe(value))
    }

    static func describe(_ value: Any) -> String {
        switch value {
        case is AnyTree.Null: return "null"
        case is Bool, is Int, is Double: return "a number"
        case is [Any]: return "an array"
        case is [String: Any]: return "an object"
        default: return "a \(type(of: value))"
        }
    }
}

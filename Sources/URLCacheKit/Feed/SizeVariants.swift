import FoundationEssentials

/// Addresses that say their picture's size, and the other sizes the same
/// server makes of it: one table, one row per shape. A document that
/// names one size of such a picture offers them all.
enum SizeVariants {
    /// Bing's archive (`/th?id=OHR.Name_EN-US123_1920x1080.jpg`): the
    /// sizes of the whole picture, largest first (`UHD` is 3840x2160). Its
    /// 4:3 and portrait sizes (1024x768, 1080x1920) are crops, so another
    /// picture: they are not offered.
    static let bingSizes: [(token: String, width: Int, height: Int)] = [
        ("UHD", 3840, 2160), ("1920x1080", 1920, 1080), ("1366x768", 1366, 768), ("1280x720", 1280, 720),
    ]

    /// MediaWiki's thumbnail steps in Wikimedia production
    /// (`$wgThumbnailSteps`; mediawiki.org, "Common thumbnail sizes"): a
    /// width off the steps is served as the next step up, so only these
    /// are asked. Those under 250 are icons here.
    static let mediaWikiSteps = [250, 330, 500, 960, 1280, 1920, 3840]

    /// The other sizes of `candidate`'s picture, by its address's shape.
    /// `file`: the original's size when the document gives it (MediaWiki's
    /// `data-file-width`); a thumbnail is never asked wider than it, nor,
    /// without it, wider than `candidate` itself.
    static func of(_ candidate: ImageCandidate, file: (width: Int, height: Int)? = nil) -> [ImageCandidate] {
        guard var parts = URLComponents(string: candidate.url) else { return [] }
        if let bing = bing(&parts) { return bing }
        return mediaWiki(parts, candidate, file: file)
    }

    private static func bing(_ parts: inout URLComponents) -> [ImageCandidate]? {
        guard parts.path == "/th", var items = parts.queryItems,
            let at = items.firstIndex(where: { $0.name == "id" }), let id = items[at].value,
            // Bing resizes to `w` and `h` itself: such an address is one size.
            !items.contains(where: { $0.name == "w" || $0.name == "h" })
        else { return nil }
        guard let size = bingSizes.first(where: { id.contains("_\($0.token).") }) else { return nil }
        return bingSizes.compactMap { other in
            items[at].value = id.replacing("_\(size.token).", with: "_\(other.token).")
            parts.queryItems = items
            return parts.string.map { ImageCandidate(url: $0, width: other.width, height: other.height) }
        }
    }

    /// `…/thumb/a/ab/Name.jpg/1280px-Name.jpg`: the same path with another
    /// step's width.
    private static func mediaWiki(
        _ parts: URLComponents,
        _ candidate: ImageCandidate,
        file: (width: Int, height: Int)?
    ) -> [ImageCandidate] {
        let segments = parts.percentEncodedPath.split(separator: "/", omittingEmptySubsequences: false)
        guard segments.count >= 3, segments.contains("thumb"), let last = segments.last,
            let dash = last.firstIndex(of: "-"), last[..<dash].hasSuffix("px"),
            let own = Int(last[..<dash].dropLast(2)), own > 0,
            last[last.index(after: dash)...] == segments[segments.count - 2]
        else { return [] }
        let name = last[last.index(after: dash)...]
        let limit = file?.width ?? max(own, candidate.width ?? 0)
        let aspect =
            file.map { Double($0.height) / Double($0.width) }
            ?? candidate.height.map { Double($0) / Double(candidate.width ?? own) }
        let stem = segments.dropLast().joined(separator: "/")
        // The address itself says its width.
        let widths = [own] + mediaWikiSteps.filter { $0 <= limit && $0 != own }
        return widths.compactMap { width in
            var other = parts
            other.percentEncodedPath = "\(stem)/\(width)px-\(name)"
            guard let url = other.string else { return nil }
            return ImageCandidate(url: url, width: width, height: aspect.map { Int((Double(width) * $0).rounded()) })
        }
    }
}

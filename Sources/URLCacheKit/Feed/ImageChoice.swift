import FoundationEssentials
import URLCacheSupport

/// One picture a feed or page offers, with the size it declares.
struct ImageCandidate: Equatable {
    var url: String
    var width: Int?
    var height: Int?
    /// `media:content`'s `fileSize`, when given.
    var bytes: Int?

    init(url: String, width: String? = nil, height: String? = nil, bytes: String? = nil) {
        self.url = url
        self.width = width.flatMap(ImageCandidate.dimension)
        self.height = height.flatMap(ImageCandidate.dimension)
        self.bytes = bytes.flatMap { Int($0.trimming(.whitespaces)) }
    }

    init(url: String, width: Int?, height: Int?) {
        self.url = url
        self.width = width
        self.height = height
    }

    /// "1600", "1600px": a positive count of pixels.
    private static func dimension(_ text: String) -> Int? {
        let digits = text.trimming(.whitespaces).prefix { $0.isASCII && $0.isNumber }
        return Int(digits).flatMap { $0 > 0 ? $0 : nil }
    }

    /// Whether `self` is smaller than `other`: by width × height when both
    /// declare both, else by whichever dimension both declare, else by the
    /// bytes; a candidate that declares a size beats one that declares none.
    /// (Two entries with only a width multiplied to 0 and the smaller won.)
    func isSmaller(than other: ImageCandidate) -> Bool {
        if let w1 = width, let h1 = height, let w2 = other.width, let h2 = other.height { return w1 * h1 < w2 * h2 }
        if let a = width, let b = other.width, a != b { return a < b }
        if let a = height, let b = other.height, a != b { return a < b }
        let declares = (width ?? height) != nil
        let otherDeclares = (other.width ?? other.height) != nil
        if declares != otherDeclares { return otherDeclares }
        return (bytes ?? 0) < (other.bytes ?? 0)
    }

    /// The largest of `candidates`; the first of equals.
    static func largest(_ candidates: [ImageCandidate]) -> ImageCandidate? {
        candidates.reduce(nil) { best, next in
            guard let best else { return next }
            return best.isSmaller(than: next) ? next : best
        }
    }
}

/// An `<img>`'s `srcset` (HTML's responsive images): "a.jpg 320w,
/// b.jpg 640w" or "a.jpg, b.jpg 2x". Wikipedia's picture of the day puts
/// its larger files there and a small one in `src`.
enum Srcset {
    /// Each candidate: a URL (no spaces; trailing commas end it), then its
    /// descriptor up to the next comma.
    static func candidates(_ text: String) -> [(url: String, width: Double?, density: Double)] {
        var result: [(String, Double?, Double)] = []
        var rest = Substring(text)
        while true {
            rest = rest.drop { $0.isWhitespace || $0 == "," }
            guard !rest.isEmpty else { break }
            var url = rest.prefix { !$0.isWhitespace }
            rest = rest.dropFirst(url.count)
            var descriptor = Substring("")
            if url.hasSuffix(",") {
                url = Substring(url.reversed().drop { $0 == "," }.reversed())
            } else {
                descriptor = rest.prefix { $0 != "," }
                rest = rest.dropFirst(descriptor.count)
            }
            var width: Double?
            var density = 1.0
            for word in descriptor.split(whereSeparator: \.isWhitespace) {
                if word.hasSuffix("w"), let w = Double(word.dropLast()) { width = w }
                if word.hasSuffix("x"), let x = Double(word.dropLast()) { density = x }
            }
            if !url.isEmpty { result.append((String(url), width, density)) }
        }
        return result
    }
}

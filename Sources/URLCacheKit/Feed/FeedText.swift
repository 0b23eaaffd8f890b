import Foundation

/// The words of a feed as plain text: tags stripped, entities decoded,
/// whitespace folded, length bounded. Terminal safety comes later, where
/// the text is shown.
enum FeedText {
    /// Longest description kept, in characters.
    static let maxLength = 4000

    /// Whitespace folded to single spaces; nil when nothing is left.
    static func clean(_ text: String) -> String? {
        let folded = text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
        guard !folded.isEmpty else { return nil }
        return folded.count > maxLength ? String(folded.prefix(maxLength)) + "…" : folded
    }

    /// The text of an HTML fragment, paragraphs kept as blank lines.
    static func plain(html: String) -> String? {
        var scanner = MarkupScanner(Array(html.utf8))
        var paragraphs: [String] = []
        var current = ""
        func breakParagraph() {
            if let text = clean(current) { paragraphs.append(text) }
            current = ""
        }
        while let event = scanner.next() {
            switch event {
            case let .text(text): current += text
            case let .start(name, _) where ["p", "br", "div", "li", "h1", "h2", "h3", "tr"].contains(name): breakParagraph()
            case let .end(name) where ["p", "div", "li", "h1", "h2", "h3", "tr"].contains(name): breakParagraph()
            default: break
            }
        }
        breakParagraph()
        let joined = paragraphs.joined(separator: "\n\n")
        guard !joined.isEmpty else { return nil }
        return joined.count > maxLength ? String(joined.prefix(maxLength)) + "…" : joined
    }

    /// The first `<img>` of an HTML fragment: its largest `srcset`
    /// candidate, else its `src`.
    static func firstImage(html: String) -> String? {
        var scanner = MarkupScanner(Array(html.utf8))
        while let event = scanner.next() {
            if case let .start("img", attributes) = event, let source = Srcset.largest(attributes["srcset"], src: attributes["src"]) {
                return source
            }
        }
        return nil
    }
}

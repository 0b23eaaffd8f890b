import FoundationEssentials

/// The words of a feed as plain text: tags stripped, entities decoded,
/// whitespace folded, length bounded. Terminal safety comes later, where
/// the text is shown.
enum FeedText {
    /// Longest description kept, in characters.
    static let maxLength = 4000

    /// At most `maxLength` characters, "…" where it was cut.
    private static func bounded(_ text: String) -> String {
        text.count > maxLength ? String(text.prefix(maxLength)) + "…" : text
    }

    /// Whitespace folded to single spaces; nil when nothing is left.
    static func clean(_ text: String) -> String? {
        let folded = text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
        guard !folded.isEmpty else { return nil }
        return bounded(folded)
    }

    /// The text of an HTML fragment, paragraphs kept as blank lines.
    static func plain(html: String) -> String? {
        var scanner = MarkupScanner(Array(html.utf8))
        var paragraphs: [String] = []
        var current = ""
        var sawTag = false
        func breakParagraph() {
            if let text = clean(current) { paragraphs.append(text) }
            current = ""
        }
        while let event = scanner.next() {
            if case let .text(text) = event {
                current += text
                continue
            }
            sawTag = true
            switch event {
            case let .start(name, _) where ["p", "br", "div", "li", "h1", "h2", "h3", "tr"].contains(name):
                breakParagraph()
            case let .end(name) where ["p", "div", "li", "h1", "h2", "h3", "tr"].contains(name): breakParagraph()
            default: break
            }
        }
        // Plain text, with no tag at all: its own line breaks are its layout.
        if !sawTag { return lines(current) }
        breakParagraph()
        let joined = paragraphs.joined(separator: "\n\n")
        guard !joined.isEmpty else { return nil }
        return bounded(joined)
    }

    /// Plain text with its line breaks kept: each line folded, runs of
    /// blank lines made one.
    static func lines(_ text: String) -> String? {
        var out: [String] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let folded = clean(String(line)) ?? ""
            if folded.isEmpty, out.last?.isEmpty ?? true { continue }
            out.append(folded)
        }
        while out.last?.isEmpty == true { out.removeLast() }
        let joined = out.joined(separator: "\n")
        guard !joined.isEmpty else { return nil }
        return bounded(joined)
    }

    /// The sizes of the first `<img>` of an HTML fragment that has any
    /// (its `src` and `srcset`): the largest declared is the picture.
    static func firstImage(html: String) -> ImageSizes? {
        var scanner = MarkupScanner(Array(html.utf8))
        while let event = scanner.next() {
            if case let .start("img", attributes) = event, let image = ImageSizes(img: attributes) { return image }
        }
        return nil
    }
}

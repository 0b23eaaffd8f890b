/// The scalars a trim removes from the ends of a string.
///
/// These are Foundation's `CharacterSet.whitespaces` and
/// `.whitespacesAndNewlines`, defined from the Unicode properties they are
/// made of, so that trimming needs no swift-corelibs-foundation (see
/// `DetachedThread` for why the program does without it).
package struct TrimmedScalars: Sendable {
    private let contains: @Sendable (Unicode.Scalar) -> Bool

    private init(_ contains: @escaping @Sendable (Unicode.Scalar) -> Bool) { self.contains = contains }

    /// Tab and the space separators (general category Zs), and U+200B
    /// ZERO WIDTH SPACE, which Unicode took out of Zs in 4.0.1 and
    /// CoreFoundation's set keeps.
    package static let whitespaces = TrimmedScalars {
        $0 == "\t" || $0 == "\u{200B}" || $0.properties.generalCategory == .spaceSeparator
    }

    /// Unicode's White_Space (categories Z*, U+000A–U+000D, U+0085 and
    /// tab), and U+200B as above.
    package static let whitespacesAndNewlines = TrimmedScalars { $0 == "\u{200B}" || $0.properties.isWhitespace }

    /// Exactly the scalars of `text`.
    package static func scalars(_ text: String) -> TrimmedScalars {
        let set = Set(text.unicodeScalars)
        return TrimmedScalars { set.contains($0) }
    }

    /// The scalars of either.
    package func union(_ other: TrimmedScalars) -> TrimmedScalars {
        TrimmedScalars { [self] in contains($0) || other.contains($0) }
    }

    /// Whether a trim removes `scalar`.
    package func callAsFunction(_ scalar: Unicode.Scalar) -> Bool { contains(scalar) }
}

extension StringProtocol {
    /// The string without the scalars of `set` at either end.
    package func trimming(_ set: TrimmedScalars) -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !set($0) }) else { return "" }
        // A scalar outside `set` exists, so `lastIndex` finds one too.
        let last = scalars.lastIndex(where: { !set($0) }) ?? first
        var result = String.UnicodeScalarView()
        result.append(contentsOf: scalars[first...last])
        return String(result)
    }
}

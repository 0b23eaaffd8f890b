/// The status line: what it says, and whether that is what went wrong
/// (drawn bold). One value, so the two never go out of step.
public struct StatusLine: Equatable, Sendable {
    public var text: String
    public var isError: Bool

    public init(text: String, isError: Bool) {
        self.text = text
        self.isError = isError
    }

    /// Nothing said.
    public static let empty = StatusLine(text: "", isError: false)

    /// A report, not a failure.
    public static func info(_ text: String) -> StatusLine { StatusLine(text: text, isError: false) }

    /// What went wrong.
    public static func error(_ text: String) -> StatusLine { StatusLine(text: text, isError: true) }
}

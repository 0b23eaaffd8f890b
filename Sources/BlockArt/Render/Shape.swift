/// A glyph and the sub-cells it paints in the foreground colour.
struct Shape: Sendable {
    let mask: UInt16
    let glyph: Unicode.Scalar
    /// The glyph painting the other sub-cells, for monochrome output where
    /// the colours cannot be swapped.
    let complement: Unicode.Scalar
}

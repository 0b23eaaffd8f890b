/// A glyph and the sub-cells it paints in the foreground colour.
struct Shape: Sendable {
    /// Bit k: sub-cell k, row-major on the symbol set's grid (up to 8×8).
    let mask: UInt64
    let glyph: Unicode.Scalar
    /// The glyph painting the other sub-cells, for monochrome output where
    /// the colours cannot be swapped; nil where Unicode has none.
    let complement: Unicode.Scalar?
}

/// How palette modes spread the quantisation error.
public enum Dither: String, Sendable, CaseIterable {
    case none
    /// A 4×4 Bayer pattern over the cells.
    case ordered
    /// Floyd–Steinberg error diffusion from cell to cell.
    case diffusion
}

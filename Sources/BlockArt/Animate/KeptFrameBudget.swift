/// The memory an animation's kept frames may take, in bytes, wherever
/// they are kept: the decoded frames of the screen's player, the art and
/// pictures made of them, and `render --animate`'s ready frames. 64 MiB:
/// a loop of 120 frames of 320×176 takes 20 MB as sRGB bytes.
public enum KeptFrameBudget {
    public static let bytes = 64 << 20
}

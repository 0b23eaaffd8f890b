import FoundationEssentials

/// The picture the binary carries for the built-in list's first image
/// (`Scripts/make-bundled-image`: the Earth from GOES-East, rendered from
/// NASA's public-domain Blue Marble), so that the very first launch shows a
/// picture at once, offline too. The screen labels it as bundled until the
/// real image is downloaded; it is never written to the cache, and the
/// commands never show it.
public enum BundledImage {
    /// The status line while it is on screen.
    public static let statusLine = "Bundled image (not yet downloaded)"

    /// The JPEG's bytes, when the binary carries a picture for `url`.
    public static func bytes(for url: URL) -> [UInt8]? {
        url == firstBuiltInURL ? PackageResources.BundledImage_jpg : nil
    }

    /// The URL the picture stands in for: the built-in list's first entry.
    static let firstBuiltInURL: URL? = try? ConfigLocator.builtIn().entries.first?.url
}

import Foundation

/// Where the package, its fixtures and its test servers are, for every test
/// target (found from this file's place in the package).
public enum Fixtures {
    /// The package's root directory.
    public static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    /// Tests/Fixtures.
    public static let root = packageRoot.appendingPathComponent("Tests/Fixtures")
    /// The PNG conformance suite, with expected.tsv.
    public static let pngsuite = root.appendingPathComponent("pngsuite")
    /// JPEG variants: progressive, gray, CMYK, YCCK, EXIF orientations, damaged.
    public static let jpeg = root.appendingPathComponent("jpeg")
    /// GIF, WebP and AVIF stills and animations, each with the PNG its
    /// format's own tools decode it to (make-formats.py).
    public static let formats = root.appendingPathComponent("formats")
    /// TIFF variants of one 48×32 picture (made with Pillow and tiffcp):
    /// one strip, LZW, strips of 5 rows, tiles, BigTIFF, grey 8 and 16, palette, CMYK, RGBA
    /// (its right half transparent), and two pages.
    public static let tiff = root.appendingPathComponent("tiff")
    /// One photo in sRGB, and its colours in Adobe RGB and ProPhoto RGB
    /// with profiles that say so (make-icc.py).
    public static let icc = root.appendingPathComponent("icc")
    /// SVG documents written for the tests, hostile ones among them (SOURCES.md).
    public static let svg = root.appendingPathComponent("svg")
    /// Images the servers hand out, and hostile files.
    public static let images = root.appendingPathComponent("images")
    /// Feeds shaped like APOD's and Bing's JSON, RSS with media:content,
    /// Wikimedia Commons' RSS, Atom and a page with og:image, written from
    /// their documented shapes; `{{BASE}}` stands for the test server.
    public static let feeds = root.appendingPathComponent("feeds")
    /// Cache records (`.meta`) as the cache writes them: fuzz seeds.
    public static let cache = root.appendingPathComponent("cache")
    /// Inputs the fuzzer found, replayed as regression tests.
    public static let fuzz = root.appendingPathComponent("fuzz")
    /// The scripted misbehaving server.
    public static let servers = packageRoot.appendingPathComponent("Tests/Servers")
    /// Resources/ (the default URL list).
    public static let resources = packageRoot.appendingPathComponent("Resources")
}

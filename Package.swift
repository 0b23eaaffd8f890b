// swift-tools-version:6.0
import PackageDescription

// URL list -> controller (policy) -> HTTP transport + disk cache -> decoder
// -> downscaler -> renderer -> cell grid -> screen or ANSI writer.
// docs/ARCHITECTURE.md describes each target. Linux only: the screen, the
// cache and the decoders call Glibc directly.
let package = Package(
    name: "urlcache",
    products: [
        .executable(name: "urlcache", targets: ["urlcache"]),
        .library(name: "URLCacheKit", targets: ["URLCacheKit"]),
        .library(name: "BlockArt", targets: ["BlockArt"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0")
    ],
    targets: [
        // C libraries, each behind a system-library target whose header holds
        // the typed wrappers Swift needs (variadic calls, macros).
        // libcurl's headers only: CCurlLoader opens the library on first use.
        .systemLibrary(name: "CCurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        .systemLibrary(
            name: "CPNG",
            pkgConfig: "libpng",
            providers: [.apt(["libpng-dev"])]
        ),
        .systemLibrary(
            name: "CJPEG",
            pkgConfig: "libjpeg",
            providers: [.apt(["libjpeg-dev"])]
        ),
        .systemLibrary(name: "CGIF", providers: [.apt(["libgif-dev"])]),
        .systemLibrary(name: "CWebP", providers: [.apt(["libwebp-dev"])]),
        .systemLibrary(name: "CAVIF", providers: [.apt(["libavif-dev"])]),
        .systemLibrary(name: "CHEIF", providers: [.apt(["libheif-dev"])]),
        .systemLibrary(name: "CJXL", providers: [.apt(["libjxl-dev"])]),
        .systemLibrary(name: "CTIFF", providers: [.apt(["libtiff-dev"])]),
        .systemLibrary(
            name: "CNCurses",
            pkgConfig: "ncursesw",
            providers: [.apt(["libncurses-dev"])]
        ),
        // setjmp/longjmp must never cross Swift frames: the decode steps that
        // libpng and libjpeg may longjmp out of live in C.
        .target(
            name: "CImageShim",
            dependencies: ["CPNG", "CJPEG", "CGIF", "CWebP", "CAVIF", "CHEIF", "CJXL", "CTIFF"],
            // The C files include these headers rather than importing the
            // modules, so the modules' link lines are named here.
            // libavif, libheif, libjxl, libtiff and lcms2 are opened on first use, not linked.
            linkerSettings: [
                .linkedLibrary("z"), .linkedLibrary("gif"), .linkedLibrary("webp"),
                .linkedLibrary("webpdemux"), .linkedLibrary("dl"),
            ]
        ),
        .target(name: "CCurlLoader", dependencies: ["CCurl"]),

        // What every layer shares: errno kept typed, terminal-safe text.
        .target(name: "URLCacheSupport"),
        // Optimised in debug builds too: the tests drive the debug binary in
        // real terminals, where an unoptimised sixel encoder takes seconds.
        .target(
            name: "BlockArt",
            dependencies: ["CImageShim", "URLCacheSupport"],
            swiftSettings: [.unsafeFlags(["-O"], .when(configuration: .debug))]
        ),
        .target(
            name: "URLCacheKit",
            dependencies: ["CCurlLoader", "BlockArt", "URLCacheSupport"],
            resources: [.embedInCode("Config/URLCache.plist"), .embedInCode("Config/BundledImage.jpg")]
        ),
        .target(name: "URLCacheScreen", dependencies: ["CNCurses", "URLCacheKit", "BlockArt", "URLCacheSupport"]),
        .executableTarget(
            name: "urlcache",
            dependencies: [
                "URLCacheKit", "BlockArt", "URLCacheScreen", "URLCacheSupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),

        // The decoders and feed readers under libFuzzer (Scripts/fuzz); built plainly, it replays inputs.
        .executableTarget(name: "urlcache-fuzz", dependencies: ["BlockArt", "URLCacheKit", "URLCacheSupport"]),

        // The tests in three tiers. Unit: the four libraries, no process and
        // no server (Scripts/test --fast runs these alone). Integration: the
        // real binary and controller against real nginx and the scripted
        // server. Terminal: the screen in tmux, and pixels in real terminals
        // under Xvfb.
        // The stand-ins and where the fixtures are, for every tier.
        .target(
            name: "URLCacheTestSupport",
            dependencies: ["URLCacheKit", "URLCacheScreen", "BlockArt", "URLCacheSupport"],
            path: "Tests/TestSupport"
        ),
        // The servers, the binary's runs and temporary homes, for the two
        // tiers that start processes.
        .target(name: "URLCacheHarness", dependencies: ["URLCacheTestSupport"], path: "Tests/Harness"),
        .testTarget(name: "URLCacheSupportTests", dependencies: ["URLCacheSupport"]),
        .testTarget(
            name: "URLCacheKitTests",
            dependencies: ["URLCacheKit", "BlockArt", "URLCacheSupport", "URLCacheTestSupport"]
        ),
        .testTarget(name: "BlockArtTests", dependencies: ["BlockArt", "URLCacheKit", "URLCacheTestSupport"]),
        .testTarget(name: "URLCacheScreenTests", dependencies: ["URLCacheScreen", "URLCacheTestSupport"]),
        .testTarget(name: "IntegrationTests", dependencies: ["URLCacheKit", "URLCacheTestSupport", "URLCacheHarness"]),
        .testTarget(name: "TerminalTests", dependencies: ["URLCacheTestSupport", "URLCacheHarness"]),
    ]
)

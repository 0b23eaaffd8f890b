import FoundationEssentials
import URLCacheSupport

/// Finds the URL list: `--config FILE`, else
/// `$XDG_CONFIG_HOME/urlcache/URLCache.plist` (default `~/.config`), else the
/// list built into the binary.
public enum ConfigLocator {
    /// The user's list path, whether or not it exists.
    public static func userListPath(environment: [String: String]) -> String {
        configHome(environment: environment) + "/urlcache/URLCache.plist"
    }

    /// Loads the list that applies. An explicit file must exist; the user's
    /// list is used when present; otherwise the built-in default.
    public static func load(explicit: String?, environment: [String: String]) throws(ConfigError) -> URLList {
        if let explicit { return try URLList.load(path: explicit) }
        let user = userListPath(environment: environment)
        if Posix.exists(user) { return try URLList.load(path: user) }
        return try builtIn()
    }

    /// The list built into the binary: Resources/URLCache.plist, embedded by
    /// SwiftPM, so that `urlcache` finds it wherever the binary is copied.
    public static func builtIn() throws(ConfigError) -> URLList {
        try URLList.parse(builtInData, source: builtInSource)
    }

    /// What the built-in list is called where a file's path would be.
    public static let builtInSource = "built-in list"

    /// The built-in list's bytes: what a person's own list starts as.
    public static var builtInData: Data { Data(PackageResources.URLCache_plist) }

    /// `$XDG_CACHE_HOME/urlcache`, default `~/.cache/urlcache`.
    public static func defaultCacheDirectory(environment: [String: String]) -> String {
        if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") { return xdg + "/urlcache" }
        return home(environment) + "/.cache/urlcache"
    }

    static func configHome(environment: [String: String]) -> String {
        // The XDG spec says relative values are invalid and to be ignored.
        if let xdg = environment["XDG_CONFIG_HOME"], xdg.hasPrefix("/") { return xdg }
        return home(environment) + "/.config"
    }

    static func home(_ environment: [String: String]) -> String {
        if let home = environment["HOME"], !home.isEmpty { return home }
        return Posix.homeDirectory
    }
}

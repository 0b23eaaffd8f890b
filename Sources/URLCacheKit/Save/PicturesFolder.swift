import FoundationEssentials
import URLCacheSupport

/// Where saved copies go by default: `urlcache/` in the user's pictures
/// folder, as `xdg-user-dir PICTURES` names it, else `~/Pictures/urlcache`.
///
/// `xdg-user-dir` is a shell script that sources `user-dirs.dirs`; the
/// file's format is fixed by the XDG user-dirs spec (a quoted path that is
/// absolute or starts with `$HOME/`), so it is read here instead of running
/// a shell, and works where the xdg-user-dirs package is not installed.
public enum PicturesFolder {
    /// The folder for saved copies under `environment`'s home and config.
    public static func locate(environment: [String: String]) -> String {
        let file = ConfigLocator.configHome(environment: environment) + "/user-dirs.dirs"
        let text = try? String(contentsOfFile: file, encoding: .utf8)
        return resolve(userDirs: text, environment: environment) + "/urlcache"
    }

    /// The pictures folder that `user-dirs.dirs`'s text (nil: no file)
    /// and the environment give. As `xdg-user-dir` does, the file wins over
    /// an exported `XDG_PICTURES_DIR`. A folder set to the home itself means
    /// "disabled" in the spec, and a relative one is invalid: both fall back
    /// to `~/Pictures`.
    static func resolve(userDirs: String?, environment: [String: String]) -> String {
        let home = ConfigLocator.home(environment)
        let fromFile = userDirs.flatMap { value(of: "XDG_PICTURES_DIR", in: $0) }
        let raw = fromFile ?? environment["XDG_PICTURES_DIR"]
        if let raw {
            let path = expand(raw, home: home)
            let trimmed = path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
            if trimmed.hasPrefix("/"), trimmed != home, trimmed != "/" { return trimmed }
        }
        return home + "/Pictures"
    }

    /// The last assignment to `key` in the file, unquoted and unescaped
    /// as the shell would: `XDG_PICTURES_DIR="$HOME/Bilder"`.
    static func value(of key: String, in text: String) -> String? {
        var found: String?
        for line in text.split(whereSeparator: \.isNewline) {
            let trimmed = line.drop(while: { $0 == " " || $0 == "\t" })
            guard !trimmed.hasPrefix("#"), trimmed.hasPrefix(key + "=") else { continue }
            found = unquote(trimmed.dropFirst(key.count + 1))
        }
        return found
    }

    /// A shell word in double quotes (or bare): `\"`, `\\`, `\$` and
    /// `` \` `` lose their backslash; `$HOME` is left for `expand`.
    private static func unquote(_ word: Substring) -> String {
        var body = word.trimming(.whitespaces)[...]
        if body.hasPrefix("\""), body.hasSuffix("\""), body.count >= 2 { body = body.dropFirst().dropLast() }
        var out = ""
        var escaped = false
        for character in body {
            if escaped {
                if !"\"\\$`".contains(character) { out.append("\\") }
                out.append(character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else {
                out.append(character)
            }
        }
        return out
    }

    /// `$HOME` or `${HOME}` at the start becomes the home folder.
    private static func expand(_ path: String, home: String) -> String {
        for variable in ["$HOME", "${HOME}"] where path == variable || path.hasPrefix(variable + "/") {
            return home + path.dropFirst(variable.count)
        }
        return path
    }
}

import LanguageSyntax

/// A language that a configuration declares in its `languages` section: its id, the files that are
/// in it, and its comment and string syntax, so that rules limited by `scope` work in a language the
/// built-in table does not know (or work differently in one it does).
public struct DeclaredLanguage: Sendable, Hashable {
    /// The language id, lowercased: a document whose client says this id is in the language, and
    /// rules' `languages` name it.
    public var id: String
    /// The files in the language whatever their client says; nil when only the id decides.
    var files: FileGlobs?
    /// Its comments and strings.
    var syntax: LanguageSyntax

    init(id: String, files: [String]?, syntax: LanguageSyntax) {
        self.id = id.lowercased()
        self.files = files.map(FileGlobs.init)
        self.syntax = syntax
    }
}

/// A `files` list compiled: include globs and `!` exclude globs, each matched against a relative
/// path and its parent folders; a glob without `/` names a file or folder at any depth, as in
/// `.gitignore`. The one reading of `files` for rules and for declared languages.
struct FileGlobs: Sendable, Hashable {
    let include: [Glob]
    let exclude: [Glob]

    init(_ patterns: [String]) {
        var include: [Glob] = []
        var exclude: [Glob] = []
        for pattern in patterns {
            let negated = pattern.hasPrefix("!")
            let body = negated ? String(pattern.dropFirst()) : pattern
            let glob = Glob(body.contains("/") ? body : "**/" + body)
            if negated { exclude.append(glob) } else { include.append(glob) }
        }
        self.include = include
        self.exclude = exclude
    }

    /// Whether the path, given as its segments, or one of its parent folders matches an include glob
    /// (or there is none besides exclusions) and none matches an exclude glob.
    func matches(segments: [[Unicode.Scalar]]) -> Bool {
        let matches: (Glob) -> Bool = { glob in
            (1...max(segments.count, 1)).contains { glob.matches(segments: Array(segments.prefix($0))) }
        }
        return (include.isEmpty || include.contains(where: matches)) && !exclude.contains(where: matches)
    }

    /// The segments of a relative path, as `matches(segments:)` takes them.
    static func segments(of relativePath: String) -> [[Unicode.Scalar]] {
        relativePath.split(separator: "/").map { Array($0.unicodeScalars) }
    }
}

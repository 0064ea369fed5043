import HighlightConfig
// `.gitignore` and `.ignore` files, as git reads them.
//
// Each line is a pattern, relative to the directory of its file:
//
//     # comment           blank lines and `#` lines are skipped (`\#` is a literal #)
//     build/              a trailing `/` matches directories only
//     /TODO.txt           a `/` at the start or in the middle anchors the pattern to this directory
//     *.log               no `/`: the name matches at any depth
//     !keep.log           `!` re-includes what an earlier pattern excluded (`\!` is a literal !)
//     docs/**/*.pdf       `**` spans directories
//     build/**            everything inside build, not build itself
//     {a,b}.txt           braces are themselves, as in git (not alternatives, as in `files` globs)
//
// Within a file the last matching pattern decides. Files deeper in the tree
// take precedence over their parents, and in one directory `.ignore` over
// `.gitignore`. A file inside an excluded directory stays excluded: the walker
// never enters that directory, so no `!` can bring the file back (as in git).

/// One pattern of an ignore file.
struct IgnorePattern: Sendable {
    /// The pattern as `Glob` reads it (`**/` before a name at any depth, braces escaped).
    var glob: String
    var negated: Bool
    var directoryOnly: Bool
}

/// The patterns of one ignore file, relative to its directory.
struct IgnoreFile: Sendable {
    /// The file's directory, relative to the walk's root ("" for the root); segments separated by `/`.
    let directory: String
    /// The number of segments of `directory`.
    let depth: Int
    let patterns: [IgnorePattern]
    /// Every pattern's glob, matched together: the last matching pattern decides.
    let globs: GlobSet

    /// Parses the text of an ignore file found in `directory` (relative to the root).
    init(text: String, directory: String) {
        self.directory = directory
        self.depth = directory.split(separator: "/").count
        var patterns: [IgnorePattern] = []
        for rawLine in text.split(omittingEmptySubsequences: true, whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }) {
            var line = Substring(rawLine)
            if line.hasPrefix("#") { continue }
            // Trailing spaces go unless escaped.
            while line.hasSuffix(" ") && !line.hasSuffix("\\ ") { line = line.dropLast() }
            if line.isEmpty { continue }
            var negated = false
            if line.hasPrefix("!") {
                negated = true
                line = line.dropFirst()
            } else if line.hasPrefix("\\!") || line.hasPrefix("\\#") {
                line = line.dropFirst()
            }
            var directoryOnly = false
            if line.hasSuffix("/") {
                directoryOnly = true
                while line.hasSuffix("/") { line = line.dropLast() }
            }
            if line.isEmpty { continue }
            // A trailing `/**` matches what is inside, never the directory itself (git: `a/**` with `!a/f` keeps
            // `a/f`, so `a` is not excluded); in a glob it also matches zero segments, so one segment is required.
            if line.hasSuffix("/**"), line.drop(while: { $0 == "/" }).count > 3 {
                line = Substring(String(line.dropLast(2)) + "*/**")
            }
            // A slash at the start or in the middle anchors the pattern; otherwise it matches at any depth.
            let anchored = line.contains("/")
            let body = Self.bracesEscaped(line)
            let pattern = anchored ? body : "**/" + body
            patterns.append(IgnorePattern(glob: pattern, negated: negated, directoryOnly: directoryOnly))
        }
        self.patterns = patterns
        self.globs = GlobSet(patterns: patterns.map(\.glob), directoryOnly: patterns.map(\.directoryOnly))
    }

    /// The pattern with each `{` escaped: git reads braces as themselves (`{a,b}.txt` names that one file), where
    /// `Glob` reads them as alternatives.
    static func bracesEscaped(_ pattern: Substring) -> String {
        var result = ""
        var escaped = false
        for character in pattern {
            if character == "{" && !escaped { result.append("\\") }
            result.append(character)
            escaped = character == "\\" && !escaped
        }
        return result
    }

    /// Whether this file says the path is ignored (true), re-included (false), or nothing (nil).
    ///
    /// `relativePath` is relative to the root of the walk; paths outside `directory` get nil.
    func decision(forPath relativePath: String, isDirectory: Bool) -> Bool? {
        let local: Substring
        if directory.isEmpty {
            local = Substring(relativePath)
        } else if relativePath.hasPrefix(directory + "/") {
            local = relativePath.dropFirst(directory.count + 1)
        } else {
            return nil
        }
        return decision(forLocalSegments: local.split(separator: "/").map { Array($0.unicodeScalars) }[...], isDirectory: isDirectory)
    }

    /// The decision for a path given as its segments below this file's directory.
    func decision(forLocalSegments segments: ArraySlice<[Unicode.Scalar]>, isDirectory: Bool) -> Bool? {
        // One pass for all patterns: the cost per path does not grow with their number.
        guard let index = globs.lastMatch(segments: segments, isDirectory: isDirectory), patterns.indices.contains(index) else {
            return nil
        }
        return !patterns[index].negated
    }
}

/// The ignore files in force for a directory: its own and its ancestors', deepest first.
struct IgnoreStack: Sendable {
    /// Deepest first; within one directory `.ignore` comes before `.gitignore`.
    public private(set) var files: [IgnoreFile] = []

    /// An empty stack: nothing is ignored.
    init() {}

    /// The stack with `file` as the deepest (highest-precedence) entry.
    func pushing(_ file: IgnoreFile) -> IgnoreStack {
        var copy = self
        copy.files.insert(file, at: 0)
        return copy
    }

    /// Whether the path (relative to the root) is ignored: the deepest file that has an opinion decides.
    func isIgnored(_ relativePath: String, isDirectory: Bool) -> Bool {
        for file in files {
            if let decision = file.decision(forPath: relativePath, isDirectory: isDirectory) { return decision }
        }
        return false
    }

    /// Whether the path, given as all its segments from the root, is ignored. Every file in the stack
    /// must be in a directory containing the path (as the walker's stack always is).
    func isIgnored(segments: [[Unicode.Scalar]], isDirectory: Bool) -> Bool {
        for file in files where file.depth < segments.count {
            if let decision = file.decision(forLocalSegments: segments[file.depth...], isDirectory: isDirectory) {
                return decision
            }
        }
        return false
    }
}

import HighlightConfig

// The command line's `--glob`s, which narrow a walk as ripgrep's `-g` does:
//
//     *.py          no `/`: a name at any depth
//     src/**/*.c    a `/`: the path from the folder searched
//     !vendor/      `!` leaves out; a trailing `/` means folders only, and a folder left out is not entered
//
// Of the globs that match a path, the one given last decides. When some glob includes, a file that no
// glob matches is left out; a folder that none matches is still walked, since a file in it may match.
// Braces are alternatives (`*.{c,h}`), as in `files` globs. The globs only narrow: what hidden names
// and ignore files leave out stays out.

/// The command line's globs, compiled together once (`GlobSet`), for the walk to ask about each entry.
public struct WalkGlobs: Sendable, Hashable {
    /// The globs as given, `!` included.
    public let patterns: [String]
    /// Every glob without its `!`, a name glob behind `**/`, matched together.
    private let globs: GlobSet
    /// Per glob: whether it leaves out what it matches.
    private let excludes: [Bool]
    /// Whether some glob includes, so that a file no glob matches is left out.
    private let includes: Bool

    /// Compiles `patterns` in the order given.
    ///
    /// - Complexity: O(total pattern length).
    public init(_ patterns: [String]) {
        self.patterns = patterns
        var bodies: [String] = []
        var directoryOnly: [Bool] = []
        var excludes: [Bool] = []
        for pattern in patterns {
            var body = Substring(pattern)
            let excluded = body.hasPrefix("!")
            if excluded { body = body.dropFirst() }
            let folders = body.hasSuffix("/")
            while body.hasSuffix("/") { body = body.dropLast() }
            // A slash at the start or in the middle anchors the glob to the folder searched; else it names an entry
            // at any depth, as in an ignore file.
            bodies.append(body.contains("/") ? String(body) : "**/" + body)
            directoryOnly.append(folders)
            excludes.append(excluded)
        }
        globs = GlobSet(patterns: bodies, directoryOnly: directoryOnly)
        self.excludes = excludes
        includes = excludes.contains(false)
    }

    /// Whether the walk leaves out the entry whose path from the folder searched has `segments`.
    ///
    /// - Complexity: O(path), as `GlobSet.lastMatch(segments:isDirectory:)`.
    func leavesOut(segments: ArraySlice<[Unicode.Scalar]>, isDirectory: Bool) -> Bool {
        guard let last = globs.lastMatch(segments: segments, isDirectory: isDirectory), excludes.indices.contains(last) else {
            return includes && !isDirectory
        }
        return excludes[last]
    }

    /// Globs are equal when they are given alike.
    public static func == (lhs: WalkGlobs, rhs: WalkGlobs) -> Bool { lhs.patterns == rhs.patterns }

    /// Hashes the globs as given.
    public func hash(into hasher: inout Hasher) { hasher.combine(patterns) }
}

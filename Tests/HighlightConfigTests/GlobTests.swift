import Dispatch
import Synchronization
import Testing
@testable import HighlightConfig

/// Globs as tables: pattern, path, whether it matches.
@Suite struct GlobTests {
    static let table: [(String, String, Bool)] = [
        // * and ? stay within a segment.
        ("*.swift", "a.swift", true), ("*.swift", "src/a.swift", false), ("src/*.swift", "src/a.swift", true),
        ("src/*", "src/a/b.swift", false), ("?.md", "a.md", true), ("?.md", "ab.md", false), ("a?c", "a/c", false),
        ("*", "", false), ("*", "x", true), ("a*b*c", "abxbc", true), ("a*b*c", "abxbd", false), ("*é*", "café", true),
        // ** spans segments, including none.
        ("**/*.js", "a.js", true), ("**/*.js", "x/y/a.js", true), ("src/**", "src/a/b", true), ("src/**", "src", true),
        ("src/**", "srcx/a", false), ("a/**/b", "a/b", true), ("a/**/b", "a/x/y/b", true), ("a/**/b", "a/x/y/c", false),
        ("**", "any/thing", true), ("a/**/b/**/c", "a/1/b/2/3/c", true), ("a**b", "axxb", true), ("a**b", "a/b", false),
        // Classes.
        ("[abc].txt", "b.txt", true), ("[abc].txt", "d.txt", false), ("[a-c]x", "bx", true), ("[!a-c]x", "bx", false),
        ("[^a-c]x", "dx", true), ("[]]x", "]x", true), ("[a\\]]x", "]x", true), ("[x", "[x", true), ("x[/]y", "x/y", false),
        // Braces, nested, with classes inside.
        ("*.{js,ts}", "a.ts", true), ("*.{js,ts}", "a.rs", false), ("{src,lib}/**/*.{c,h}", "lib/x/y.h", true),
        ("{a,{b,c}}x", "cx", true), ("{a}", "{a}", true), ("{a,b", "{a,b", true), ("{,x}y", "y", true),
        ("[{]a", "{a", true),
        // Escapes and anchoring.
        ("\\*.md", "*.md", true), ("\\*.md", "a.md", false), ("/src/a", "src/a", true), ("a//b", "a/b", true),
    ]

    @Test func table() {
        for (pattern, path, expected) in Self.table {
            #expect(Glob(pattern).matches(path) == expected, "\(pattern) on \(path)")
        }
    }

    /// Braces are alternations in the automaton, never expanded: `{a,b}` 30 times is 2^30 paths and a
    /// few hundred states, and every one of those paths still matches (no cap drops any).
    @Test func braceBombsCompileToAlternationsAndStillMatch() {
        let pattern = String(repeating: "{a,b}", count: 30)
        let glob = Glob(pattern)
        #expect(glob.nfa.states.count < 400)
        #expect(glob.matches(String(repeating: "ab", count: 15)))
        #expect(glob.matches(String(repeating: "b", count: 30)))
        #expect(!glob.matches(String(repeating: "a", count: 29)))
        #expect(!glob.matches(String(repeating: "a", count: 29) + "c"))
        let nested = String(repeating: "{a,{b,{c,d}}}", count: 40) + "/**/" + String(repeating: "{x,y}", count: 40)
        let nestedGlob = Glob(nested)
        #expect(nestedGlob.matches(String(repeating: "d", count: 40) + "/q/r/" + String(repeating: "y", count: 40)))
    }
}


/// The automaton against the previous matcher (brace expansion, then segments), on random globs and
/// paths small enough for expansion; and `GlobSet` against each glob alone. The pieces keep stars
/// and empty alternatives away from brace edges, where expansion would join `*}` and `*` (or `{,}`
/// and `**`) into a whole-segment `**` and the automaton does not.
@Suite struct GlobDifferentialTests {
    static let pieces = ["a", "b", "é", ".", "*", "?", "**", "/", "[ab]", "[!a]", "{a,b}", "{a,x,b/c}", "{x,{a,b*c}}", "\\*", "c"]
    static let pathPieces = ["a", "b", "c", "é", ".", "/", "ab", "*", "x"]

    static func randomGlob(using generator: inout GlobTestGenerator) -> String {
        (0..<Int.random(in: 1...6, using: &generator)).map { _ in pieces.randomElement(using: &generator) ?? "a" }.joined()
    }

    static func randomPath(using generator: inout GlobTestGenerator) -> String {
        (0..<Int.random(in: 1...8, using: &generator)).map { _ in pathPieces.randomElement(using: &generator) ?? "a" }.joined()
    }

    /// Fixed seeds, so that CI is repeatable; seed 86 found the `/**/**` disagreement fixed below.
    @Test(arguments: [UInt64(1), 2, 3, 74, 86])
    func theAutomatonAgreesWithExpansion(seed: UInt64) {
        var generator = GlobTestGenerator(seed: seed)
        var disagreements = 0
        for _ in 0..<3000 {
            let pattern = Self.randomGlob(using: &generator)
            let glob = Glob(pattern)
            let reference = ReferenceGlob(pattern)
            for _ in 0..<8 {
                let path = Self.randomPath(using: &generator)
                if glob.matches(path) != reference.matches(path) {
                    disagreements += 1
                    if disagreements <= 5 { Issue.record("seed \(seed): \(pattern) on \(path): \(glob.matches(path)), expansion says \(reference.matches(path))") }
                }
            }
        }
        #expect(disagreements == 0, "seed \(seed)")
    }

    /// Regressions found by the seeds above, and today's behaviour where the automaton is still wrong.
    @Test func emptyRemaindersAndRepeatedDoubleStars() {
        // `*/*` needs two segments even though its stars could match nothing (seed 74).
        #expect(!Glob("*/*/").matches("/"))
        #expect(Glob("**").matches(""))
        #expect(Glob("**/**").matches(""))
        #expect(Glob("a/**").matches("a"))
        // `/**/**` at the end matches zero segments, as `/**` does.
        #expect(Glob("[!a]/**/**").matches("c"))
        #expect(Glob("a/**/**").matches("a"))
        #expect(Glob("a/**/**").matches("a/b/c"))
        #expect(!Glob("a/**/**").matches("b"))
        #expect(Glob("**/**").matches("x/y"))
    }

    /// Checks that the set answers, for the path as a file and as a directory, the last glob that matches it alone.
    static func expectLastMatch(of set: GlobSet, on path: String, globs: [Glob], directoryOnly: [Bool], seed: UInt64,
                                sourceLocation: SourceLocation = #_sourceLocation) {
        let segments = path.split(separator: "/").map { Array($0.unicodeScalars) }
        let matching = globs.indices.filter { globs[$0].matches(path) }
        for isDirectory in [false, true] {
            let expected = matching.last { isDirectory || !directoryOnly[$0] }
            #expect(set.lastMatch(segments: segments[...], isDirectory: isDirectory) == expected,
                    "seed \(seed): \(path) (directory: \(isDirectory)) with \(globs.map(\.pattern)), directory-only \(directoryOnly)",
                    sourceLocation: sourceLocation)
        }
    }

    @Test func aGlobSetFindsWhatEachGlobFinds() {
        let seed: UInt64 = 20_261_125
        var generator = GlobTestGenerator(seed: seed)
        let shapes = ["**/%", "**/*.%", "%", "%/%", "**/%/*.%", "*%", "%*"]
        for _ in 0..<50 {
            let globs = (0..<Int.random(in: 1...40, using: &generator)).map { _ in
                var pattern = shapes.randomElement(using: &generator) ?? "%"
                while let hole = pattern.firstIndex(of: "%") {
                    pattern.replaceSubrange(hole...hole, with: ["a", "b", "a.b", "ab", "gz", "tar.gz"].randomElement(using: &generator) ?? "a")
                }
                return Glob(pattern)
            }
            let directoryOnly = globs.map { _ in Int.random(in: 0..<4, using: &generator) == 0 }
            let set = GlobSet(globs, directoryOnly: directoryOnly)
            for _ in 0..<40 {
                let path = (0..<Int.random(in: 1...3, using: &generator)).map { _ in
                    ["a", "b", "a.b", "x.tar.gz", "ab", "gz", "b.gz"].randomElement(using: &generator) ?? "a"
                }.joined(separator: "/")
                Self.expectLastMatch(of: set, on: path, globs: globs, directoryOnly: directoryOnly, seed: seed)
            }
        }
    }

    /// Sets of random globs of every shape (most go into the lazily built automaton): the set finds exactly what
    /// each glob finds on its own, with the automaton's cache kept, and emptied before every path (limit 0).
    @Test(arguments: [GlobDFA.defaultCacheLimit, 0])
    func aGlobSetOfWildcardGlobsFindsWhatEachGlobFinds(cacheLimit: Int) {
        let seed: UInt64 = 13
        var generator = GlobTestGenerator(seed: seed)
        for _ in 0..<60 {
            let globs = (0..<Int.random(in: 1...120, using: &generator)).map { _ in Glob(Self.randomGlob(using: &generator)) }
            let directoryOnly = globs.map { _ in Int.random(in: 0..<4, using: &generator) == 0 }
            let set = GlobSet(globs, directoryOnly: directoryOnly, cacheLimit: cacheLimit)
            for _ in 0..<30 {
                let path = Self.randomPath(using: &generator)
                Self.expectLastMatch(of: set, on: path, globs: globs, directoryOnly: directoryOnly, seed: seed)
            }
        }
    }

    /// One set matched from many threads at once (its automata's caches are shared) gives each thread what the globs
    /// find alone: hundreds of globs that differ only in a class or a count of `?` (the shape that was run one by
    /// one), under a folder or at any depth, some for directories only; with the cache kept, and emptied often.
    @Test(arguments: [GlobDFA.defaultCacheLimit, 2_000])
    func aGlobSetIsSharedByThreads(cacheLimit: Int) {
        let seed: UInt64 = 7
        var generator = GlobTestGenerator(seed: seed)
        let letters = Array("abcdefgh"), pathLetters = Array("abcdefghijkl")
        let globs = (0..<300).map { number in
            let low = letters[number % 4], high = letters[4 + number / 4 % 4]
            let prefix = ["**/", "a/**/", "", "*/"][number / 16 % 4]
            return Glob(prefix + "[\(low)-\(high)]" + String(repeating: "?", count: number % 3) + "*" + (number % 5 == 0 ? "" : ".h"))
        }
        let directoryOnly = globs.indices.map { $0 % 7 == 0 }
        let paths = (0..<150).map { _ in
            (0..<Int.random(in: 1...4, using: &generator)).map { _ in
                String((0..<Int.random(in: 1...6, using: &generator)).map { _ in pathLetters.randomElement(using: &generator) ?? "a" })
            }.joined(separator: "/") + (Bool.random(using: &generator) ? ".h" : "")
        }
        let expected = paths.map { path in
            let matching = globs.indices.filter { globs[$0].matches(path) }
            return [matching.last { !directoryOnly[$0] }, matching.last]
        }
        let set = GlobSet(globs, directoryOnly: directoryOnly, cacheLimit: cacheLimit)
        let found = Mutex([[Int?]](repeating: [], count: paths.count))
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            for index in stride(from: thread, to: paths.count, by: 4) {
                let segments = paths[index].split(separator: "/").map { Array($0.unicodeScalars) }
                let result = [false, true].map { set.lastMatch(segments: segments[...], isDirectory: $0) }
                found.withLock { $0[index] = result }
            }
        }
        let results = found.withLock { $0 }
        for index in paths.indices {
            #expect(results[index] == expected[index], "seed \(seed): \(paths[index])")
        }
        // The paths are not all matched, nor all missed, by files and directories alike.
        #expect(expected.contains { $0[0] != nil } && expected.contains { $0[1] == nil } && expected.contains { $0[0] != $0[1] })
    }
}

/// SplitMix64, so a printed seed replays a run.
struct GlobTestGenerator: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

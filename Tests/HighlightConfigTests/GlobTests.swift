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

    @Test func braceExpansionIsBounded() {
        let pattern = String(repeating: "{a,b}", count: 20)
        #expect(Glob(pattern).alternatives.count == Glob.maximumAlternatives)
    }
}


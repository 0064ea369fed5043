import Testing
@testable import PatternEngine

/// One matching case: every engine must find exactly `matches` when iterating over `text`.
struct RegexMatchCase: CustomTestStringConvertible, Sendable {
    var pattern: String
    var text: String
    /// UTF-8 offset pairs (start, end).
    var matches: [(Int, Int)]
    var caseInsensitive = false
    var matchKind = RegexMatchKind.leftmostFirst

    var testDescription: String { "/\(pattern)/ in \(text.debugDescription)" }

    init(
        _ pattern: String, _ text: String, _ matches: [(Int, Int)], caseInsensitive: Bool = false,
        matchKind: RegexMatchKind = .leftmostFirst
    ) {
        self.pattern = pattern
        self.text = text
        self.matches = matches
        self.caseInsensitive = caseInsensitive
        self.matchKind = matchKind
    }
}

@Suite struct RegexMatchingTests {
    static let basicsCases: [RegexMatchCase] = [
        .init("abc", "xabcabc", [(1, 4), (4, 7)]),
        .init("a", "", []),
        .init("a|b", "cab", [(1, 2), (2, 3)]),
        .init("a.c", "abc a\nc a\rc", [(0, 3)]),
        .init("(?s)a.c", "a\nc a\rc", [(0, 3), (4, 7)]),
        .init("a+", "baaab", [(1, 4)]),
        .init("a?", "bab", [(1, 2)]),
        .init("(ab)+", "ababab", [(0, 6)]),
        .init(#"\."#, "a.b", [(1, 2)]),
        .init(#"\x41\x{42}\u{43}"#, "ABC", [(0, 3)]),
        .init(#"\t"#, "a\tb", [(1, 2)]),
        .init("(?x) a b # comment\n c", "abc", [(0, 3)]),
        .init(".", "é😀", [(0, 2), (2, 6)]),
    ]

    static let emptyMatchesCases: [RegexMatchCase] = [
        .init("a*", "baaa", [(1, 4)]),
        .init("x*", "abc", []),
        .init("", "abc", []),
        .init("a*|b", "b", [(0, 1)]),
        .init("(a|)+b?", "b", [(0, 1)]),
        .init(#"\b"#, "ab", []),
        .init("^", "a\nb", []),
        .init("a{0}b", "ab", [(1, 2)]),
        .init("(a*)*", "aab", [(0, 2)]),
    ]

    static let repetitionCases: [RegexMatchCase] = [
        .init("a{2}", "aaaaa", [(0, 2), (2, 4)]),
        .init("a{2,}", "aaaaa", [(0, 5)]),
        .init("a{2,3}", "aaaaa", [(0, 3), (3, 5)]),
        .init(#"\d{2,3}"#, "1234567", [(0, 3), (3, 6)]),
        .init("(a|aa){2}", "aaaa", [(0, 2), (2, 4)]),
        // Lazy repetitions stop as early as the rest allows (RE2's leftmost-first).
        .init("a+?", "aaa", [(0, 1), (1, 2), (2, 3)]),
        .init("a*?b", "aab", [(0, 3)]),
        .init("<.+?>", "<a><b>", [(0, 3), (3, 6)]),
        .init("a??b", "ab", [(0, 2)]),
        .init(#"T\w+?"#, "TODO", [(0, 2)]),
        .init(#"TODO\((.*?)\)"#, "TODO(a) and TODO(b)", [(0, 7), (12, 19)]),
        .init("(?U)a+", "aaa", [(0, 1), (1, 2), (2, 3)]),
        .init("(?U)a+?", "aaa", [(0, 3)]),
        .init("a{2,3}?", "aaaaa", [(0, 2), (2, 4)]),
        // RE2 prefers the empty way through these; the first non-empty match is the whole run.
        .init("(|a)*b?", "aab", [(0, 3)]),
        .init("(|a)+", "aa", [(0, 2)]),
        .init("(a|)+", "aa", [(0, 2)]),
    ]

    /// Within one pattern the first alternative (in priority order) wins at the leftmost start, as in RE2.
    static let leftmostFirstCases: [RegexMatchCase] = [
        .init("Sam|Samwise", "Samwise", [(0, 3)]),
        .init("Samwise|Sam", "Samwise Sam", [(0, 7), (8, 11)]),
        .init("a|ab|abc", "abcd", [(0, 1)]),
        .init("b|abc", "abc", [(0, 3)]),
        .init("abcd|c", "abcd", [(0, 4)]),
        .init("abcd|c", "abce", [(2, 3)]),
        .init("(?:a|ab)(?:c|bcd)", "abcd", [(0, 4)]),
        .init("x+y|x", "xxxz", [(0, 1), (1, 2), (2, 3)]),
        .init("b+|ab+c", "abbbd", [(1, 4)]),
        .init("a*|b", "b", [(0, 1)]),
    ]

    /// `RegexMatchKind.leftmostLongest` keeps the longest match at the leftmost start, laziness ignored.
    static let leftmostLongestCases: [RegexMatchCase] = [
        .init("Sam|Samwise", "Samwise", [(0, 7)], matchKind: .leftmostLongest),
        .init("Samwise|Sam", "Samwise Sam", [(0, 7), (8, 11)], matchKind: .leftmostLongest),
        .init("a|ab|abc", "abcd", [(0, 3)], matchKind: .leftmostLongest),
        .init("b|abc", "abc", [(0, 3)], matchKind: .leftmostLongest),
        .init("(?:a|ab)(?:c|bcd)", "abcd", [(0, 4)], matchKind: .leftmostLongest),
        .init("x+y|x", "xxxz", [(0, 1), (1, 2), (2, 3)], matchKind: .leftmostLongest),
        .init("a+?", "aaa", [(0, 3)], matchKind: .leftmostLongest),
        .init("<.+?>", "<a><b>", [(0, 6)], matchKind: .leftmostLongest),
    ]

    static let classesCases: [RegexMatchCase] = [
        .init("[a-c]+", "xabcd", [(1, 4)]),
        .init("[^a-c]+", "abxyc", [(2, 4)]),
        .init("[]a]+", "a]b", [(0, 2)]),
        .init("[a-]+", "a-b", [(0, 2)]),
        .init(#"[\d.]+"#, "v1.2x", [(1, 4)]),
        .init("[[:alpha:]]+", "12ab3", [(2, 4)]),
        .init("[[:^digit:]]+", "12ab3", [(2, 4)]),
        // `[` inside a class is a literal (RE2 has no nested classes): this is `[\[a-c]` then `]+`.
        .init("[[a-c]]+", "b]]x[", [(0, 3)]),
        .init("[a[]+", "a[b", [(0, 2)]),
        .init("[a&&b]+", "x&ab", [(1, 4)]),
        .init(#"[\d-z]+"#, "a1-zb", [(1, 4)]),
        .init(#"\Qa.b\E+"#, "a.bbb axb", [(0, 5)]),
        .init(#"a\Q\E*"#, "aaa", [(0, 3)]),
        .init(#"\101\0\12"#, "A\u{0}\n", [(0, 3)]),
        .init("a{,2}", "aa a{,2}", [(3, 8)]),
        .init("x{a}", "x{a}", [(0, 4)]),
        .init(#"[^\n]+"#, "ab\ncd", [(0, 2), (3, 5)]),
        .init(#"\W+"#, "ab, cd", [(2, 4)]),
    ]

    static let unicodeClassesCases: [RegexMatchCase] = [
        // `\d \w \s` are ASCII, as in RE2; `(?u)` makes them Unicode.
        .init(#"\d+"#, "x١٢3y", [(5, 6)]),
        .init(#"(?u)\d+"#, "x١٢3y", [(1, 6)]),
        .init(#"\w+"#, "héllo wörld", [(0, 1), (3, 6), (7, 8), (10, 13)]),
        .init(#"(?u)\w+"#, "héllo wörld", [(0, 6), (7, 13)]),
        .init(#"(?u:\w)+\w"#, "éa", [(0, 3)]),
        .init(#"\s+"#, "a \t\u{0B}\u{0C}b", [(1, 3), (4, 5)]),
        .init(#"\p{Han}+"#, "漢字かな", [(0, 6)]),
        .init(#"\p{Greek}+|\p{Cyrillic}+"#, "αβЖж", [(0, 4), (4, 8)]),
        .init(#"\p{^Greek}+"#, "aαb", [(0, 1), (3, 4)]),
        .init(#"\P{^Greek}"#, "aα", [(1, 3)]),
        .init(#"\p{scx=Greek}"#, "\u{342}", [(0, 2)]),
        .init(#"\p{Lu}+"#, "abÇDe", [(2, 5)]),
        .init(#"\pL+"#, "12日本3", [(2, 8)]),
        .init(#"\P{L}+"#, "ab12c", [(2, 4)]),
        .init(#"(?u)\s+"#, "a\u{00A0}\u{2003}b", [(1, 6)]),
        .init(#"\s+"#, "a\u{00A0}\u{2003}b", []),
        .init("[α-ω]+", "xαβγx", [(1, 7)]),
        .init(#"(?u)\w+"#, "e\u{301}x", [(0, 4)]),
        .init("😀+", "😀😀x", [(0, 8)]),
        .init(#"[^a]"#, "a😀", [(1, 5)]),
    ]

    static let anchorsCases: [RegexMatchCase] = [
        .init("^a", "a\na\r\na\ra", [(0, 1), (2, 3), (5, 6), (7, 8)]),
        .init("a$", "a\na\r\na\ra", [(0, 1), (2, 3), (5, 6), (7, 8)]),
        .init(#"^\n"#, "\r\n", []),
        .init(#"^\n"#, "\n\n", [(0, 1), (1, 2)]),
        .init(#"\r$"#, "a\r\nb", []),
        .init(#"\r$"#, "a\r", [(1, 2)]),
        .init(#"\Aab"#, "abab", [(0, 2)]),
        .init(#"ab\z"#, "abab", [(2, 4)]),
        .init("^$x|^.+$", "ab\n\ncd", [(0, 2), (4, 6)]),
        .init(#"^\w+$"#, "one\r\ntwo\rthree", [(0, 3), (5, 8), (9, 14)]),
        // `(?-m)`: text anchors, as RE2 reads `^` and `$` without `(?m)`.
        .init("(?-m)^a", "a\na", [(0, 1)]),
        .init("(?-m)a$", "a\na", [(2, 3)]),
        // `(?-R)`: lines end at `\n` only, and `.` matches `\r`, as in RE2.
        .init("(?-R)a$", "a\r\na\n", [(3, 4)]),
        .init("(?-R)^.+", "a\rb", [(0, 3)]),
    ]

    static let wordBoundariesCases: [RegexMatchCase] = [
        .init(#"\bfoo\b"#, "foo foobar barfoo foo", [(0, 3), (18, 21)]),
        // `\b` is ASCII, as in RE2: `é` is not a word character for it; `(?u)\b` is Unicode.
        .init(#"\bé"#, "aé é", [(1, 3)]),
        .init(#"(?u)\bé"#, "aé é", [(4, 6)]),
        .init(#"\b\w+\b"#, "日本 語", []),
        .init(#"(?u)\b\w+\b"#, "日本 語", [(0, 6), (7, 10)]),
        .init(#"\B\w"#, "ab", [(1, 2)]),
        .init(#"x\b"#, "xé x", [(0, 1), (4, 5)]),
        .init(#"(?u)x\b"#, "xé x", [(4, 5)]),
        .init(#"\b[A-Z]{2,}-\d+\b"#, "see ABC-123, xABC-1 and AB-7é, DE-9", [(4, 11), (24, 28), (32, 36)]),
        .init(#"#[0-9a-fA-F]{6}\b"#, "#ff00ff #ff00ffa #abcdef", [(0, 7), (17, 24)]),
    ]

    static let caseFoldingCases: [RegexMatchCase] = [
        .init("(?i)k", "kK\u{212A}", [(0, 1), (1, 2), (2, 5)]),
        .init("(?i)straße", "STRASSE straße STRAẞE", [(8, 15), (16, 24)]),
        .init("(?i)σ", "Σσς", [(0, 2), (2, 4), (4, 6)]),
        .init("(?i)[a-c]+", "xAbCd", [(1, 4)]),
        .init("(?i)[^a]", "aA", []),
        .init("a(?i)b", "aB AB", [(0, 2)]),
        .init("(?i:a)b", "Ab AB", [(0, 2)]),
        .init("(?i)a(?-i)b", "AB Ab", [(3, 5)]),
        .init("todo", "ToDo", [(0, 4)], caseInsensitive: true),
        .init(#"(?i)\p{Lu}"#, "a", [(0, 1)]),
    ]

    /// Patterns with a rare inner byte (`-`, `@`, `1`): found through it, then prefix backwards, whole pattern forwards.
    static let innerLiteralCases: [RegexMatchCase] = [
        .init(#"\b[A-Z]{2,}-\d+\b"#, "AB-1-2 XY-12x CD-3 -4 E-5 FG--6 HI-7", [(0, 4), (14, 18), (32, 36)]),
        // The earliest prefix start wins, and the longest end from it.
        .init(#"[a-z]*-\d*"#, "ab-12 -3 x-", [(0, 5), (6, 8), (9, 11)]),
        // A failed occurrence (`bob@x` is followed by `@`) leaves the next one's prefix free to start right after it.
        .init(#"\w+@\w+\.com"#, "a@b.org bob@x@y.com c@d.com", [(12, 19), (20, 27)]),
        // The suffix may contain the literal again.
        .init(#"[A-Z]+-[A-Z-]*\d"#, "A-B-C-1 Q-- Z-9", [(0, 7), (12, 15)]),
        // Assertions next to the literal.
        .init(#"x\b-\bx"#, "x-x xx-x x-xx", [(0, 3), (5, 8), (9, 12)]),
        .init(#"(?m)^[a-z]+1$"#, "ab1\nb1c\nzz1", [(0, 3), (8, 11)]),
        .init(#"[a-z]+-|[0-9]+"#, "ab- 12", [(0, 3), (4, 6)]),
        .init(#"(ab|c)-(d|ef)"#, "ab-ef c-d ab-x", [(0, 5), (6, 9)]),
        .init(#"é*-😀"#, "éé-😀 -😀", [(0, 9), (10, 15)]),
    ]

    @Test(arguments: basicsCases) func basics(_ c: RegexMatchCase) { check(c) }
    @Test(arguments: innerLiteralCases) func innerLiteral(_ c: RegexMatchCase) { check(c) }
    @Test(arguments: emptyMatchesCases) func emptyMatchesAreSkipped(_ c: RegexMatchCase) { check(c) }
    @Test(arguments: repetitionCases) func repetition(_ c: RegexMatchCase) { check(c) }
    @Test(arguments: leftmostFirstCases) func leftmostFirst(_ c: RegexMatchCase) { check(c) }
    @Test(arguments: leftmostLongestCases) func leftmostLongest(_ c: RegexMatchCase) { check(c) }
    @Test(arguments: classesCases) func classes(_ c: RegexMatchCase) { check(c) }
    @Test(arguments: unicodeClassesCases) func unicodeClasses(_ c: RegexMatchCase) { check(c) }
    @Test(arguments: anchorsCases) func anchorsPerLine(_ c: RegexMatchCase) { check(c) }
    @Test(arguments: wordBoundariesCases) func wordBoundaries(_ c: RegexMatchCase) { check(c) }
    @Test(arguments: caseFoldingCases) func caseFolding(_ c: RegexMatchCase) { check(c) }

    private func check(_ c: RegexMatchCase, sourceLocation: SourceLocation = #_sourceLocation) {
        checkMatches(
            c.pattern, c.text, c.matches, caseInsensitive: c.caseInsensitive, matchKind: c.matchKind,
            sourceLocation: sourceLocation)
    }

    @Test func bytesBeforeFromAreContext() throws {
        let table: [(pattern: String, text: String, from: Int, expected: Range<Int>?)] = [
            ("^b", "ab", 1, nil),
            (#"\bb"#, "ab", 1, nil),
            (#"\bb"#, "a b", 2, 2..<3),
            (#"\Bb"#, "ab", 1, 1..<2),
            ("^b", "a\nb", 2, 2..<3),
            ("^b", "a\rb", 2, 2..<3),
            ("x", "x", 5, nil),
            ("x", "x", -3, 0..<1),
        ]
        for row in table {
            let regex = try CompiledRegex(row.pattern)
            for engine in RegexTestEngine.allCases {
                let actual = engine.firstMatch(regex, in: Array(row.text.utf8), from: row.from)
                #expect(actual == row.expected, "\(engine) /\(row.pattern)/ from \(row.from)")
            }
        }
    }

    @Test func innerLiteralIsChosenOnlyWhereItIsSound() throws {
        let expectations: [(String, [UInt8]?)] = [
            (#"\b[A-Z]{2,}-\d+\b"#, Array("-".utf8)),
            (#"\w+@\w+\.com"#, Array("@".utf8)),
            // A rare first byte is better still.
            ("-x", nil),
            // No top-level sequence.
            ("[a-z]*-|x", nil),
            // The prefix could read the literal, so its first occurrence need not be the match's.
            ("[a-z-]+-x", nil),
            // Too common to pay.
            ("[a-z]+e", nil),
        ]
        for (pattern, bytes) in expectations {
            let regex = try CompiledRegex(pattern)
            #expect(regex.program.innerLiteral?.bytes == bytes, "\(pattern)")
        }
    }

    @Test func pathologicalPatternsFinish() throws {
        let table: [(pattern: String, text: String, expected: [(Int, Int)])] = [
            ("(a+)+$", String(repeating: "a", count: 20_000), [(0, 20_000)]),
            ("(a|aa)*b", String(repeating: "a", count: 20_000), []),
            ("(x+x+)+y", String(repeating: "x", count: 5_000), []),
            ("(a*)*b", String(repeating: "a", count: 5_000), []),
        ]
        for row in table {
            let regex = try CompiledRegex(row.pattern)
            let bytes = Array(row.text.utf8)
            // The reference matcher is polynomial; only the real engines run on long inputs.
            for engine in [RegexTestEngine.pikeVM, .lazyDFA, .tinyCacheDFA, .clearingDFA] {
                #expect(engine.allMatches(regex, in: bytes) == row.expected.map { $0.0..<$0.1 }, "\(engine) /\(row.pattern)/")
            }
        }
    }
}

@Suite struct RegexCaptureTests {
    /// (pattern, text, expected groups of the first match, group 0 first).
    static let table: [(String, String, [Range<Int>?])] = [
        ("(a)(b)?", "a", [0..<1, 0..<1, nil]),
        (#"(?P<year>\d{4})-(?<month>\d{2})"#, "2024-05", [0..<7, 0..<4, 5..<7]),
        ("(a|ab)(c|bcd)", "abcd", [0..<4, 0..<1, 1..<4]),
        ("(a*)(a*)", "aaa", [0..<3, 0..<3, 3..<3]),
        ("(a*?)(a*)", "aaa", [0..<3, 0..<0, 0..<3]),
        ("(a)|b", "b", [0..<1, nil]),
        (#"(\w+)\s(\w+)"#, "hello world", [0..<11, 0..<5, 6..<11]),
        ("(a)+", "aaa", [0..<3, 2..<3]),
        (#"x(\b)"#, "x y", [0..<1, 1..<1]),
        ("Sam|(Samwise)", "Samwise", [0..<3, nil]),
        ("(Samwise)|Sam", "Samwise", [0..<7, 0..<7]),
        (#"TODO\((.*?)\)"#, "TODO(a) and TODO(b)", [0..<7, 5..<6]),
    ]

    @Test func capturesFollowLeftmostFirstWithinTheMatch() throws {
        for (pattern, text, expected) in RegexCaptureTests.table {
            let regex = try CompiledRegex(pattern)
            let bytes = Array(text.utf8)
            bytes.withUnsafeBufferPointer { buffer in
                guard let match = regex.firstMatch(in: buffer, from: 0) else {
                    Issue.record("/\(pattern)/ did not match \(text)")
                    return
                }
                #expect(regex.captures(in: buffer, match: match) == expected, "/\(pattern)/ in \(text)")
            }
        }
    }
}

@Suite struct RegexConcurrencyTests {
    @Test func oneRegexServesConcurrentSearches() async throws {
        let regex = try CompiledRegex(#"\b[A-Z]{2,}-\d+\b"#)
        let line = "see ABC-123 and 日本 DE-9, not xAB-1\n"
        let text = Array(String(repeating: line, count: 200).utf8)
        let expected = RegexTestEngine.pikeVM.allMatches(regex, in: text)
        #expect(expected.count == 400)
        let results = await withTaskGroup(of: [Range<Int>].self) { group in
            for _ in 0..<8 {
                group.addTask { RegexTestEngine.lazyDFA.allMatches(regex, in: text) }
            }
            var all: [[Range<Int>]] = []
            for await result in group { all.append(result) }
            return all
        }
        for result in results {
            #expect(result == expected)
        }
    }
}

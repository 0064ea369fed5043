import Testing
@testable import PatternEngine

@Suite struct RegexParserTests {
    @Test(arguments: [
        "a|", "|", "()", "(?:)", "(?i)abc", "(?i:a)b", "(?P<name>x)", "(?<name>x)", "a{0,1000}", "a{3}", "a{2,}",
        "[[:alpha:][:digit:]]", #"\p{Lu}\pL\P{N}\p{gc=Nd}\p{Letter}\p{Uppercase_Letter}\p{Alphabetic}"#,
        #"\x{1F600}\u00e9\U0001F600\x41\u{41}"#, "a*?b+?c??d{2}?", "(?x) a # comment", "(?s).", "(?U)a*",
        #"\A\z\b\B^$"#, #"[\w\s-]"#, "[-a]", "[a-]", "[]]", "[^]a]", #"\-\#\&\~\ "#, "(?m)^a", "(?is-x:a)",
        #"[\x00-\x{10FFFF}]"#, "[[a-z]&]", #"\a\f\t\n\r\v"#,
    ])
    func acceptsPattern(_ pattern: String) {
        _ = compileForTest(pattern)
    }

    @Test func reportsCaptureNames() throws {
        let regex = try CompiledRegex(#"(?P<year>\d{4})-(\d{2})-(?<day>\d{2})"#)
        #expect(regex.captureCount == 3)
        #expect(regex.captureNames == [nil, "year", nil, "day"])
        #expect(regex.pattern == #"(?P<year>\d{4})-(\d{2})-(?<day>\d{2})"#)
    }

    /// (pattern, expected message fragment, expected UTF-8 offset or nil to skip the offset).
    static let rejected: [(String, String, Int?)] = [
        ("(?=a)", "look-ahead", 0),
        ("(?!a)", "look-ahead", 0),
        ("a(?<=b)", "look-behind", 1),
        ("(?<!b)", "look-behind", 0),
        (#"(a)\1"#, "backreference", 3),
        (#"\k<a>"#, "backreference", 0),
        ("a*+", "possessive", 2),
        ("(?>a)", "atomic", 0),
        (#"\q"#, "unknown escape", 0),
        ("ab(c", "unclosed group", 2),
        ("ab)c", "unmatched closing", 2),
        ("[z-a]", "invalid class range", 1),
        ("a{1001}", "above 1000", 1),
        ("a{3,2}", "minimum exceeds", 1),
        ("[abc", "unclosed character class", 0),
        ("*a", "nothing to repeat", 0),
        ("a**", "nested repetition", 2),
        ("é(", "unclosed group", 2),
        (#"\p{Greek}"#, "scripts are not", 0),
        ("(?-m)a", "multi-line", 3),
        ("(?P<n>a)(?P<n>b)", "duplicate group name", 12),
        (#"x\"#, "trailing backslash", 1),
        ("(?z)", "unknown flag", 2),
        ("a{2", "unclosed counted", 1),
        (#"\x{110000}"#, "not a Unicode scalar", 0),
        ("[a&&b]", "set operations", 2),
        ("[[:foo:]]", "unknown POSIX class", 1),
        (#"[\b]"#, "not allowed inside a character class", 1),
        ("((a{100}){100}){100}", "too large", nil),
        ("(?)", "empty flag group", 0),
    ]

    @Test(arguments: rejected)
    func rejectsPattern(_ pattern: String, _ fragment: String, _ offset: Int?) {
        do {
            _ = try CompiledRegex(pattern)
            Issue.record("pattern \(pattern) was accepted")
        } catch {
            #expect(error.message.contains(fragment), "\(pattern): \(error.message)")
            if let offset {
                #expect(error.patternUTF8Offset == offset, "\(pattern): \(error)")
            }
        }
    }

    @Test func reportsPrefixLiterals() throws {
        let table: [(String, [String]?)] = [
            ("TODO|FIXME", ["TODO", "FIXME"]),
            (#"\bTODO\b"#, ["TODO"]),
            ("#[0-9a-f]{6}", ["#"]),
            ("a?b", ["ab", "b"]),
            (#"\d+"#, nil),
            ("x*", nil),
            ("(?i)ab", ["AB", "Ab", "aB", "ab"]),
        ]
        for (pattern, expected) in table {
            let regex = try CompiledRegex(pattern)
            let actual = regex.prefixLiterals.map { $0.map { String(decoding: $0, as: UTF8.self) } }
            #expect(actual.map { Set($0) } == expected.map { Set($0) }, "\(pattern)")
        }
    }

    @Test func reportsWhetherMatchesCanSpanLines() throws {
        #expect(try CompiledRegex("a.b").canMatchLineTerminator == false)
        #expect(try CompiledRegex(#"a\sb"#).canMatchLineTerminator == true)
        #expect(try CompiledRegex("(?s)a.b").canMatchLineTerminator == true)
        #expect(try CompiledRegex("[^x]").canMatchLineTerminator == true)
        #expect(try CompiledRegex(#"\bTODO\b"#).canMatchLineTerminator == false)
    }
}

import Testing
@testable import PatternEngine

@Suite struct RegexParserTests {
    @Test(arguments: [
        "a|", "|", "()", "(?:)", "(?i)abc", "(?i:a)b", "(?P<name>x)", "(?<name>x)", "a{0,1000}", "a{3}", "a{2,}",
        "[[:alpha:][:digit:]]", #"\p{Lu}\pL\P{N}\p{gc=Nd}\p{Letter}\p{Uppercase_Letter}\p{Alphabetic}"#,
        #"\x{1F600}\u00e9\U0001F600\x41\u{41}"#, "a*?b+?c??d{2}?", "(?x) a # comment", "(?s).", "(?U)a*",
        #"\A\z\b\B^$"#, #"[\w\s-]"#, "[-a]", "[a-]", "[]]", "[^]a]", #"\-\#\&\~\ "#, "(?m)^a", "(?is-x:a)",
        #"[\x00-\x{10FFFF}]"#, "[[a-z]&]", #"\a\f\t\n\r\v"#,
        // RE2's own rules, checked against RE2 (Tests/re2).
        "a{,2}", "a{2", "{", "x{a}", "x{1,2,3}", "a{1000}", "(a{10}){100}", "(?U)a", "(?-m)a", "(?m-s)a", "(?)a",
        "(?i:)", #"\Qa.b\E"#, #"\Qa.b"#, #"\0"#, #"\01"#, #"\012"#, #"\_"#, #"\ "#, #"\x{D800}"#,
        #"\p{Greek}"#, #"\p{Han}"#, #"\p{^Greek}"#, #"\P{^Greek}"#, #"\pLu"#, #"\p{Any}"#, #"\p{Common}"#,
        "[a&&b]", "[[a]]", "[a[]", "[[=a=]]", #"[\d-z]"#, "[]-a]", "(?P<1>a)", "(?P<é>a)", "^*", #"\b*"#, "(|a)*",
        #"a\Q\E*"#, "a(?i)*", "x{2}{,3}", #"[\x{D800}-\x{E000}]"#, #"\x{000000041}"#,
        // Extensions beyond RE2 (README): Unicode classes, CRLF mode, extended syntax, script extensions.
        "(?u)\\w", "(?-R)^", #"\p{scx=Greek}"#, #"\p{sc=Grek}"#, #"\p{Alphabetic}"#, #"\u00e9"#,
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
        ("a*??", "nested repetition", 3),
        ("a{2}{3}", "nested repetition", 4),
        ("a{2}*", "nested repetition", 4),
        (#"\Q\E*"#, "nothing to repeat", 4),
        ("(a{100}){100}", "more than 1000 times", 2),
        ("(?:a{30}){34}", "more than 1000 times", 4),
        ("a{1001,}", "above 1000", 1),
        (#"\1"#, "backreference", 0),
        (#"\8"#, "backreference", 0),
        (#"\18"#, "backreference", 0),
        (#"\e"#, "unknown escape", 0),
        (#"\C"#, "unknown escape", 0),
        (#"\Z"#, "unknown escape", 0),
        (#"\E"#, "unknown escape", 0),
        (#"[\Qa\E]"#, "unknown escape", 1),
        (#"\x4"#, "needs 2 digits", 0),
        (#"\x{}"#, "invalid hexadecimal escape", 0),
        (#"\p{greek}"#, "unknown Unicode property", 0),
        (#"\p{Arab}"#, "unknown Unicode property", 0),
        (#"\p{Cn}"#, "unknown Unicode property", 0),
        (#"\p{any}"#, "unknown Unicode property", 0),
        (#"\pé"#, "unknown Unicode property", 0),
        ("[a--b]", "invalid class range", 1),
        (#"[a-\d]"#, "must end in a single character", 3),
        ("(?P<a.b>a)", "invalid character in group name", 5),
        ("(?i-)a", "must be followed by a flag", 4),
        ("(?--i)a", "repeated '-'", 3),
        ("é(", "unclosed group", 2),
        ("(?P<n>a)(?P<n>b)", "duplicate group name", 12),
        (#"x\"#, "trailing backslash", 1),
        ("(?z)", "unknown flag", 2),
        (#"\x{110000}"#, "above U+10FFFF", 0),
        ("[[:foo:]]", "unknown POSIX class", 1),
        (#"[\b]"#, "not allowed inside a character class", 1),
        ("((a{100}){100}){100}", "more than 1000 times", 9),
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

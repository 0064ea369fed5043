import Testing
@testable import PatternEngine

/// Table-driven tests of the rule set, every table run against every automaton variant and the reference engine.
@Suite struct RuleSetTests {
    /// One table row: rules, a text, and the expected `(rule, start, end)` matches in UTF-8 byte offsets.
    struct Case: Sendable, CustomStringConvertible {
        var name: String
        var rules: [Rule]
        var text: String
        var expected: [Expected]
        var description: String { name }

        init(_ name: String, _ rules: [Rule], _ text: String, _ expected: [(Int, Int, Int)]) {
            self.name = name
            self.rules = rules
            self.text = text
            self.expected = expected.map { Expected(rule: $0.0, start: $0.1, end: $0.2) }
        }
    }

    /// An expected match.
    struct Expected: Sendable, Equatable {
        var rule: Int
        var start: Int
        var end: Int
    }

    /// Every automaton kind bare and with its prefilter, each as one walk and as two walks stepped together whatever
    /// the text's length, and with the fingerprint search whenever the words allow it.
    static let configurations: [LiteralAutomaton.Configuration] = LiteralAutomaton.Kind.allCases.flatMap { kind in
        [(false, false, false), (true, false, false), (false, false, true), (true, false, true), (true, true, false)].map {
            var configuration = LiteralAutomaton.Configuration(
                kind: kind, usesPrefilter: $0.0, denseByteBudget: 16 << 20, usesFingerprintSearch: $0.1)
            configuration.forcesFingerprintSearch = $0.1
            if $0.2 { configuration.twoWalksFrom = 1 }
            return configuration
        }
    }

    /// Runs one case against every variant and the reference engine.
    func check(_ testCase: Case, sourceLocation: SourceLocation = #_sourceLocation) {
        let text = Array(testCase.text.utf8)
        let reference = ReferenceRuleMatcher.matches(rules: testCase.rules, in: text)
            .map { Expected(rule: $0.ruleIndex, start: $0.utf8Range.lowerBound, end: $0.utf8Range.upperBound) }
        #expect(reference == testCase.expected, "reference engine: \(testCase.name)", sourceLocation: sourceLocation)
        for configuration in Self.configurations {
            let ruleSet = RuleSet(rules: testCase.rules, limits: .default, automatonConfiguration: configuration)
            let result = ruleSet.matches(in: text)
            let actual = result.matches.map {
                Expected(rule: $0.ruleIndex, start: $0.utf8Range.lowerBound, end: $0.utf8Range.upperBound)
            }
            #expect(actual == testCase.expected, "\(testCase.name) with \(configuration)", sourceLocation: sourceLocation)
            #expect(!result.truncated, sourceLocation: sourceLocation)
        }
    }

    @Test(arguments: basicsCases) func basics(_ testCase: Case) { check(testCase) }
    @Test(arguments: leftmostLongestCases) func leftmostLongest(_ testCase: Case) { check(testCase) }
    @Test(arguments: ruleOrderCases) func ruleOrder(_ testCase: Case) { check(testCase) }
    @Test(arguments: caseFoldingCases) func caseFolding(_ testCase: Case) { check(testCase) }
    @Test(arguments: wordBoundariesCases) func wordBoundaries(_ testCase: Case) { check(testCase) }
    @Test(arguments: regexRulesCases) func regexRules(_ testCase: Case) { check(testCase) }
    @Test(arguments: zeroLengthCases) func zeroLength(_ testCase: Case) { check(testCase) }
    @Test(arguments: regressionsCases) func regressions(_ testCase: Case) { check(testCase) }
    @Test(arguments: prefilterCases) func prefilters(_ testCase: Case) { check(testCase) }
}

/// A words rule.
func words(_ list: String..., caseSensitive: Bool = true, wholeWord: Bool = false) -> Rule {
    Rule(name: list.joined(separator: "|"), pattern: .words(list), caseSensitive: caseSensitive, wholeWord: wholeWord)
}

/// A regex rule.
func regex(_ pattern: String, caseSensitive: Bool = true, wholeWord: Bool = false) -> Rule {
    Rule(name: pattern, pattern: .regex(pattern), caseSensitive: caseSensitive, wholeWord: wholeWord)
}

extension RuleSetTests {
    static let basicsCases: [Case] = [
        Case("single word", [words("TODO")], "a TODO b TODO", [(0, 2, 6), (0, 9, 13)]),
        Case("no match", [words("xyz")], "abc", []),
        Case("several words in one rule", [words("foo", "bar")], "foo bar baz", [(0, 0, 3), (0, 4, 7)]),
        Case("punctuation is literal", [words("* TODO:")], "x * TODO: y", [(0, 2, 9)]),
        Case("parenthesis is literal", [words("dump(")], "dump(x) dump", [(0, 0, 5)]),
        Case("brackets are literal", [words("[x]")], "- [x] done [ ]", [(0, 2, 5)]),
        Case("adjacent matches", [words("ab")], "ababab", [(0, 0, 2), (0, 2, 4), (0, 4, 6)]),
        Case("no self-overlap", [words("aa")], "aaaaa", [(0, 0, 2), (0, 2, 4)]),
        Case("accented word", [words("café")], "un café!", [(0, 3, 8)]),
        Case("emoji word", [words("🔥")], "a🔥b", [(0, 1, 5)]),
        Case("empty text", [words("a")], "", []),
        Case("word across a line break", [words("a\nb")], "x a\nb", [(0, 2, 5)]),
        Case("word with CRLF", [words("x\r\n")], "ax\r\nx\n", [(0, 1, 4)]),
        Case("no rules", [], "anything", []),
    ]

    static let leftmostLongestCases: [Case] = [
        Case("Sam|Samwise", [words("Sam", "Samwise")], "Samwise", [(0, 0, 7)]),
        Case("Samwise|Sam", [words("Samwise", "Sam")], "Samwise", [(0, 0, 7)]),
        Case("Sam then Samwise", [words("Sam", "Samwise")], "Sam Samwise", [(0, 0, 3), (0, 4, 11)]),
        Case("leftmost beats longer later", [words("abcd", "bcdefgh")], "abcdefgh", [(0, 0, 4)]),
        Case("shorter inside a failed longer", [words("abcd", "bc")], "abcx", [(0, 1, 3)]),
        Case("longer inside a failed longer", [words("abcd", "bc", "bcx")], "abcx", [(0, 1, 4)]),
        Case("longest across rules", [words("foo"), words("foobar")], "foobar", [(1, 0, 6)]),
        Case("nested suffixes", [words("he", "she", "his", "hers")], "ushers", [(0, 1, 4)]),
        Case("short words while a long one is pending", [words("a", "aaab")], "aaaa",
             [(0, 0, 1), (0, 1, 2), (0, 2, 3), (0, 3, 4)]),
        Case("long word after a short one", [words("a", "aaab")], "aaaab", [(0, 0, 1), (0, 1, 5)]),
    ]

    static let ruleOrderCases: [Case] = [
        Case("same word in two rules", [words("x"), words("x")], "x", [(0, 0, 1)]),
        Case("case-insensitive first", [words("TODO", caseSensitive: false), words("TODO")], "TODO", [(0, 0, 4)]),
        Case("case-sensitive rule does not match", [words("todo"), words("TODO", caseSensitive: false)], "TODO",
             [(1, 0, 4)]),
        Case("equal length, first rule", [words("ab"), words("a", "ab")], "ab", [(0, 0, 2)]),
        Case("regex listed first wins a tie", [regex("fo+"), words("foo")], "foo", [(0, 0, 3)]),
        Case("word listed first wins a tie", [words("foo"), regex("fo+")], "foo", [(0, 0, 3)]),
        Case("longer regex beats earlier word", [words("foo"), regex("fo+")], "fooo", [(1, 0, 4)]),
    ]

    static let caseFoldingCases: [Case] = [
        Case("ASCII folding", [words("todo", caseSensitive: false)], "ToDo TODO todo",
             [(0, 0, 4), (0, 5, 9), (0, 10, 14)]),
        Case("case-sensitive does not fold", [words("todo")], "TODO", []),
        Case("CAFÉ matches café", [words("CAFÉ", caseSensitive: false)], "un café", [(0, 3, 8)]),
        Case("KELVIN SIGN in the text", [words("kind", caseSensitive: false)], "\u{212A}ind", [(0, 0, 6)]),
        Case("KELVIN SIGN in the word", [words("\u{212A}", caseSensitive: false)], "k K", [(0, 0, 1), (0, 2, 3)]),
        Case("long s", [words("sus", caseSensitive: false)], "ſuS", [(0, 0, 4)]),
        Case("final sigma", [words("ΣΑΣ", caseSensitive: false)], "σας", [(0, 0, 6)]),
        Case("dotless i is not i", [words("i", caseSensitive: false)], "ı İ", []),
        Case("mixed sensitivity", [words("Foo"), words("bar", caseSensitive: false)], "foo Foo BAR",
             [(0, 4, 7), (1, 8, 11)]),
        Case("case-sensitive word over folded letters", [words("AB"), words("ab", caseSensitive: false)], "AB ab Ab",
             [(0, 0, 2), (1, 3, 5), (1, 6, 8)]),
        Case("too many variants becomes a regex", [words("sssssss", caseSensitive: false)], "xSSSSSSSx",
             [(0, 1, 8)]),
        Case("case-insensitive non-letters", [words("a-1_é", caseSensitive: false)], "A-1_É", [(0, 0, 6)]),
    ]

    static let wordBoundariesCases: [Case] = [
        Case("failed longer word does not hide a later one", [words("foo", "foobar", wholeWord: true)], "foobarx foo",
             [(0, 8, 11)]),
        Case("word characters around", [words("foo", wholeWord: true)], "foo food afoo foo_ foo",
             [(0, 0, 3), (0, 19, 22)]),
        // Both neighbours are checked, whatever the word's own first and last characters are.
        Case("edges that are not word characters", [words("* TODO:", wholeWord: true)], "a* TODO:b * TODO: ",
             [(0, 10, 17)]),
        Case("punctuation edges touching letters", [words("-x", "x:", wholeWord: true)], "a-x x:y -x x:",
             [(0, 8, 10), (0, 11, 13)]),
        Case("a shorter word when the longer one fails", [words("a", "a-b", wholeWord: true)], "a-bc", [(0, 0, 1)]),
        Case("accented letters are word characters", [words("foo", wholeWord: true)], "éfoo foo", [(0, 6, 9)]),
        Case("combining marks are word characters", [words("cafe", wholeWord: true)], "cafe\u{301} cafe",
             [(0, 7, 11)]),
        Case("digits are word characters", [words("v1", wholeWord: true)], "v12 v1", [(0, 4, 6)]),
        Case("failed longer word does not hide another rule", [words("foobar", wholeWord: true), words("foo")],
             "foobarx", [(1, 0, 3)]),
        Case("failed word does not hide a later start", [words("abc", wholeWord: true), words("bcd")], "xabcd",
             [(1, 2, 5)]),
        Case("CJK letters are word characters", [words("中", wholeWord: true)], "中文 中", [(0, 7, 10)]),
        Case("emoji are not word characters", [words("ok", wholeWord: true)], "🔥ok🔥", [(0, 4, 6)]),
        Case("case-insensitive whole word", [words("todo", caseSensitive: false, wholeWord: true)], "TODOs TODO",
             [(0, 6, 10)]),
    ]

    static let regexRulesCases: [Case] = [
        Case("alternation", [regex("TODO|FIXME")], "a TODO FIXME", [(0, 2, 6), (0, 7, 12)]),
        Case("ticket ids", [regex("\\b[A-Z]{2,}-\\d+\\b")], "see ABC-123 and X-1", [(0, 4, 11)]),
        Case("longer regex beats a word", [words("ABC"), regex("[A-Z]+-\\d+")], "ABC-12", [(1, 0, 6)]),
        Case("whole-word regex skips a run", [regex("a+", wholeWord: true)], "baaa aa", [(0, 5, 7)]),
        Case("whole-word regex fails on its end", [regex("ab|a", wholeWord: true)], "abc a", [(0, 4, 5)]),
        // The regex offers its preferred match that passes the check, as a list of words does.
        Case("whole-word regex tries the other matches at a start", [regex("a|a-b", wholeWord: true)], "a-bc", [(0, 0, 1)]),
        Case("whole-word regex falls back to a shorter match", [regex("a-b|a", wholeWord: true)], "a-bc", [(0, 0, 1)]),
        Case("whole-word regex with punctuation edges", [regex("-x|x:", wholeWord: true)], "a-x x:y -x", [(0, 8, 10)]),
        // Within a regex, RE2's leftmost-first; across rules, leftmost then longest then first rule.
        Case("lazy regex against a longer word", [regex("TODO\\(.*?\\)"), words("TODO(a) and")],
             "TODO(a) and TODO(b)", [(1, 0, 11), (0, 12, 19)]),
        Case("first alternative of a regex", [regex("Sam|Samwise")], "Samwise", [(0, 0, 3)]),
        Case("hex colour", [regex("#[0-9a-fA-F]{6}\\b")], "color: #ff00AA;", [(0, 7, 14)]),
        Case("regex across lines", [regex("a\\sb")], "a\nb", [(0, 0, 3)]),
        Case("case-insensitive regex", [regex("todo", caseSensitive: false)], "TODO", [(0, 0, 4)]),
        Case("regex and words interleaved", [words("x"), regex("y+")], "xyyxy", [(0, 0, 1), (1, 1, 3), (0, 3, 4), (1, 4, 5)]),
    ]

    static let zeroLengthCases: [Case] = [
        Case("star skips empty matches", [regex("x*")], "axxb", [(0, 1, 3)]),
        Case("anchor alone never matches", [regex("^")], "a\nb", []),
        Case("optional", [regex("a?")], "bab", [(0, 1, 2)]),
    ]

    static let regressionsCases: [Case] = [
        Case("prefilter after a partial match", [words("abc", "bcd")], "ababcd", [(0, 2, 5)]),
        Case("candidate survives a failure", [words("abcde", "cd")], "abcdx", [(0, 2, 4)]),
        Case("duplicate words", [words("a", "a")], "a", [(0, 0, 1)]),
        Case("empty word is ignored", [words("", "x")], "x", [(0, 0, 1)]),
        Case("case-sensitive twin of a folded word", [words("Ab"), words("aB")], "aB Ab", [(1, 0, 2), (0, 3, 5)]),
        Case("first-byte table prefilter", [words("TODO", "FIXME", "XXX", "HACK")], "a TODO b FIXME HACK XXX",
             [(0, 2, 6), (0, 9, 14), (0, 15, 19), (0, 20, 23)]),
        Case("rare byte inside a lone word", [words("abQ")], "QabQ abQ ab", [(0, 1, 4), (0, 5, 8)]),
        Case("rare byte of a case-insensitive lone word", [words("abq", caseSensitive: false)], "ABQabq", [(0, 0, 3), (0, 3, 6)]),
    ]

    /// Prefilters that pick rare bytes or pairs at different places in different words.
    static let prefilterCases: [Case] = [
        // `Qz` is found first, but the longer word that contains it starts earlier.
        Case("later pick of an earlier word", [words("Qz", "abcdeQz")], "abcdeQz Qz", [(0, 0, 7), (0, 8, 10)]),
        Case("a word's pick lies after another word's hit", [words("ZZ1", "aaaaaaaaaaZZ2")], "aaaaaaaaaaZZ1 aaaaaaaaaaZZ2",
             [(0, 10, 13), (0, 14, 27)]),
        Case("pairs with folded letters", [words("xQ", "abxQ", caseSensitive: false)], "ABXQ abxq xq",
             [(0, 0, 4), (0, 5, 9), (0, 10, 12)]),
        Case("verified pair fails whole word", [words("parseQuery", "Query", wholeWord: true)], "xparseQuery Query",
             [(0, 12, 17)]),
        Case("pair at the very end", [words("the", "and", "or", "if")], "fif or", [(0, 1, 3), (0, 4, 6)]),
        Case("common pairs of many words", [words("ueoffkey", "offitem", "lineline52", "questputcount", "putNodeDex89")],
             "offitemueoffkeyquestputcountlineline5 lineline52putNodeDex89",
             [(0, 0, 7), (0, 7, 15), (0, 15, 28), (0, 38, 48), (0, 48, 60)]),
        Case("non-ASCII pairs", [words("café", "naïve", caseSensitive: false)], "CAFÉ naÏve cafe", [(0, 0, 5), (0, 6, 12)]),
    ]
}

import Testing
@testable import PatternEngine

/// Errors, limits, sub-range searches and the facts the server reads off a rule set.
@Suite struct RuleSetBehaviourTests {
    @Test func invalidRulesAreReportedAndTheOthersWork() {
        let ruleSet = RuleSet(rules: [words("", "x"), regex("(a"), words(), words("y")])
        #expect(ruleSet.errors.map(\.ruleIndex) == [0, 1, 2])
        #expect(ruleSet.errors[0].wordIndex == 0)
        #expect(ruleSet.errors[1].patternUTF8Offset != nil)
        #expect(ruleSet.errors[2].wordIndex == nil)
        let found = ruleSet.matches(in: Array("x (a y".utf8)).matches
        #expect(found == [Match(ruleIndex: 0, utf8Range: 0..<1), Match(ruleIndex: 3, utf8Range: 5..<6)])
    }

    /// One truncation case: a limit, and what the search must say.
    struct LimitCase: Sendable, CustomStringConvertible {
        var name: String
        var maximumMatchCount: Int?
        var text: String
        var expectedCount: Int
        var expectedTruncated: Bool
        var description: String { name }
    }

    static let limitCases: [LimitCase] = [
        LimitCase(name: "no limit", maximumMatchCount: nil, text: "a a a", expectedCount: 3, expectedTruncated: false),
        LimitCase(name: "limit above the count", maximumMatchCount: 5, text: "a a a", expectedCount: 3, expectedTruncated: false),
        LimitCase(name: "limit equal to the count", maximumMatchCount: 3, text: "a a a", expectedCount: 3, expectedTruncated: false),
        LimitCase(name: "limit below the count", maximumMatchCount: 2, text: "a a a", expectedCount: 2, expectedTruncated: true),
        LimitCase(name: "zero", maximumMatchCount: 0, text: "a", expectedCount: 0, expectedTruncated: true),
        LimitCase(name: "zero without matches", maximumMatchCount: 0, text: "b", expectedCount: 0, expectedTruncated: false),
        LimitCase(name: "regex matches count too", maximumMatchCount: 2, text: "zz a zzz", expectedCount: 2, expectedTruncated: true),
        LimitCase(name: "limit reached by the last match", maximumMatchCount: 2, text: "zz a", expectedCount: 2,
                  expectedTruncated: false),
    ]

    @Test(arguments: limitCases)
    func matchLimitSaysWhenItTruncates(_ testCase: LimitCase) {
        let ruleSet = RuleSet(rules: [words("a"), regex("z+")], limits: RuleSet.Limits(maximumMatchCount: testCase.maximumMatchCount))
        let result = ruleSet.matches(in: Array(testCase.text.utf8))
        #expect(result.matches.count == testCase.expectedCount)
        #expect(result.truncated == testCase.expectedTruncated)
    }

    /// One rule over a size limit: a clear error with its place in the pattern, and the other rules still work.
    struct SizeLimitCase: Sendable, CustomStringConvertible {
        var pattern: String
        var messageFragment: String
        var patternUTF8Offset: Int
        var description: String { pattern }
    }

    static let sizeLimitCases: [SizeLimitCase] = [
        // The offset is that of the repetition being expanded when the limit was hit.
        SizeLimitCase(pattern: "x(?u)\\w{1000}", messageFragment: "too large", patternUTF8Offset: 7),
        // As in RE2, nested counts may not multiply past 1000; the offset is the count where they do.
        SizeLimitCase(pattern: "((a{100}){100}){100}", messageFragment: "more than 1000 times", patternUTF8Offset: 9),
        SizeLimitCase(pattern: "ab{1001}", messageFragment: "repetition count above 1000", patternUTF8Offset: 2),
    ]

    @Test(arguments: sizeLimitCases)
    func compilationSizeLimitsAreErrors(_ testCase: SizeLimitCase) {
        let ruleSet = RuleSet(rules: [regex(testCase.pattern), words("ok")])
        #expect(ruleSet.errors.count == 1)
        #expect(ruleSet.errors.first?.message.contains(testCase.messageFragment) == true, "\(ruleSet.errors)")
        #expect(ruleSet.errors.first?.patternUTF8Offset == testCase.patternUTF8Offset)
        #expect(ruleSet.matches(in: Array("x ok".utf8)).matches == [Match(ruleIndex: 1, utf8Range: 2..<4)])
    }

    @Test func subRangeUsesOutsideBytesAsContext() {
        let ruleSet = RuleSet(rules: [words("foo", wholeWord: true), regex("^b+")])
        let text = Array("xfoo foo\nbbb foo".utf8)
        text.withUnsafeBufferPointer { buffer in
            // `foo` at 1 is preceded by `x` outside the range; a match may end after the range.
            #expect(ruleSet.matches(in: buffer, startingIn: 1..<6).matches == [Match(ruleIndex: 0, utf8Range: 5..<8)])
            #expect(ruleSet.matches(in: buffer, startingIn: 9..<10).matches == [Match(ruleIndex: 1, utf8Range: 9..<12)])
            #expect(ruleSet.matches(in: buffer, startingIn: 10..<12).matches == [])
            // Bad ranges are clamped, never trapped.
            #expect(ruleSet.matches(in: buffer, startingIn: -5..<100).matches.count == 3)
            #expect(ruleSet.matches(in: buffer, startingIn: 50..<60).matches == [])
        }
    }

    /// One case of the facts a server reads: the longest match and whether a match can cross a line.
    struct ShapeCase: Sendable, CustomStringConvertible {
        var name: String
        var rules: [Rule]
        var maximumMatchUTF8Length: Int?
        var canMatchLineTerminator: Bool
        var description: String { name }
    }

    static let shapeCases: [ShapeCase] = [
        ShapeCase(name: "no rules", rules: [], maximumMatchUTF8Length: 0, canMatchLineTerminator: false),
        ShapeCase(name: "words", rules: [words("TODO", "FIXME")], maximumMatchUTF8Length: 5, canMatchLineTerminator: false),
        ShapeCase(name: "KELVIN SIGN is longer than k", rules: [words("ok", caseSensitive: false)],
                  maximumMatchUTF8Length: 4, canMatchLineTerminator: false),
        ShapeCase(name: "word with a newline", rules: [words("a\nb")], maximumMatchUTF8Length: 3, canMatchLineTerminator: true),
        ShapeCase(name: "regex is unbounded", rules: [words("a"), regex("b+")], maximumMatchUTF8Length: nil,
                  canMatchLineTerminator: false),
        // `\s` is ASCII (RE2); under (?u), U+3000 IDEOGRAPHIC SPACE is the longest: three bytes.
        ShapeCase(name: "regex with \\s", rules: [regex("a\\sb")], maximumMatchUTF8Length: 3, canMatchLineTerminator: true),
        ShapeCase(name: "regex with (?u)\\s", rules: [regex("a(?u)\\sb")], maximumMatchUTF8Length: 5,
                  canMatchLineTerminator: true),
        ShapeCase(name: "bounded regex", rules: [words("TODO"), regex("#[0-9a-fA-F]{6}\\b")], maximumMatchUTF8Length: 7,
                  canMatchLineTerminator: false),
        ShapeCase(name: "counted repetition", rules: [regex("(a|bcd)?x{2,5}")], maximumMatchUTF8Length: 8,
                  canMatchLineTerminator: false),
        ShapeCase(name: "case-insensitive regex counts KELVIN SIGN", rules: [regex("ok", caseSensitive: false)],
                  maximumMatchUTF8Length: 4, canMatchLineTerminator: false),
        ShapeCase(name: "repeated assertion adds nothing", rules: [regex("x(\\b)*")], maximumMatchUTF8Length: 1,
                  canMatchLineTerminator: false),
        ShapeCase(name: "longer word than regex", rules: [regex("ab?"), words("abcdef")], maximumMatchUTF8Length: 6,
                  canMatchLineTerminator: false),
    ]

    @Test(arguments: shapeCases)
    func shapeOfMatches(_ testCase: ShapeCase) {
        let ruleSet = RuleSet(rules: testCase.rules)
        #expect(ruleSet.maximumMatchUTF8Length == testCase.maximumMatchUTF8Length)
        #expect(ruleSet.canMatchLineTerminator == testCase.canMatchLineTerminator)
    }

    @Test func largeWordListsFallBackToTheSparseAutomaton() {
        let list = (0..<300).map { "word\($0)x" }
        let text = Array("a word17x b word299x word3".utf8)
        let tiny = RuleSet(rules: [words(list)], limits: RuleSet.Limits(denseAutomatonByteBudget: 1024))
        let roomy = RuleSet(rules: [words(list)])
        #expect(tiny.literalAutomaton?.kind == .sparse)
        #expect(roomy.literalAutomaton?.kind == .dense)
        #expect(tiny.matches(in: text) == roomy.matches(in: text))
        #expect(roomy.matches(in: text).matches.count == 2)
    }

    @Test func prefilterIsChosenByTheWords() {
        func scan(_ rules: [Rule]) -> String {
            guard let prefilter = RuleSet(rules: rules).literalAutomaton?.prefilter else { return "none" }
            switch prefilter.scan {
            case .rareBytes(let rare): return rare.description
            case .rarePairs(let pairs): return pairs.description
            case .table: return "table"
            }
        }
        #expect(scan([words("TODO", "FIXME", "XXX", "HACK")]) == "rareBytes([68, 70, 72, 88], maxOffset: 2)")
        #expect(scan([words("abQ")]) == "rareBytes([81], maxOffset: 2)")
        #expect(scan([words("abq", caseSensitive: false)]) == "rareBytes([81, 113], maxOffset: 2)")
        // Words share a rare byte when they can.
        #expect(scan([words("x1"), words("x2")]) == "rareBytes([120], maxOffset: 0)")
        #expect(scan([words("jump"), words("ajar"), words("zone")]) == "rareBytes([106, 122], maxOffset: 1)")
        // Common letters alone: adjacent pairs are rarer than any single byte.
        #expect(scan([words("the", "and", "or", "if")]) == "rarePairs(if@0 nd@1 or@0 th@0)")
        #expect(scan([words("Aa", "Bb", "Cc", "Dd", "Ee", "Ff", "Gg", "Hh", "Ii")])
            == "rarePairs(Aa@0 Bb@0 Cc@0 Dd@0 Ee@0 Ff@0 Gg@0 Hh@0 Ii@0)")
        // Nine one-byte words fit neither the byte scan (eight at most) nor pairs; rare first bytes allow the table.
        #expect(scan([words("A", "B", "C", "D", "E", "F", "G", "H", "I")]) == "table")
        // Common one-byte words: no prefilter pays.
        #expect(scan([words("e", "t", "a", "o")]) == "none")
    }

    @Test func escapedWordsMatchThemselves() {
        // The escaped form of a word must compile and match the word itself, whatever its punctuation.
        for word in ["a.b", "(x)", "[y]", "a|b", "1+1?", "{z}", "^$", "\\", "a*"] {
            let compiled = try? CompiledRegex(RegexEscaping.escaped(word), caseInsensitive: true)
            let text = Array(word.utf8)
            let found = text.withUnsafeBufferPointer { compiled?.firstMatch(in: $0, from: 0) }
            #expect(found == 0..<text.count, "\(word)")
        }
    }
}

/// A words rule from an array.
func words(_ list: [String], caseSensitive: Bool = true, wholeWord: Bool = false) -> Rule {
    Rule(name: "words", pattern: .words(list), caseSensitive: caseSensitive, wholeWord: wholeWord)
}

import Seeded
import Testing
@testable import PatternEngine

/// Random rule sets on random texts: the rule set (every automaton variant) must agree with the reference engine.
@Suite struct RuleSetDifferentialTests {

    /// Pieces of words and texts, chosen to collide often: case pairs, K/S look-alikes, sigmas, Turkic i, marks, CJK, emoji, CRLF.
    static let fragments = [
        "a", "b", "ab", "ba", "aa", "abc", "A", "B", "K", "k", "\u{212A}", "s", "S", "ſ", "é", "É", "e\u{301}",
        "中", "文", "🔥", "_", " ", "-", "\r\n", "\n", "\r", "x", "σ", "ς", "Σ", "ı", "I", "i", "İ", "1",
    ]

    /// Simple regexes in the common subset of regex syntaxes, and Unicode classes (compiled once per process).
    static let regexes = [
        "a+", "ab|b", "[a-c]+", "[0-9]+", "b?a", "x*y", "(ab)+", "[a-zA-Z_]+", "[^ ]+", "a\\sb", "k", "s+", "é+",
        "\\bab\\b", "^a", "b$", ".", "中+", "a(b|bc)", "[ks]+", "\\w+", "\\d", "\\bk\\w*",
    ]

    static func randomWord(_ generator: inout SplitMix64) -> String {
        (0..<Int.random(in: 1...3, using: &generator)).map { _ in fragments.randomElement(using: &generator) ?? "a" }
            .joined()
    }

    static func randomRules(_ generator: inout SplitMix64) -> [Rule] {
        (0..<Int.random(in: 1...4, using: &generator)).map { _ in
            let caseSensitive = Bool.random(using: &generator)
            let wholeWord = Int.random(in: 0..<3, using: &generator) == 0
            if Int.random(in: 0..<4, using: &generator) == 0 {
                let pattern = regexes.randomElement(using: &generator) ?? "a"
                return Rule(name: pattern, pattern: .regex(pattern), caseSensitive: caseSensitive, wholeWord: wholeWord)
            }
            let list = (0..<Int.random(in: 1...3, using: &generator)).map { _ in randomWord(&generator) }
            return Rule(name: "words", pattern: .words(list), caseSensitive: caseSensitive, wholeWord: wholeWord)
        }
    }

    static func randomText(_ generator: inout SplitMix64) -> [UInt8] {
        var text: [UInt8] = []
        for _ in 0..<Int.random(in: 0...24, using: &generator) {
            // Now and then a byte that is not valid UTF-8.
            if Int.random(in: 0..<40, using: &generator) == 0 {
                text.append([0xFF, 0x80, 0xC3].randomElement(using: &generator) ?? 0xFF)
            } else {
                text.append(contentsOf: (fragments.randomElement(using: &generator) ?? "a").utf8)
            }
        }
        return text
    }

    @Test func randomRuleSetsAgreeWithTheReference() {
        let baseSeed: UInt64 = 0x48_4C_2D_43
        let configurations = RuleSetTests.configurations
        for iteration in 0..<2_000 {
            let seed = baseSeed &+ UInt64(iteration)
            var generator = SplitMix64(seed: seed)
            let rules = Self.randomRules(&generator)
            let text = Self.randomText(&generator)
            let configuration = configurations[iteration % configurations.count]
            let ruleSet = RuleSet(rules: rules, limits: .default, automatonConfiguration: configuration)

            let expected = ReferenceRuleMatcher.matches(rules: rules, in: text)
            let actual = ruleSet.matches(in: text).matches
            #expect(actual == expected, "seed \(seed): rules \(rules.map(\.pattern)), text \(text)")

            // A random sub-range: matches that start inside it, with the rest of the text as context.
            let lower = Int.random(in: 0...text.count, using: &generator)
            let upper = Int.random(in: lower...text.count, using: &generator)
            let expectedInRange = ReferenceRuleMatcher.matches(rules: rules, in: text, startingIn: lower..<upper)
            let actualInRange = text.withUnsafeBufferPointer {
                ruleSet.matches(in: $0, startingIn: lower..<upper).matches
            }
            #expect(actualInRange == expectedInRange, "seed \(seed), range \(lower)..<\(upper)")

            // A predicate that depends on the rule and the start (as scopes do): rejected candidates hide nothing.
            let modulus = Int.random(in: 2...4, using: &generator)
            let accept: RuleSet.MatchFilter = { ruleIndex, range in (ruleIndex + range.lowerBound) % modulus != 0 }
            let expectedAccepted = ReferenceRuleMatcher.matches(rules: rules, in: text, accept: accept)
            let actualAccepted = text.withUnsafeBufferPointer {
                ruleSet.matches(in: $0, startingIn: 0..<$0.count, accept: accept).matches
            }
            #expect(actualAccepted == expectedAccepted, "seed \(seed), accept modulus \(modulus)")
            if actual != expected || actualInRange != expectedInRange || actualAccepted != expectedAccepted { return }
        }
    }

    /// One rule of `words` random words, each `piecesEach` random pieces joined, in any case one time in two and whole
    /// words one time in four; and the words.
    static func randomWordsRule(
        from pieces: [String], words: ClosedRange<Int>, piecesEach: ClosedRange<Int>, using generator: inout SplitMix64
    ) -> (rules: [Rule], words: [String]) {
        let list = (0..<Int.random(in: words, using: &generator)).map { _ in
            (0..<Int.random(in: piecesEach, using: &generator)).map { _ in pieces.randomElement(using: &generator) ?? "x" }.joined()
        }
        let rule = Rule(
            name: "words", pattern: .words(list), caseSensitive: Bool.random(using: &generator),
            wholeWord: Int.random(in: 0..<4, using: &generator) == 0)
        return ([rule], list)
    }

    /// The UTF-8 of a number of random pieces in `pieces`, joined.
    static func randomText(from pieces: [String], pieces count: ClosedRange<Int>, using generator: inout SplitMix64) -> [UInt8] {
        Array((0..<Int.random(in: count, using: &generator)).map { _ in pieces.randomElement(using: &generator) ?? "x" }.joined().utf8)
    }

    /// Many longer words over a small alphabet: the rare-byte and rare-pair prefilters meet many hits and near misses.
    @Test func manyWordsAgreeWithTheReference() {
        let baseSeed: UInt64 = 0x50_52_45_46
        let alphabet = ["a", "b", "Q", "z", "x", "_", "é", " ", "ab", "Qz"]
        let configurations = RuleSetTests.configurations
        for iteration in 0..<300 {
            let seed = baseSeed &+ UInt64(iteration)
            var generator = SplitMix64(seed: seed)
            let (rules, list) = Self.randomWordsRule(from: alphabet, words: 2...14, piecesEach: 1...6, using: &generator)
            let text = Self.randomText(from: alphabet, pieces: 0...80, using: &generator)
            let expected = ReferenceRuleMatcher.matches(rules: rules, in: text)
            for configuration in configurations {
                let actual = RuleSet(rules: rules, limits: .default, automatonConfiguration: configuration).matches(in: text).matches
                #expect(actual == expected, "seed \(seed), \(configuration): words \(list), text \(String(decoding: text, as: UTF8.self).debugDescription)")
                if actual != expected { return }
            }
        }
    }

    /// Two walks stepped together find what one walk finds: long texts of words and their pieces, where the middle falls
    /// inside matches and between them, so that the second half's matches are often taken up again only after some.
    @Test func twoWalksFindWhatOneFinds() {
        let baseSeed: UInt64 = 0x54_57_4F
        var compared = 0
        let vocabulary = ["parse", "Parse", "parser", "arse", "token", "tok", "en", "ToKeN", "node", "no", "de", "é", "中文", "_", " ", "\n", "x"]
        for iteration in 0..<40 {
            let seed = baseSeed &+ UInt64(iteration)
            var generator = SplitMix64(seed: seed)
            let (rules, words) = Self.randomWordsRule(from: vocabulary, words: 1...40, piecesEach: 1...3, using: &generator)
            let text = Self.randomText(from: vocabulary, pieces: 500...8_000, using: &generator)
            let lower = Int.random(in: 0...text.count / 4, using: &generator)
            let upper = Int.random(in: text.count / 2...text.count, using: &generator)
            for kind in LiteralAutomaton.Kind.allCases {
                for usesPrefilter in [false, true] {
                    var configuration = LiteralAutomaton.Configuration(
                        kind: kind, usesPrefilter: usesPrefilter, denseByteBudget: 16 << 20, usesFingerprintSearch: false)
                    configuration.twoWalksFrom = .max
                    let oneWalk = RuleSet(rules: rules, limits: .default, automatonConfiguration: configuration)
                    configuration.twoWalksFrom = 1
                    let twoWalks = RuleSet(rules: rules, limits: .default, automatonConfiguration: configuration)
                    let (expected, actual) = text.withUnsafeBufferPointer {
                        (oneWalk.matches(in: $0, startingIn: lower..<upper).matches,
                         twoWalks.matches(in: $0, startingIn: lower..<upper).matches)
                    }
                    compared += expected.count
                    #expect(actual == expected, "seed \(seed), \(kind), prefilter \(usesPrefilter), words \(words)")
                    if actual != expected { return }
                }
            }
        }
        #expect(compared > 10_000, "the words should occur")
    }

    /// Regexes with long look-aheads on long runs, competing with words and each other: the regexes' look-ahead
    /// memo (recorded past 32 bytes) must survive searches that restart after another rule's match.
    @Test func longLookAheadsAgreeWithTheReference() {
        let baseSeed: UInt64 = 0x4C_4F_4F_4B
        let regexes = ["a+b|a", "(aa)+b|a", "a(ba)*c|ab", ".*z|.", "(?:a|b)*bbb|b"]
        let pieces = ["a", "b", "ab", "ba", "z", " "]
        for iteration in 0..<40 {
            let seed = baseSeed &+ UInt64(iteration)
            var generator = SplitMix64(seed: seed)
            var rules: [Rule] = []
            for _ in 0..<Int.random(in: 1...3, using: &generator) {
                let pattern = regexes.randomElement(using: &generator) ?? "a"
                rules.append(Rule(name: pattern, pattern: .regex(pattern)))
            }
            if Bool.random(using: &generator) {
                rules.insert(Rule(name: "words", pattern: .words(["aa", "ab", "bab"])), at: Int.random(in: 0...rules.count, using: &generator))
            }
            var text: [UInt8] = []
            for _ in 0..<Int.random(in: 1...3, using: &generator) {
                let piece = Array((pieces.randomElement(using: &generator) ?? "a").utf8)
                for _ in 0..<Int.random(in: 1...40, using: &generator) where text.count < 90 { text += piece }
            }
            let expected = ReferenceRuleMatcher.matches(rules: rules, in: text)
            let actual = RuleSet(rules: rules).matches(in: text).matches
            #expect(actual == expected, "seed \(seed): rules \(rules.map(\.pattern)), text \(String(decoding: text, as: UTF8.self))")
            if actual != expected { return }
        }
    }
}

/// Regex candidates that lose to overlapping matches of other rules, again and again: the rule set's recorded starts of
/// where each regex's matches start (one backward pass) must resolve exactly as the brute-force reference.
@Suite struct LostCandidateTests {
    /// Long regexes that overlap the words and each other: some stay on a line, some cross lines, some are bounded.
    static let regexes = [
        "b[a-z]*c", "a[ab]*b", "[ab]+c|b", "(ab)+", "b.*c", "(?s)a.*c", "a[^c]*c", "\\bab\\w*", "ba{0,3}", "c\\n?a",
        "b[a-c]{2,6}", "a(b|bc)*a", "[a-c]+\\n[a-c]+", "\\w+$", "^b\\w*",
    ]
    static let words = ["ab", "ba", "abc", "bab", "c", "aa", "cab", "b"]
    static let pieces = ["a", "b", "c", "ab", "ba", "abab", " ", "\n", "bc", "\r\n"]

    static func randomRules(_ generator: inout SplitMix64) -> [Rule] {
        (0..<Int.random(in: 2...5, using: &generator)).map { index in
            if Int.random(in: 0..<5, using: &generator) < 2 {
                let list = (0..<Int.random(in: 1...3, using: &generator)).map { _ in words.randomElement(using: &generator) ?? "ab" }
                return Rule(name: "words\(index)", pattern: .words(list), wholeWord: Int.random(in: 0..<5, using: &generator) == 0)
            }
            let pattern = regexes.randomElement(using: &generator) ?? "b[a-z]*c"
            return Rule(
                name: pattern, pattern: .regex(pattern), caseSensitive: Int.random(in: 0..<4, using: &generator) != 0,
                wholeWord: Int.random(in: 0..<6, using: &generator) == 0)
        }
    }

    static func randomText(_ generator: inout SplitMix64) -> [UInt8] {
        var text: [UInt8] = []
        while text.count < Int.random(in: 20...160, using: &generator) {
            let piece = Array((pieces.randomElement(using: &generator) ?? "a").utf8)
            // Runs of one piece make long candidates that lose at every step.
            for _ in 0..<Int.random(in: 1...12, using: &generator) { text += piece }
        }
        return text
    }

    @Test func lostCandidatesResolveAsTheReference() {
        let baseSeed: UInt64 = 0x4C_4F_53_54
        for iteration in 0..<1_500 {
            let seed = baseSeed &+ UInt64(iteration)
            var generator = SplitMix64(seed: seed)
            let rules = Self.randomRules(&generator)
            let text = Self.randomText(&generator)
            let ruleSet = RuleSet(rules: rules)
            let describe = "seed \(seed): rules \(rules.map(\.pattern)), text \(String(decoding: text, as: UTF8.self).debugDescription)"

            let expected = ReferenceRuleMatcher.matches(rules: rules, in: text)
            let actual = ruleSet.matches(in: text).matches
            #expect(actual == expected, "\(describe)")

            let lower = Int.random(in: 0...text.count, using: &generator)
            let upper = Int.random(in: lower...text.count, using: &generator)
            let expectedInRange = ReferenceRuleMatcher.matches(rules: rules, in: text, startingIn: lower..<upper)
            let actualInRange = text.withUnsafeBufferPointer { ruleSet.matches(in: $0, startingIn: lower..<upper).matches }
            #expect(actualInRange == expectedInRange, "\(describe), range \(lower)..<\(upper)")

            let modulus = Int.random(in: 2...5, using: &generator)
            let accept: RuleSet.MatchFilter = { ruleIndex, range in (ruleIndex * 7 + range.lowerBound) % modulus != 0 }
            let expectedAccepted = ReferenceRuleMatcher.matches(rules: rules, in: text, accept: accept)
            let actualAccepted = text.withUnsafeBufferPointer {
                ruleSet.matches(in: $0, startingIn: 0..<$0.count, accept: accept).matches
            }
            #expect(actualAccepted == expectedAccepted, "\(describe), accept modulus \(modulus)")
            if actual != expected || actualInRange != expectedInRange || actualAccepted != expectedAccepted { return }
        }
    }

    /// The starts one backward pass records are exactly the offsets where a search from that offset finds a match starting there.
    @Test func recordedStartsAreTheStartsOfMatches() throws {
        let baseSeed: UInt64 = 0x4D_41_52_4B
        for iteration in 0..<600 {
            let seed = baseSeed &+ UInt64(iteration)
            var generator = SplitMix64(seed: seed)
            let pattern = Self.regexes.randomElement(using: &generator) ?? "b[a-z]*c"
            let regex = try CompiledRegex(
                pattern, caseInsensitive: Bool.random(using: &generator), wholeWord: Int.random(in: 0..<4, using: &generator) == 0)
            let text = Self.randomText(&generator)
            let lower = Int.random(in: 0...text.count, using: &generator)
            var bits: [UInt64] = []
            let recorded = text.withUnsafeBufferPointer { buffer in
                let scan = regex.beginScan()
                defer { regex.endScan(scan) }
                return regex.recordMatchStarts(in: buffer, lowerBound: lower, end: buffer.count, bits: &bits, scan: scan)
            }
            #expect(recorded, "seed \(seed)")
            var disagreements: [Int] = []
            for offset in lower..<text.count {
                let bit = offset - lower
                let isRecorded = bits[bit >> 6] & (1 << UInt64(bit & 63)) != 0
                let startsHere = ReferenceRegexMatcher.firstMatch(regex, in: text, from: offset)?.lowerBound == offset
                if isRecorded != startsHere { disagreements.append(offset) }
            }
            #expect(disagreements.isEmpty, "seed \(seed): \(pattern) on \(String(decoding: text, as: UTF8.self).debugDescription) from \(lower): offsets \(disagreements)")
            if !disagreements.isEmpty { return }
        }
    }

    /// The line: words `ab` and `b[a-z]*c` on `abab…abc`; every `ab` wins and the regex never does.
    @Test func theLostMatchLineGivesEveryWord() {
        let rules = [Rule(name: "w", pattern: .words(["ab"])), Rule(name: "r", pattern: .regex("b[a-z]*c"))]
        let text = Array(String(repeating: "ab", count: 40_000).utf8) + Array("c\n".utf8)
        let matches = RuleSet(rules: rules).matches(in: text).matches
        #expect(matches.count == 40_000)
        #expect(matches.allSatisfy { $0.ruleIndex == 0 && $0.utf8Range.count == 2 && $0.utf8Range.lowerBound % 2 == 0 })
        // Listed first, the regex still starts later than every `ab`, so it never wins.
        let swapped = RuleSet(rules: [rules[1], rules[0]]).matches(in: text).matches
        #expect(swapped.count == 40_000)
        #expect(swapped.allSatisfy { $0.ruleIndex == 1 && $0.utf8Range.count == 2 })
        // Without the words the regex matches once, from the first `b` to the `c`.
        #expect(RuleSet(rules: [rules[1]]).matches(in: text).matches == [Match(ruleIndex: 0, utf8Range: 1..<80_001)])
    }
}

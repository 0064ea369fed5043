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

    /// Many longer words over a small alphabet: the rare-byte and rare-pair prefilters meet many hits and near misses.
    @Test func manyWordsAgreeWithTheReference() {
        let baseSeed: UInt64 = 0x50_52_45_46
        let alphabet = ["a", "b", "Q", "z", "x", "_", "é", " ", "ab", "Qz"]
        let configurations = RuleSetTests.configurations
        for iteration in 0..<300 {
            let seed = baseSeed &+ UInt64(iteration)
            var generator = SplitMix64(seed: seed)
            func piece() -> String { alphabet.randomElement(using: &generator) ?? "a" }
            let list = (0..<Int.random(in: 2...14, using: &generator)).map { _ in
                (0..<Int.random(in: 1...6, using: &generator)).map { _ in piece() }.joined()
            }
            let rules = [Rule(
                name: "words", pattern: .words(list), caseSensitive: Bool.random(using: &generator),
                wholeWord: Int.random(in: 0..<4, using: &generator) == 0)]
            let text = Array((0..<Int.random(in: 0...80, using: &generator)).map { _ in piece() }.joined().utf8)
            let expected = ReferenceRuleMatcher.matches(rules: rules, in: text)
            for configuration in configurations {
                let actual = RuleSet(rules: rules, limits: .default, automatonConfiguration: configuration).matches(in: text).matches
                #expect(actual == expected, "seed \(seed), \(configuration): words \(list), text \(String(decoding: text, as: UTF8.self).debugDescription)")
                if actual != expected { return }
            }
        }
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

import Seeded
import Testing
@testable import PatternEngine

@Suite struct RegexDifferentialTests {

    static let atoms = [
        "a", "b", "k", "é", "😀", "日", #"\n"#, #"\r"#, " ", "-", "1", ".", "(?s:.)", "[ab]", "[^a]", #"\w"#, #"\d"#,
        #"\s"#, #"\W"#, "[a-c]", #"\pL"#, "(?i:k)", "(?i:é)", "^", "$", #"\b"#, #"\B"#, #"\A"#, #"\z"#, #"[^\n]"#,
    ]
    static let textPieces = [
        "a", "b", "c", "k", "K", "1", " ", "-", "_", "\n", "\r", "\r\n", "é", "É", "e\u{301}", "😀", "日", "本", "\u{212A}",
    ]

    static func randomPattern(depth: Int, using generator: inout SplitMix64) -> String {
        let choice = depth >= 3 ? Int.random(in: 0..<2, using: &generator) : Int.random(in: 0..<7, using: &generator)
        switch choice {
        case 0, 1:
            return atoms.randomElement(using: &generator) ?? "a"
        case 2, 3:
            let count = Int.random(in: 2...3, using: &generator)
            return (0..<count).map { _ in randomPattern(depth: depth + 1, using: &generator) }.joined()
        case 4:
            return randomPattern(depth: depth + 1, using: &generator) + "|" + randomPattern(depth: depth + 1, using: &generator)
        case 5:
            let quantifiers = ["*", "+", "?", "{1,2}", "{2}", "*?", "+?"]
            let quantifier = quantifiers.randomElement(using: &generator) ?? "*"
            return "(" + randomPattern(depth: depth + 1, using: &generator) + ")" + quantifier
        default:
            return "(?:" + randomPattern(depth: depth + 1, using: &generator) + ")"
        }
    }

    static func randomText(using generator: inout SplitMix64) -> String {
        let count = Int.random(in: 0...14, using: &generator)
        return (0..<count).map { _ in textPieces.randomElement(using: &generator) ?? "a" }.joined()
    }

    @Test func enginesAgreeWithTheReferenceOnRandomPatterns() {
        let seed = UInt64.random(in: 0...UInt64.max)
        var generator = SplitMix64(seed: seed)
        let engines = RegexTestEngine.allCases.filter { $0 != .reference }
        var failures = 0
        for _ in 0..<400 {
            let pattern = RegexDifferentialTests.randomPattern(depth: 0, using: &generator)
            guard let regex = try? CompiledRegex(pattern) else {
                Issue.record("seed \(seed): generated pattern /\(pattern)/ was rejected")
                continue
            }
            for _ in 0..<4 {
                let text = Array(RegexDifferentialTests.randomText(using: &generator).utf8)
                let expected = RegexTestEngine.reference.allMatches(regex, in: text)
                if let bound = regex.maximumMatchUTF8Length, let long = expected.first(where: { $0.count > bound }) {
                    Issue.record("seed \(seed): /\(pattern)/ matched \(long.count) bytes, above its bound \(bound)")
                }
                for engine in engines {
                    let actual = engine.allMatches(regex, in: text)
                    if actual != expected {
                        failures += 1
                        Issue.record(
                            "seed \(seed): \(engine) /\(pattern)/ on \(String(decoding: text, as: UTF8.self).debugDescription): \(actual) != reference \(expected)"
                        )
                    }
                }
                if failures > 5 { return }
            }
        }
    }

    /// Patterns whose longest match needs a long look-ahead, on runs of a few pieces: the look-ahead memo of a scan
    /// records and prunes on almost every search, so its results must still agree with the reference.
    @Test func scansWithTheMemoAgreeOnLongRuns() {
        let patterns = [
            "a+b|a", "(a+)+$", "(aa)+b|a", "a(ba)*c|ab", "(a|ab)(c|bcd)", #"\w+x|\w"#, "(?:a|b)*bbb|b", #"a+\b|a"#,
            "(a{3})*b|aa", ".*z|.", #"[^\n]+$|a"#, "(?i)k+q|k",
        ]
        let pieces = ["a", "b", "ab", "aab", "k", "K", "z", " ", "\n", "é", "c", "x"]
        let seed: UInt64 = 0x4D_45_4D_4F
        var generator = SplitMix64(seed: seed)
        let engines: [RegexTestEngine] = [.memoScan, .clearingMemoScan, .lazyDFA]
        var failures = 0
        for pattern in patterns {
            guard let regex = compileForTest(pattern) else { continue }
            for _ in 0..<12 {
                var text: [UInt8] = []
                for _ in 0..<Int.random(in: 1...4, using: &generator) {
                    let piece = Array((pieces.randomElement(using: &generator) ?? "a").utf8)
                    for _ in 0..<Int.random(in: 1...20, using: &generator) { text += piece }
                }
                let expected = RegexTestEngine.reference.allMatches(regex, in: text)
                for engine in engines {
                    let actual = engine.allMatches(regex, in: text)
                    if actual != expected {
                        failures += 1
                        Issue.record(
                            "seed \(seed): \(engine) /\(pattern)/ on \(String(decoding: text, as: UTF8.self).debugDescription): \(actual) != reference \(expected)")
                    }
                }
                if failures > 5 { return }
            }
        }
    }
}

import Foundation
import Seeded
import Testing
@testable import PatternEngine
import CPUFeatures

/// The fingerprint and packed-pair searches against the bare automaton and the reference engine.
@Suite struct FingerprintSearchTests {
    /// The configuration under test (fingerprints on; with the AVX2 loops and Teddy's tables whenever the CPU has
    /// AVX2, or with the baseline loops), and the bare automaton it must agree with.
    static func fast(avx2: Bool) -> LiteralAutomaton.Configuration {
        var configuration = LiteralAutomaton.Configuration(
            kind: .dense, usesPrefilter: true, denseByteBudget: 16 << 20, usesFingerprintSearch: true)
        configuration.forcesFingerprintSearch = true
        configuration.usesAVX2 = avx2
        return configuration
    }
    static let fingerprints = fast(avx2: false)
    static let bare = LiteralAutomaton.Configuration(
        kind: .dense, usesPrefilter: false, denseByteBudget: 16 << 20, usesFingerprintSearch: false)

    /// Identifiers of real code: this project's own sources, read at test time (so nobody picked them for the engine).
    static let identifiers: [String] = {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources")
        var found: Set<String> = []
        let files = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)
        while let url = files?.nextObject() as? URL {
            guard url.pathExtension == "swift", let text = try? String(contentsOf: url, encoding: .utf8) else { continue }
            var current = ""
            for character in text.unicodeScalars {
                if character.properties.isAlphabetic || character == "_" || ("0"..."9").contains(character) {
                    current.unicodeScalars.append(character)
                } else {
                    if current.utf8.count >= 2, current.utf8.count <= 40 { found.insert(current) }
                    current = ""
                }
            }
        }
        return found.sorted()
    }()

    /// Words with non-ASCII letters and look-alikes, for case-insensitive rules.
    static let foldingWords = ["café", "CAFÉ", "Straße", "ok", "OK", "ſelf", "σίγμα", "ΣΊΓΜΑ", "naïve", "İstanbul", "ǅemal"]
    /// Text pieces between identifiers.
    static let separators = [" ", ".", "(", ")", "_", "\n", "\r\n", ", ", "::", "é", "中", "🔥", "\u{212A}", "ß", "\u{FF}"]

    /// Runs `rules` over `text` with every check: whole text, a sub-range, and an accepting predicate.
    func check(
        _ rules: [Rule], _ text: [UInt8], seed: UInt64, reference: Bool, generator: inout SplitMix64, avx2: Bool,
        compiled: (fast: RuleSet, slow: RuleSet)? = nil, sourceLocation: SourceLocation = #_sourceLocation
    ) -> Bool {
        let fast = compiled?.fast
            ?? RuleSet(rules: rules, limits: .default, automatonConfiguration: Self.fast(avx2: avx2))
        let slow = compiled?.slow ?? RuleSet(rules: rules, limits: .default, automatonConfiguration: Self.bare)
        let expected = reference ? ReferenceRuleMatcher.matches(rules: rules, in: text) : slow.matches(in: text).matches
        let actual = fast.matches(in: text).matches
        let description = "seed \(seed), avx2 \(avx2): rules \(rules.map(\.pattern)) cs \(rules.map(\.caseSensitive)) "
            + "ww \(rules.map(\.wholeWord)), text \(String(decoding: text, as: UTF8.self).debugDescription)"
        #expect(actual == expected, "\(description)", sourceLocation: sourceLocation)
        if reference {
            #expect(slow.matches(in: text).matches == expected, "bare automaton, \(description)", sourceLocation: sourceLocation)
        }

        let lower = Int.random(in: 0...text.count, using: &generator)
        let upper = Int.random(in: lower...text.count, using: &generator)
        let modulus = Int.random(in: 2...4, using: &generator)
        let accept: RuleSet.MatchFilter = { ruleIndex, range in (ruleIndex + range.lowerBound) % modulus != 0 }
        let (fastRange, slowRange, fastAccepted, slowAccepted) = text.withUnsafeBufferPointer { buffer in
            (fast.matches(in: buffer, startingIn: lower..<upper).matches,
             slow.matches(in: buffer, startingIn: lower..<upper).matches,
             fast.matches(in: buffer, startingIn: 0..<buffer.count, accept: accept).matches,
             slow.matches(in: buffer, startingIn: 0..<buffer.count, accept: accept).matches)
        }
        #expect(fastRange == slowRange, "range \(lower)..<\(upper), \(description)", sourceLocation: sourceLocation)
        #expect(fastAccepted == slowAccepted, "accept modulus \(modulus), \(description)", sourceLocation: sourceLocation)
        return actual == expected && fastRange == slowRange && fastAccepted == slowAccepted
    }

    /// A random case change of a word: as is, upper, lower, or one letter flipped.
    static func recased(_ word: String, _ generator: inout SplitMix64) -> String {
        switch Int.random(in: 0..<4, using: &generator) {
        case 0: return word.uppercased()
        case 1: return word.lowercased()
        case 2:
            var scalars = Array(word.unicodeScalars)
            if let index = scalars.indices.randomElement(using: &generator),
               let flipped = (String(scalars[index]).uppercased() == String(scalars[index])
                   ? String(scalars[index]).lowercased() : String(scalars[index]).uppercased()).unicodeScalars.first {
                scalars[index] = flipped
            }
            return String(String.UnicodeScalarView(scalars))
        default: return word
        }
    }

    /// Random rule sets of 1 to 30 words drawn from real identifiers (prefixes and suffixes too, so words overlap),
    /// on texts made of the same identifiers, recased, with words at the very start and end of the text.
    @Test(arguments: [false, true]) func randomIdentifierWordsAgree(avx2: Bool) {
        let identifiers = Self.identifiers
        #expect(identifiers.count > 500, "identifiers read from Sources: \(identifiers.count)")
        guard !identifiers.isEmpty else { return }
        let baseSeed: UInt64 = 0x46_50_52_54
        for iteration in 0..<400 {
            let seed = baseSeed &+ UInt64(iteration)
            var generator = SplitMix64(seed: seed)
            var pool: [String] = []
            for _ in 0..<Int.random(in: 1...30, using: &generator) {
                var word = identifiers.randomElement(using: &generator) ?? "x"
                let bytes = Array(word.utf8)
                switch Int.random(in: 0..<6, using: &generator) {
                case 0: word = String(decoding: bytes.prefix(Int.random(in: 1...bytes.count, using: &generator)), as: UTF8.self)
                case 1: word = String(decoding: bytes.suffix(Int.random(in: 1...bytes.count, using: &generator)), as: UTF8.self)
                case 2: word = Self.foldingWords.randomElement(using: &generator) ?? word
                default: break
                }
                if !word.isEmpty { pool.append(word) }
            }
            var rules: [Rule] = []
            var remaining = pool[...]
            while !remaining.isEmpty {
                let take = Int.random(in: 1...remaining.count, using: &generator)
                rules.append(Rule(
                    name: "words", pattern: .words(Array(remaining.prefix(take))),
                    caseSensitive: Bool.random(using: &generator), wholeWord: Int.random(in: 0..<3, using: &generator) == 0))
                remaining = remaining.dropFirst(take)
            }
            // Text: identifiers and the words themselves, recased, between separators; now and then a word last.
            let reference = iteration % 4 == 0
            let pieces = Int.random(in: 0...(reference ? 30 : 300), using: &generator)
            var text = ""
            for _ in 0..<pieces {
                let word = Int.random(in: 0..<3, using: &generator) == 0
                    ? (pool.randomElement(using: &generator) ?? "") : (identifiers.randomElement(using: &generator) ?? "")
                text += Self.recased(word, &generator)
                text += Self.separators.randomElement(using: &generator) ?? " "
            }
            if Bool.random(using: &generator), let last = pool.randomElement(using: &generator) {
                text += Self.recased(last, &generator)
            }
            var bytes = Array(text.utf8)
            if Int.random(in: 0..<10, using: &generator) == 0, !bytes.isEmpty {
                bytes[Int.random(in: 0..<bytes.count, using: &generator)] = 0xFF
            }
            if !check(rules, bytes, seed: seed, reference: reference, generator: &generator, avx2: avx2) { return }
        }
    }

    /// Every length of text from 0 to 80 with one word placed at every offset, among filler with no candidates or with
    /// false ones everywhere: the vector blocks, the unrolled pairs of blocks and the byte-by-byte tail all see a
    /// match at each of their lanes, after false candidates too, including the last byte of the text.
    @Test(arguments: [false, true]) func wordsAtEveryOffsetAgree(avx2: Bool) {
        var generator = SplitMix64(seed: 0x45_44_47_45)
        let cases: [[String]] = [["q"], ["Zx"], ["parseQuery"], ["abcdefghijklmnopqrstu"], ["TODO", "FIXME"], ["é"],
                                 ["naïve", "CAFÉ", "ok"]]
        for words in cases {
            for caseSensitive in [true, false] {
                let rules = [Rule(name: "w", pattern: .words(words), caseSensitive: caseSensitive)]
                let compiled = (
                    fast: RuleSet(rules: rules, limits: .default, automatonConfiguration: Self.fast(avx2: avx2)),
                    slow: RuleSet(rules: rules, limits: .default, automatonConfiguration: Self.bare))
                #expect(compiled.fast.literalAutomaton?.fingerprintSearch != nil)
                let search = compiled.fast.literalAutomaton?.fingerprintSearch
                #expect(search?.usesAVX2 == (avx2 && VectorUnit.hasAVX2))
                #expect((search?.nibbleTables != nil) == (avx2 && VectorUnit.hasAVX2 && (search?.fingerprints.count ?? 0) > 1))
                let placed = words.last ?? "q"
                // Filler of dashes (no candidates), then of the words' own bytes (candidates everywhere, most false).
                let ownBytes = Array(words.joined().utf8)
                for length in 0...80 {
                    let filler = Bool.random(using: &generator)
                        ? Array(repeating: UInt8(ascii: "-"), count: length)
                        : (0..<length).map { _ in ownBytes.randomElement(using: &generator) ?? 0x2D }
                    for offset in stride(from: 0, through: max(0, length - placed.utf8.count), by: 1) {
                        var text = filler
                        if length >= placed.utf8.count {
                            text.replaceSubrange(offset..<(offset + placed.utf8.count), with: Array(placed.utf8))
                        }
                        if !check(
                            rules, text, seed: UInt64(length * 1000 + offset), reference: false, generator: &generator,
                            avx2: avx2, compiled: compiled) {
                            return
                        }
                    }
                }
            }
        }
    }

    /// Tables of overlapping words: the earliest start, then the longest, then the first rule, as the automaton does.
    @Test(arguments: [false, true]) func overlappingWordsResolveLikeTheAutomaton(avx2: Bool) {
        var generator = SplitMix64(seed: 0x4F_56_4C)
        let cases: [([Rule], String)] = [
            ([words(["he", "she", "hers", "his"])], "ushers and his shelf"),
            ([words(["Sam"]), words(["Samwise"])], "Samwise Sam"),
            ([words(["abc"]), words(["ab"], caseSensitive: false), words(["bcd"])], "ABCD abcd abc ab"),
            ([words(["Todo"]), words(["todo"], caseSensitive: false)], "TODO Todo todo tOdO"),
            ([words(["x"], wholeWord: true), words(["xx"])], "x xx xxx x_x"),
            ([words(["ok"], caseSensitive: false)], "ok OK o\u{212A} \u{212A}"),
            ([words(["ſ", "s"], caseSensitive: false)], "S s ſ"),
            ([words(["aaaa", "aa"])], "aaaaaaaaa"),
        ]
        for (index, (rules, text)) in cases.enumerated() {
            _ = check(rules, Array(text.utf8), seed: UInt64(index), reference: true, generator: &generator, avx2: avx2)
        }
    }

    /// Which search a rule set uses: fingerprints where estimated cheaper (one word), the automaton otherwise; the
    /// pair rarest in code.
    @Test func fingerprintsAreChosenByTheBackgroundTable() {
        func fingerprints(_ rules: [Rule]) -> String? {
            RuleSet(rules: rules, limits: .default, automatonConfiguration: Self.fingerprints)
                .literalAutomaton?.fingerprintSearch?.fingerprintDescription
        }
        func chosen(_ rules: [Rule]) -> Bool { RuleSet(rules: rules).literalAutomaton?.fingerprintSearch != nil }
        #expect(chosen([words(["parseQuery"])]))
        #expect(chosen([words(["todo"], caseSensitive: false)]))
        // Ten words that share a rare byte: ten fingerprints cost more than the automaton's one-byte prefilter, Teddy's
        // tables (where the CPU has AVX2) less.
        #expect(chosen([words((0..<10).map { "Q\($0)x" })]) == VectorUnit.hasAVX2)
        func teddy(_ rules: [Rule]) -> Bool { RuleSet(rules: rules).literalAutomaton?.fingerprintSearch?.nibbleTables != nil }
        #expect(teddy([words(["tordea_aia_tfrtr70", "maorlOcnDhsr", "niiyeaLaetrn", "flke_rsotai", "orto_gj_icb",
                              "rh_ee_yts", "bsorp_ry", "tzWihrUe", "aedher", "rtny"])]) == VectorUnit.hasAVX2)
        #expect(!teddy([words(["parseQuery"])]))
        #expect(fingerprints([words(["parseQuery"])]) == "Q@5+y@9")
        #expect(fingerprints([words(["todo"], caseSensitive: false)]) == "o~@1+d~@2")
        #expect(fingerprints([words(["x"])]) == "x@0")
        #expect(fingerprints([words((0..<FingerprintSearch.maximumVariants).map { "w\($0)" })]) != nil)
        #expect(fingerprints([words((0...FingerprintSearch.maximumVariants).map { "w\($0)" })]) == nil)
        // Off with the prefilter: the benchmarks' bare automaton.
        #expect(RuleSet(rules: [words(["a"])], limits: RuleSet.Limits(usesLiteralPrefilter: false))
            .literalAutomaton?.fingerprintSearch == nil)
    }
}

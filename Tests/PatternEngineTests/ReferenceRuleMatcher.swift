import UTF8Decoding

@testable import PatternEngine

/// A deliberately simple implementation of the rule set's semantics, used only as a test oracle.
///
/// For every start offset and every rule it lists candidate ends by naive comparison
/// (bytes for case-sensitive words, case-fold representatives of scalars otherwise,
/// `ReferenceRegexMatcher` for regexes: each regex's own leftmost-first match), then resolves
/// greedily: at the first start with any candidate take the longest, the lowest rule on ties,
/// and go on after it. Whole words: no word character right before or right after a match.
/// Quadratic and proud of it.
enum ReferenceRuleMatcher {
    /// The matches of `rules` in `text` starting inside `utf8Range` (the whole text by default).
    /// With `accept`, a candidate it rejects is not a candidate at all (a rejected regex match is retried from its next character).
    static func matches(
        rules: [Rule], in text: [UInt8], startingIn utf8Range: Range<Int>? = nil,
        accept: ((Int, Range<Int>) -> Bool)? = nil
    ) -> [Match] {
        let range = utf8Range ?? 0..<text.count
        let units = decode(text)
        // Per regex rule, the accepted leftmost-first matches found by the "discard and retry" rule.
        var regexMatches: [Int: [Int: Int]] = [:]
        for (ruleIndex, rule) in rules.enumerated() {
            if case .regex(let pattern) = rule.pattern,
               let regex = try? CompiledRegex(pattern, caseInsensitive: !rule.caseSensitive, wholeWord: rule.wholeWord) {
                regexMatches[ruleIndex] = acceptedRegexMatches(
                    regex, wholeWord: rule.wholeWord, text: text, from: range.lowerBound, units: units,
                    accept: { accept?(ruleIndex, $0) ?? true })
            }
        }

        var results: [Match] = []
        var position = range.lowerBound
        while position < range.upperBound {
            var best: Match?
            for start in position..<range.upperBound {
                for (ruleIndex, rule) in rules.enumerated() {
                    for end in candidateEnds(rule: rule, ruleIndex: ruleIndex, text: text, start: start, units: units, regexMatches: regexMatches) {
                        let candidate = Match(ruleIndex: ruleIndex, utf8Range: start..<end)
                        if let accept, !accept(ruleIndex, start..<end) { continue }
                        if let current = best {
                            if end > current.utf8Range.upperBound { best = candidate }
                        } else {
                            best = candidate
                        }
                    }
                }
                if best != nil { break }
            }
            guard let chosen = best else { break }
            results.append(chosen)
            position = chosen.utf8Range.upperBound
        }
        return results
    }

    /// Decoded text: for each byte offset that starts a unit, the scalar (nil for an invalid byte) and the unit's length.
    struct Unit {
        var scalar: Unicode.Scalar?
        var length: Int
    }

    static func decode(_ text: [UInt8]) -> [Int: Unit] {
        var units: [Int: Unit] = [:]
        var offset = 0
        text.withUnsafeBufferPointer { buffer in
            while offset < text.count {
                if let (scalar, length) = UTF8Decoding.scalar(at: offset, in: buffer) {
                    units[offset] = Unit(scalar: scalar, length: length)
                    offset += length
                } else {
                    units[offset] = Unit(scalar: nil, length: 1)
                    offset += 1
                }
            }
        }
        return units
    }

    static func isWordBefore(_ offset: Int, units: [Int: Unit]) -> Bool {
        for length in 1...4 {
            if let unit = units[offset - length], unit.length == length {
                return unit.scalar.map(WordBoundary.isWordCharacter) ?? false
            }
        }
        return false
    }

    static func isWordAt(_ offset: Int, units: [Int: Unit]) -> Bool {
        units[offset]?.scalar.map(WordBoundary.isWordCharacter) ?? false
    }

    static func wholeWordAccepts(start: Int, end: Int, units: [Int: Unit]) -> Bool {
        !isWordBefore(start, units: units) && !isWordAt(end, units: units)
    }

    static func candidateEnds(
        rule: Rule, ruleIndex: Int, text: [UInt8], start: Int, units: [Int: Unit], regexMatches: [Int: [Int: Int]]
    ) -> [Int] {
        switch rule.pattern {
        case .regex:
            return regexMatches[ruleIndex]?[start].map { [$0] } ?? []
        case .words(let words):
            var ends: [Int] = []
            for word in words where !word.isEmpty {
                guard let end = wordEnd(word, caseSensitive: rule.caseSensitive, text: text, start: start, units: units)
                else { continue }
                if rule.wholeWord, !wholeWordAccepts(start: start, end: end, units: units) {
                    continue
                }
                ends.append(end)
            }
            return ends
        }
    }

    static func wordEnd(_ word: String, caseSensitive: Bool, text: [UInt8], start: Int, units: [Int: Unit]) -> Int? {
        if caseSensitive {
            let bytes = Array(word.utf8)
            guard start + bytes.count <= text.count, Array(text[start..<start + bytes.count]) == bytes else { return nil }
            return start + bytes.count
        }
        var offset = start
        for scalar in word.unicodeScalars {
            guard let unit = units[offset], let textScalar = unit.scalar,
                  CaseFolding.representative(of: textScalar) == CaseFolding.representative(of: scalar) else { return nil }
            offset += unit.length
        }
        return offset
    }

    /// Start -> end of each accepted regex match, searching from `from` with "discard and retry from the next character".
    static func acceptedRegexMatches(
        _ regex: CompiledRegex, wholeWord: Bool, text: [UInt8], from: Int, units: [Int: Unit],
        accept: (Range<Int>) -> Bool = { _ in true }
    ) -> [Int: Int] {
        var accepted: [Int: Int] = [:]
        var position = from
        while position < text.count {
            guard let range = ReferenceRegexMatcher.firstMatch(regex, in: text, from: position), !range.isEmpty else { break }
            // The regex carries the whole-word check itself; checking it again here keeps the engine honest.
            if accept(range), !wholeWord || wholeWordAccepts(start: range.lowerBound, end: range.upperBound, units: units) {
                accepted[range.lowerBound] = range.upperBound
            }
            position = range.lowerBound + (units[range.lowerBound]?.length ?? 1)
        }
        return accepted
    }
}

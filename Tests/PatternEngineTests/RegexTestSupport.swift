import Testing
@testable import PatternEngine

/// The engines every matching table runs against.
enum RegexTestEngine: String, CaseIterable, CustomStringConvertible {
    case pikeVM
    case lazyDFA
    /// The lazy DFA without the inner-literal strategy (patterns with a rare inner byte use it by default).
    case plainDFA
    /// A DFA whose cache holds a handful of states: it clears constantly and often falls back to the Pike VM.
    case tinyCacheDFA
    /// A DFA with a small cache that may clear any number of times (exercises clearing without fallback).
    case clearingDFA
    /// Searches in one scan with the look-ahead memo recording every look-ahead, however short.
    case memoScan
    /// The memo with a cache that clears constantly (pruned and recorded rows go stale).
    case clearingMemoScan
    case reference

    var description: String { rawValue }

    /// The first match at or after `from` in `text`.
    func firstMatch(_ regex: CompiledRegex, in text: [UInt8], from: Int) -> Range<Int>? {
        switch self {
        case .reference:
            return ReferenceRegexMatcher.firstMatch(regex, in: text, from: from)
        case .pikeVM:
            return text.withUnsafeBufferPointer { regex.firstMatch(in: $0, from: from, engine: .pikeVM) }
        case .lazyDFA:
            return text.withUnsafeBufferPointer { regex.firstMatch(in: $0, from: from, engine: .automatic) }
        case .plainDFA:
            return text.withUnsafeBufferPointer {
                regex.firstMatch(in: $0, from: from, engine: .lazyDFA(.standard, usesInnerLiteral: false))
            }
        case .clearingDFA:
            return text.withUnsafeBufferPointer {
                regex.firstMatch(in: $0, from: from, engine: .lazyDFA(DFALimits(maxStates: 6, maxClearsPerSearch: .max)))
            }
        case .tinyCacheDFA:
            return text.withUnsafeBufferPointer {
                regex.firstMatch(in: $0, from: from, engine: .lazyDFA(DFALimits(maxStates: 3, maxClearsPerSearch: 2)))
            }
        case .memoScan, .clearingMemoScan:
            return scan(regex, in: text) { search in search(from) }
        }
    }

    /// The limits of a scan engine.
    private var scanLimits: DFALimits {
        switch self {
        case .clearingMemoScan: return DFALimits(maxStates: 6, maxClearsPerSearch: .max, memoThreshold: 0)
        default: return DFALimits(maxStates: DFALimits.standard.maxStates, maxClearsPerSearch: 8, memoThreshold: 0)
        }
    }

    /// Runs `body` with a search function of one scan of `text`.
    private func scan<Result>(
        _ regex: CompiledRegex, in text: [UInt8], _ body: ((Int) -> Range<Int>?) -> Result
    ) -> Result {
        text.withUnsafeBufferPointer { buffer in
            let scratch = regex.beginScan(limits: scanLimits)
            defer { regex.endScan(scratch) }
            return body { regex.firstMatch(in: buffer, from: $0, scan: scratch) }
        }
    }

    /// All matches, found by calling `firstMatch` with `from` set to the previous match's end.
    func allMatches(_ regex: CompiledRegex, in text: [UInt8]) -> [Range<Int>] {
        if self == .memoScan || self == .clearingMemoScan {
            // One scan for the whole series, as a rule set searches.
            return scan(regex, in: text) { search in
                var matches: [Range<Int>] = []
                var from = 0
                while let match = search(from) {
                    matches.append(match)
                    from = match.upperBound
                }
                return matches
            }
        }
        var matches: [Range<Int>] = []
        var from = 0
        while let match = firstMatch(regex, in: text, from: from) {
            matches.append(match)
            // Matches are non-empty, so this always advances.
            from = match.upperBound
        }
        return matches
    }
}

/// Compiles `pattern`, recording an issue at the caller when it is rejected.
func compileForTest(
    _ pattern: String, caseInsensitive: Bool = false, matchKind: RegexMatchKind = .leftmostFirst,
    sourceLocation: SourceLocation = #_sourceLocation
) -> CompiledRegex? {
    do {
        return try CompiledRegex(pattern, caseInsensitive: caseInsensitive, matchKind: matchKind)
    } catch {
        Issue.record("pattern \(pattern) rejected: \(error)", sourceLocation: sourceLocation)
        return nil
    }
}

/// Checks that every engine finds exactly `expected` (UTF-8 offset pairs) when iterating over `text`.
func checkMatches(
    _ pattern: String, _ text: String, _ expected: [(Int, Int)], caseInsensitive: Bool = false,
    matchKind: RegexMatchKind = .leftmostFirst, sourceLocation: SourceLocation = #_sourceLocation
) {
    guard let regex = compileForTest(
        pattern, caseInsensitive: caseInsensitive, matchKind: matchKind, sourceLocation: sourceLocation) else { return }
    let bytes = Array(text.utf8)
    let expectedRanges = expected.map { $0.0..<$0.1 }
    for engine in RegexTestEngine.allCases {
        let actual = engine.allMatches(regex, in: bytes)
        #expect(actual == expectedRanges, "\(engine) on /\(pattern)/ in \(text.debugDescription)", sourceLocation: sourceLocation)
    }
}

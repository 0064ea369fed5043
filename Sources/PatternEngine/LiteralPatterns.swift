// Turning rule words into the byte strings the literal automaton indexes.
//
// Every word becomes one or more *variants*: byte strings over a folded
// alphabet in which the ASCII letters used by case-insensitive words are
// mapped to lowercase. The automaton's byte classes map both cases of those
// letters to one class, so ASCII folding costs nothing at search time.
//
//     rule 0 ["TODO"]  case-insensitive   ->  variant "todo"
//     rule 1 ["Todo"]  case-sensitive     ->  variant "todo" + verify "Todo"
//     rule 2 ["café"]  case-insensitive   ->  variants "caf\u{E9}", "caf\u{C9}"
//     rule 3 ["ok"]    case-insensitive   ->  variants "ok", "o\u{212A}" (KELVIN SIGN)
//
// A case-sensitive word that contains a folded letter is indexed folded too,
// and its exact bytes are compared when the automaton reports it. Non-ASCII
// letters of a case-insensitive word expand into their simple-case-fold
// equivalents; the product of those choices is capped (`maximumVariantCount`),
// and a word above the cap is handed back to be compiled as a
// case-insensitive regex instead.

/// One literal word of one rule, as the automaton reports it.
struct LiteralPattern: Sendable {
    /// The rule's position in the rule set.
    var ruleIndex: Int
    /// Whether the rule asks for whole words (no word character right before or right after a match).
    var wholeWord: Bool
}

/// One byte string to index, pointing back at its pattern.
struct LiteralVariant: Sendable {
    /// The bytes as indexed (ASCII letters in `foldedLetters` lowercased).
    var foldedBytes: [UInt8]
    /// The pattern's position in `LiteralPatternSet.patterns` (its priority: lower wins ties).
    var patternIndex: Int
    /// The exact bytes to compare at a match, for case-sensitive words that contain folded letters.
    var exactBytes: [UInt8]?
}

/// A word that has too many case variants for the automaton and is matched as a case-insensitive regex.
struct OverflowWord: Sendable {
    var ruleIndex: Int
    var wordIndex: Int
    var word: String
    var wholeWord: Bool
}

/// The literal words of all rules, prepared for the automaton.
struct LiteralPatternSet: Sendable {
    /// Above this many case variants, a case-insensitive word is compiled as a regex.
    static let maximumVariantCount = 64

    /// Patterns in priority order (rule order, then word order).
    var patterns: [LiteralPattern] = []
    /// The byte strings to index.
    var variants: [LiteralVariant] = []
    /// `foldedLetters[b]` is true for the ASCII letters (both cases) that are matched case-insensitively by class.
    var foldedLetters = [Bool](repeating: false, count: 256)
    /// Words compiled as regexes instead.
    var overflowWords: [OverflowWord] = []
    /// Empty words and other problems.
    var errors: [RuleError] = []

    /// One word as given by a rule.
    struct Word {
        var ruleIndex: Int
        var wordIndex: Int
        var text: String
        var caseSensitive: Bool
        var wholeWord: Bool
    }

    /// Prepares `words`, which must be in priority order.
    init(words: [Word]) {
        // Pass 1: which ASCII letters do case-insensitive words use? Those letters are folded for everyone.
        // A non-ASCII letter can bring an ASCII one along (U+212A KELVIN SIGN brings `k`).
        for word in words where !word.caseSensitive {
            for scalar in word.text.unicodeScalars {
                for equivalent in CaseFolding.equivalents(of: scalar) where equivalent.value < 0x80 {
                    let byte = UInt8(truncatingIfNeeded: equivalent.value)
                    if Self.isASCIILetter(byte) {
                        foldedLetters[Int(byte | 0x20)] = true
                        foldedLetters[Int(byte & ~0x20)] = true
                    }
                }
            }
        }

        var seen: Set<SeenKey> = []
        for word in words {
            let bytes = Array(word.text.utf8)
            if bytes.isEmpty {
                errors.append(RuleError(ruleIndex: word.ruleIndex, message: "empty word", wordIndex: word.wordIndex))
                continue
            }
            // The same word twice in one rule adds nothing.
            guard seen.insert(SeenKey(ruleIndex: word.ruleIndex, bytes: bytes)).inserted else { continue }

            let scalars = Array(word.text.unicodeScalars)
            let pattern = LiteralPattern(ruleIndex: word.ruleIndex, wholeWord: word.wholeWord)

            if word.caseSensitive {
                let folded = bytes.map(fold)
                let patternIndex = patterns.count
                patterns.append(pattern)
                variants.append(LiteralVariant(
                    foldedBytes: folded, patternIndex: patternIndex,
                    exactBytes: bytes.contains { foldedLetters[Int($0)] } ? bytes : nil))
                continue
            }

            guard let expansions = Self.caseInsensitiveVariants(of: scalars) else {
                overflowWords.append(OverflowWord(
                    ruleIndex: word.ruleIndex, wordIndex: word.wordIndex, word: word.text, wholeWord: word.wholeWord))
                continue
            }
            let patternIndex = patterns.count
            patterns.append(pattern)
            for expansion in expansions {
                variants.append(LiteralVariant(foldedBytes: expansion, patternIndex: patternIndex, exactBytes: nil))
            }
        }
    }

    /// The longest variant in bytes (0 when there are none).
    var maximumVariantUTF8Length: Int {
        variants.reduce(0) { max($0, $1.foldedBytes.count) }
    }

    private struct SeenKey: Hashable {
        var ruleIndex: Int
        var bytes: [UInt8]
    }

    @inline(__always)
    static func isASCIILetter(_ byte: UInt8) -> Bool {
        let lowered = byte | 0x20
        return lowered >= 0x61 && lowered <= 0x7A
    }

    /// The byte as indexed: lowercase when it is a folded letter.
    func fold(_ byte: UInt8) -> UInt8 {
        foldedLetters[Int(byte)] ? byte | 0x20 : byte
    }

    /// All case variants of a case-insensitive word as folded byte strings, or nil above the cap.
    static func caseInsensitiveVariants(of scalars: [Unicode.Scalar]) -> [[UInt8]]? {
        var choices: [[[UInt8]]] = []
        var count = 1
        for scalar in scalars {
            var alternatives: [[UInt8]] = []
            for equivalent in CaseFolding.equivalents(of: scalar) {
                var bytes: [UInt8] = []
                Unicode.UTF8.encode(equivalent) { bytes.append($0) }
                // ASCII letters are covered by byte classes; keep one (lowercase) spelling.
                if bytes.count == 1, isASCIILetter(bytes[0]) {
                    bytes[0] |= 0x20
                }
                if !alternatives.contains(bytes) {
                    alternatives.append(bytes)
                }
            }
            count *= max(1, alternatives.count)
            if count > maximumVariantCount { return nil }
            choices.append(alternatives)
        }
        var results: [[UInt8]] = [[]]
        for alternatives in choices {
            var next: [[UInt8]] = []
            next.reserveCapacity(results.count * alternatives.count)
            for prefix in results {
                for alternative in alternatives {
                    next.append(prefix + alternative)
                }
            }
            results = next
        }
        return results
    }
}

/// One highlighting rule: literal words or a regex, with case and whole-word options.
///
/// Words are matched literally (`* TODO:`, `dump(` and `[x]` are not patterns).
/// With `caseSensitive == false` matching uses Unicode simple case folding
/// (`CAFÉ` matches `café`, `k` matches U+212A KELVIN SIGN). With `wholeWord`,
/// a match must not touch a word character (a Unicode letter, mark, decimal
/// digit or `_`) on a side where the match itself begins or ends with one.
public struct Rule: Sendable, Hashable {
    /// What a rule looks for.
    public enum Pattern: Sendable, Hashable {
        /// Literal words, tried in listed order for equal-length ties.
        case words([String])
        /// A regex in the engine's own syntax.
        case regex(String)
    }

    /// The rule's name, for diagnostics and styles.
    public var name: String
    /// The words or regex.
    public var pattern: Pattern
    /// Whether letters must match in case exactly (default true).
    public var caseSensitive: Bool
    /// Whether matches must not touch word characters (default false).
    public var wholeWord: Bool

    /// Creates a rule.
    public init(name: String, pattern: Pattern, caseSensitive: Bool = true, wholeWord: Bool = false) {
        self.name = name
        self.pattern = pattern
        self.caseSensitive = caseSensitive
        self.wholeWord = wholeWord
    }
}

/// Why a rule (or one of its words) could not be compiled; the rule set works without it.
public struct RuleError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong with the rule.
    public enum Kind: Sendable, Equatable {
        /// Its regex is not one this engine reads.
        case invalidRegex
        /// Its regex is valid but costs more than the budget allows.
        case overBudget
        /// Its words are not usable (none, or one that cannot be compiled).
        case words
    }

    /// The position of the rule in the list given to `RuleSet`.
    public var ruleIndex: Int
    /// A human-readable explanation.
    public var message: String
    /// For a regex error, the zero-based UTF-8 byte offset in the pattern.
    public var patternUTF8Offset: Int?
    /// For a word error, the position of the word in the rule's list.
    public var wordIndex: Int?
    public var kind: Kind

    /// Creates a rule error.
    init(ruleIndex: Int, message: String, patternUTF8Offset: Int? = nil, wordIndex: Int? = nil, kind: Kind = .words) {
        self.ruleIndex = ruleIndex
        self.message = message
        self.patternUTF8Offset = patternUTF8Offset
        self.wordIndex = wordIndex
        self.kind = kind
    }

    /// The message with its location, e.g. `rule 2, word 0: empty word`.
    public var description: String {
        var location = "rule \(ruleIndex)"
        if let wordIndex { location += ", word \(wordIndex)" }
        if let patternUTF8Offset { location += ", offset \(patternUTF8Offset)" }
        return "\(location): \(message)"
    }
}

/// One match: which rule, and where, as a range of UTF-8 byte offsets into the text.
public struct Match: Hashable, Sendable {
    /// The position of the rule in the rule set's list.
    public var ruleIndex: Int
    /// The matched bytes; never empty.
    public var utf8Range: Range<Int>

    /// Creates a match.
    public init(ruleIndex: Int, utf8Range: Range<Int>) {
        self.ruleIndex = ruleIndex
        self.utf8Range = utf8Range
    }
}

/// The matches of a rule set in a text: sorted, non-overlapping, and whether a limit cut them short.
public struct MatchList: Sendable, Equatable {
    /// Sorted by start; no two overlap.
    public var matches: [Match]
    /// True when `RuleSet.Limits.maximumMatchCount` stopped the search while more matches existed.
    public var truncated: Bool
    /// How many bytes the search could read, from the region's start to the end of the furthest
    /// window any of its searches was given: the work a search did, counted exactly on any machine
    /// (tests hold an edit's searches to what the edit changed). Not part of equality.
    public var searchedUTF8Count: Int

    /// Creates a match list.
    public init(matches: [Match], truncated: Bool, searchedUTF8Count: Int = 0) {
        self.matches = matches
        self.truncated = truncated
        self.searchedUTF8Count = searchedUTF8Count
    }

    /// Lists are equal when their matches and truncation are: two searches of one text by different paths agree.
    public static func == (lhs: MatchList, rhs: MatchList) -> Bool {
        lhs.matches == rhs.matches && lhs.truncated == rhs.truncated
    }
}

// A compiled set of rules and the merge that resolves their overlaps.
//
// All literal words of all rules share one automaton (one pass over the text);
// each regex rule has its own compiled regex. Each of these is a *stream* that
// can answer "your best match starting at or after p". The merge keeps one
// candidate per stream and repeatedly takes the best by
//
//     (earliest start, then longest, then lowest rule index)
//
// appends it, moves p to its end, and asks again only the streams whose
// candidate starts before p. So no stream scans text on behalf of another,
// and the output is sorted and free of overlaps by construction.
//
// Regex streams search the text many times (once per match). Each checks out
// its search buffers once per scan, and their look-ahead memo (LazyDFA.swift)
// makes the series linear in the text even when ruling out a longer match
// needs a long look-ahead (`a+b|a` on a run of `a`).
//
// A lost candidate is never read again. When a regex candidate loses to
// another stream's overlapping match, the next question, "the regex's first
// match at or after that match's end", would re-read the rest of the lost
// candidate (words `ab` against `b[a-z]*c` on `abab…abc` ask it at every
// `ab`: quadratic in the line). Instead the stream records, in one backward pass
// (LazyDFA's `recordMatchStarts`), every position where one of its matches
// starts, up to where those matches must end: the next line break the regex
// cannot cross (the k+1st for a regex that spans at most k), or its maximum
// length. From then on the stream's candidate is only a *start* read off the
// recorded starts; its end is searched only when that start can still win (it is at or
// before every other candidate's start), and a candidate that is then chosen
// or beaten on length costs what the winner covers. So each byte is read a
// bounded number of times per stream:
//
//     words ab, regex b[a-z]*c     a b a b a b … a b c
//     literal candidates           [ab][ab][ab] … [ab]
//     regex starts (recorded)        ^   ^   ^  …   ^     ends never searched:
//                                                         each start is beaten by an earlier `ab`
//
// What remains: a regex whose matches can span any number of lines records up
// to the end of the text, once per scan; a DFA cache that thrashes while
// recording leaves that stretch to ordinary searches (the old O(n · L)); and a
// candidate rejected by `accept` costs its length.
//
// A regex stream's candidate is the regex's own leftmost-first match (RE2's
// semantics within one pattern: `TODO\((.*?)\)` stops at the first `)`); the
// merge then applies leftmost, longest, first rule across streams.
//
// Whole-word regex rules compile the whole-word condition into the pattern
// (WordBoundary.swift), so the regex itself finds its preferred match that
// passes it, shorter or later, in linear time.
//
// An `accept` predicate (scopes, per-document rule filters) is applied to each
// candidate *before* it competes, exactly like the whole-word check: a
// rejected literal word never hides a shorter or later word of another rule
// (the automaton tries the next output), and a rejected regex match is
// discarded and the regex searched again from its start plus one character.
// So resolving with a predicate gives the same result as resolving among the
// accepted candidates only.

import UTF8Decoding

/// A compiled, immutable set of rules that finds non-overlapping matches in UTF-8 text.
public struct RuleSet: Sendable {
    /// Limits that keep a search bounded; when one cuts results short, the result says so.
    public struct Limits: Sendable, Hashable {
        /// The most matches returned per search; nil for no limit.
        public var maximumMatchCount: Int?
        /// The largest dense transition table, in bytes, before the automaton falls back to a sparse form.
        var denseAutomatonByteBudget: Int
        /// Whether the literal words may use a prefilter (default true); benchmarks turn it off to time the bare automaton.
        var usesLiteralPrefilter: Bool
        /// Whether a few words are searched by SIMD fingerprints instead of the automaton (default true, with the prefilter).
        var usesFingerprintSearch: Bool

        /// What compiling one regex rule may spend (states, bytes, time); a rule over it is an error, the others work.
        var ruleCompileBudget: CompileBudget
        /// What compiling all regex rules together may spend; once it is spent, the remaining regex rules are errors.
        var ruleSetCompileBudget: CompileBudget

        /// Creates limits.
        public init(
            maximumMatchCount: Int? = nil, denseAutomatonByteBudget: Int = 16 << 20, usesLiteralPrefilter: Bool = true,
            usesFingerprintSearch: Bool = true,
            ruleCompileBudget: CompileBudget = .rule, ruleSetCompileBudget: CompileBudget = .ruleSet
        ) {
            self.maximumMatchCount = maximumMatchCount
            self.denseAutomatonByteBudget = denseAutomatonByteBudget
            self.usesLiteralPrefilter = usesLiteralPrefilter
            self.usesFingerprintSearch = usesFingerprintSearch
            self.ruleCompileBudget = ruleCompileBudget
            self.ruleSetCompileBudget = ruleSetCompileBudget
        }

        /// No match limit and a 16 MiB automaton budget.
        public static let `default` = Limits()
    }

    /// One regex (a regex rule, or a case-insensitive word with too many case variants), whole-word check included.
    struct RegexStream: Sendable {
        var ruleIndex: Int
        var regex: CompiledRegex
    }

    /// The rules as given; rule indices in matches and errors are positions in this list.
    public let rules: [Rule]
    /// Rules (or words) that could not be compiled; they never match, the others work.
    public let errors: [RuleError]
    /// The longest byte length a match can have, or nil when a regex is unbounded (`a+`); bounded regexes (`#[0-9a-f]{6}`) count.
    let maximumMatchUTF8Length: Int?
    /// Whether some rule can match `\n` or `\r`.
    public let canMatchLineTerminator: Bool
    /// The NFA states of the compiled regex rules, within `Limits.ruleSetCompileBudget` (refused rules are not counted).
    let compiledStateCount: Int
    /// How many line breaks one match can span at most, over every rule: in a text without lone
    /// `\r`s (`lineFeeds`: its `\n`s; `TODO[^\n]*\n//.*` spans one), and in any text (`any`:
    /// its `\n`s and `\r`s, since `[^\n]` can cross a lone `\r`); nil when unbounded
    /// (`(?s)BEGIN.*END`).
    public let maximumMatchLineBreaks: (lineFeeds: Int?, any: Int?)
    /// The limits the rule set was built with.
    public let limits: Limits
    let literalAutomaton: LiteralAutomaton?
    let regexStreams: [RegexStream]

    /// Compiles every valid rule; invalid rules are reported in `errors` and never match, the others work. Rule indices are positions in `rules`.
    ///
    /// `compiled`, when given, holds for some regex rules (by rule index) the regex already compiled
    /// from the rule's pattern and options, which is taken rather than compiled again (its cost is
    /// charged to the set's budget all the same).
    ///
    /// - Complexity: O(total word bytes × byte classes) for the words, plus each regex's compile time.
    public init(rules: [Rule], limits: Limits = .default, compiled: [CompiledRegex?] = []) {
        self.init(
            rules: rules, limits: limits,
            automatonConfiguration: LiteralAutomaton.Configuration(
                kind: nil, usesPrefilter: limits.usesLiteralPrefilter, denseByteBudget: limits.denseAutomatonByteBudget,
                usesFingerprintSearch: limits.usesLiteralPrefilter && limits.usesFingerprintSearch),
            compiled: compiled)
    }

    /// Compiles the rules with an explicit automaton configuration (tests use it to force each variant).
    init(rules: [Rule], limits: Limits, automatonConfiguration: LiteralAutomaton.Configuration, compiled: [CompiledRegex?] = []) {
        self.rules = rules
        self.limits = limits
        var errors: [RuleError] = []
        var words: [LiteralPatternSet.Word] = []
        var streams: [RegexStream] = []
        var regexIsUnbounded = false
        var regexMaximumLength = 0
        var lineTerminator = false
        // The rule set's budget, spent rule by rule: each regex compiles within the smaller of its own budget and what is left.
        var tracker = RegexCompileTracker(ruleBudget: limits.ruleCompileBudget, setBudget: limits.ruleSetCompileBudget)
        func compileRegex(_ pattern: String, caseInsensitive: Bool, wholeWord: Bool) throws(RegexError) -> CompiledRegex {
            try tracker.compile(pattern, caseInsensitive: caseInsensitive, wholeWord: wholeWord)
        }
        var mostTerminators: Int? = 0
        var mostLineFeeds: Int? = 0

        for (ruleIndex, rule) in rules.enumerated() {
            switch rule.pattern {
            case .words(let list):
                if list.isEmpty {
                    errors.append(RuleError(ruleIndex: ruleIndex, message: "the rule has no words"))
                }
                for (wordIndex, word) in list.enumerated() {
                    words.append(LiteralPatternSet.Word(
                        ruleIndex: ruleIndex, wordIndex: wordIndex, text: word,
                        caseSensitive: rule.caseSensitive, wholeWord: rule.wholeWord))
                    let terminators = word.utf8.count { $0 == 0x0A || $0 == 0x0D }
                    if terminators > 0 {
                        lineTerminator = true
                        mostTerminators = mostTerminators.map { max($0, terminators) }
                        mostLineFeeds = mostLineFeeds.map { max($0, word.utf8.count { $0 == 0x0A }) }
                    }
                }
            case .regex(let pattern):
                do {
                    let regex: CompiledRegex
                    if ruleIndex < compiled.count, let given = compiled[ruleIndex], given.pattern == pattern,
                       given.caseInsensitive == !rule.caseSensitive, given.wholeWord == rule.wholeWord {
                        try tracker.admit(given)
                        regex = given
                    } else {
                        regex = try compileRegex(pattern, caseInsensitive: !rule.caseSensitive, wholeWord: rule.wholeWord)
                    }
                    streams.append(RegexStream(ruleIndex: ruleIndex, regex: regex))
                    if let length = regex.maximumMatchUTF8Length {
                        regexMaximumLength = max(regexMaximumLength, length)
                    } else {
                        regexIsUnbounded = true
                    }
                    if regex.canMatchLineTerminator { lineTerminator = true }
                    mostTerminators = regex.maximumLineTerminatorCount.flatMap { count in mostTerminators.map { max($0, count) } }
                    mostLineFeeds = regex.maximumLineFeedCount.flatMap { count in mostLineFeeds.map { max($0, count) } }
                } catch {
                    errors.append(RuleError(
                        ruleIndex: ruleIndex, message: error.message, patternUTF8Offset: error.patternUTF8Offset,
                        kind: error.kind == .overBudget ? .overBudget : .invalidRegex))
                }
            }
        }

        let patternSet = LiteralPatternSet(words: words)
        errors.append(contentsOf: patternSet.errors)
        var maximumLength = patternSet.maximumVariantUTF8Length
        for word in patternSet.overflowWords {
            do {
                let regex = try compileRegex(RegexEscaping.escaped(word.word), caseInsensitive: true, wholeWord: word.wholeWord)
                streams.append(RegexStream(ruleIndex: word.ruleIndex, regex: regex))
                maximumLength = max(maximumLength, RegexEscaping.maximumCaseInsensitiveUTF8Length(of: word.word))
            } catch {
                errors.append(RuleError(
                    ruleIndex: word.ruleIndex, message: "could not compile the word: \(error.message)",
                    wordIndex: word.wordIndex))
            }
        }
        // Streams are tried in rule order so equal candidates resolve to the lower rule without extra work.
        streams.sort { $0.ruleIndex < $1.ruleIndex }
        errors.sort { ($0.ruleIndex, $0.wordIndex ?? -1) < ($1.ruleIndex, $1.wordIndex ?? -1) }

        self.errors = errors
        self.regexStreams = streams
        self.literalAutomaton = patternSet.patterns.isEmpty
            ? nil : LiteralAutomaton(patternSet: patternSet, configuration: automatonConfiguration)
        self.maximumMatchUTF8Length = regexIsUnbounded ? nil : max(maximumLength, regexMaximumLength)
        self.canMatchLineTerminator = lineTerminator
        self.compiledStateCount = tracker.statesUsed
        self.maximumMatchLineBreaks = (mostLineFeeds, mostTerminators)
    }

    /// All matches in `text`: sorted, non-overlapping, resolved leftmost, then longest, then first rule.
    ///
    /// - Complexity: O(n) in the scanned text for rules of bounded length (see the type's notes).
    public func matches(in text: UnsafeBufferPointer<UInt8>) -> MatchList {
        matches(in: text, startingIn: 0..<text.count)
    }

    /// All matches in `text` (an array of UTF-8 bytes).
    ///
    /// - Complexity: O(n) in the scanned text.
    public func matches(in text: [UInt8]) -> MatchList {
        text.withUnsafeBufferPointer { matches(in: $0) }
    }

    /// The matches that start inside `utf8Range`, resolved as if the search began at its lower bound; bytes outside are context for boundaries and anchors, and matches may end past the range.
    ///
    /// The range is clamped to the text.
    ///
    /// - Complexity: O(n) in the scanned text: the range, plus what a regex reads to find its next match.
    public func matches(in text: UnsafeBufferPointer<UInt8>, startingIn utf8Range: Range<Int>) -> MatchList {
        matches(in: text, startingIn: utf8Range, accept: nil)
    }

    /// Decides whether a candidate match of a rule may compete at all; see `matches(in:startingIn:accept:)`.
    public typealias MatchFilter = (_ ruleIndex: Int, _ utf8Range: Range<Int>) -> Bool

    /// The matches that start inside `utf8Range`, resolved among the candidates that `accept` lets through.
    ///
    /// A rejected candidate never hides another: the result is that of resolving overlaps among the
    /// accepted candidates only. Only the regex's preferred match at a start is
    /// offered, so `accept` should decide by the rule and the start (as scopes do).
    /// `nil` accepts everything.
    ///
    /// - Complexity: O(n) in the scanned text for regexes whose matches span a bounded number of lines (see the
    ///   type's notes; an unbounded one may read to the end of the text once), plus O(L) per rejected regex
    ///   match of at most L bytes.
    public func matches(
        in text: UnsafeBufferPointer<UInt8>, startingIn utf8Range: Range<Int>, accept: MatchFilter?
    ) -> MatchList {
        let lower = min(max(utf8Range.lowerBound, 0), text.count)
        let upper = min(max(utf8Range.upperBound, lower), text.count)
        guard lower < upper else { return MatchList(matches: [], truncated: false) }

        // Each regex searches a window of the text: all of it, or, for a regex whose matches span at most k line
        // breaks, up to the k+1st line break after the region (that byte kept as context for assertions), past which
        // no match that starts in the region can reach. So a region costs what it covers, not the rest of the text,
        // even when the regex has no match after it.
        let windows = regexStreams.map { Self.searchWindow(of: $0.regex, in: text, startLimit: upper) }
        var windowEnd = literalAutomaton.map { min(text.count, upper &+ $0.maximumPatternUTF8Length) } ?? upper
        for window in windows { windowEnd = max(windowEnd, window.count) }
        // A stream's state: its candidate, or whether it is exhausted.
        var literalCandidate: Match?
        var literalExhausted = literalAutomaton == nil
        // Without a filter (which may expect its candidates in order) or a limit, the automaton's matches are found at
        // once, two walks at a time (see `LiteralAutomaton.matches`), and handed out as candidates.
        var literals = accept == nil && limits.maximumMatchCount == nil
            ? literalAutomaton.map { FoundLiterals(automaton: $0, in: text, from: lower, startLimit: upper) } : nil
        // Each regex's search buffers are checked out once for the whole scan (and carry its look-ahead memo).
        var cursors = regexStreams.map { RegexCursor(stream: $0, scan: $0.regex.beginScan()) }
        defer {
            for cursor in cursors { cursor.stream.regex.endScan(cursor.scan) }
        }
        var results: [Match] = []
        var truncated = false
        var position = lower

        while position < upper {
            // Refresh the streams whose candidate is gone or overlapped.
            if !literalExhausted, literalCandidate.map({ $0.utf8Range.lowerBound < position }) ?? true,
               let automaton = literalAutomaton {
                if literals != nil {
                    literalCandidate = literals?.first(from: position, in: text, startLimit: upper)
                } else {
                    literalCandidate = automaton.nextMatch(in: text, from: position, startLimit: upper, accept: accept)
                }
                literalExhausted = literalCandidate == nil
            }
            // The cursors are changed in place (`cursors[index].…`): a copy of one retained its regex, shared by every
            // thread that searches with the rule set, and its buffers, once a match (a tenth of the search's time).
            for index in cursors.indices {
                let start: Int?
                switch cursors[index].candidate {
                case .exhausted: continue
                case .none: start = nil
                case .start(let offset): start = offset
                case .match(let match): start = match.utf8Range.lowerBound
                }
                if let start, start >= position { continue }
                if start != nil {
                    // The candidate lost to an overlapping match: record the stream's starts rather than re-read it.
                    cursors[index].recordStartsIfNeeded(in: windows[index], from: position, startLimit: upper)
                }
                cursors[index].findCandidate(in: windows[index], from: position, startLimit: upper, accept: accept)
            }

            var best = literalCandidate
            var bestStream: Int?
            for index in cursors.indices {
                // A recorded start competes by its start alone until it could win; then its end is searched.
                while case .some(.start(let start)) = cursors[index].candidate,
                      best.map({ start <= $0.utf8Range.lowerBound }) ?? true {
                    cursors[index].resolveCandidate(in: windows[index], start: start, startLimit: upper, accept: accept)
                }
                guard case .some(.match(let candidate)) = cursors[index].candidate else { continue }
                if let current = best, !Self.isBetter(candidate, than: current) { continue }
                best = candidate
                bestStream = index
            }
            guard let chosen = best else { break }
            if let maximum = limits.maximumMatchCount, results.count >= maximum {
                truncated = true
                break
            }
            results.append(chosen)
            position = chosen.utf8Range.upperBound
            // A chosen regex candidate is used up; searching on from its end is not a loss.
            if let bestStream { cursors[bestStream].candidate = nil }
        }
        return MatchList(matches: results, truncated: truncated, searchedUTF8Count: windowEnd - lower)
    }

    /// The part of `text` a search of `regex` for matches starting before `startLimit` needs: up to and including
    /// the k+1st `\n` at or after `startLimit` for a regex whose matches hold at most k of them (a match that starts
    /// earlier ends before that byte, which stays as the context an assertion at the end may look at), else all of it.
    /// Only `\n`s count: `[^\n]*` crosses any number of `\r`s but no `\n`.
    ///
    /// - Complexity: O(the bytes from `startLimit` to that line feed).
    static func searchWindow(of regex: CompiledRegex, in text: UnsafeBufferPointer<UInt8>, startLimit: Int) -> UnsafeBufferPointer<UInt8> {
        guard startLimit < text.count, let most = regex.maximumLineFeedCount else { return text }
        var found = 0
        var offset = startLimit
        while offset < text.count {
            if text[offset] == 0x0A {
                if found == most { return UnsafeBufferPointer(start: text.baseAddress, count: offset + 1) }
                found += 1
            }
            offset += 1
        }
        return text
    }

    /// Where a regex stream stands in a scan: its next candidate, and the starts it has recorded.
    struct RegexCursor {
        let stream: RegexStream
        /// The regex's search buffers, checked out for the scan.
        let scan: SearchScratch

        enum Candidate {
            /// A match that starts at this offset (recorded); its end is not searched yet.
            case start(Int)
            /// A whole, accepted match.
            case match(Match)
            /// No more candidates before the start limit.
            case exhausted
        }

        /// nil before the first search and after the candidate was chosen.
        var candidate: Candidate?
        var starts = RegexStartSet()
        /// Below this offset recording gave up (the DFA cache thrashed); ordinary searches serve it.
        var unrecordableBelow = 0
    }

    /// The starts of a regex's matches in `lowerBound..<recordedEnd`, one bit per byte offset.
    struct RegexStartSet {
        var lowerBound = 0
        var recordedEnd = 0
        var bits: [UInt64] = []

        /// Whether the recorded starts say where the next start at or after `utf8Offset` is (or that none is before `recordedEnd`).
        func covers(_ utf8Offset: Int) -> Bool {
            utf8Offset >= lowerBound && utf8Offset < recordedEnd
        }

        /// The first recorded start in `utf8Offset..<recordedEnd`, or nil; `utf8Offset` must be covered.
        func firstStart(atOrAfter utf8Offset: Int) -> Int? {
            var bit = utf8Offset - lowerBound
            let limit = recordedEnd - lowerBound
            while bit < limit {
                let word = bits[bit >> 6] >> UInt64(bit & 63)
                if word != 0 {
                    let found = bit + word.trailingZeroBitCount
                    return found < limit ? found + lowerBound : nil
                }
                bit = (bit | 63) + 1
            }
            return nil
        }
    }

    /// The offsets of the first `count` `\n` or `\r` bytes at or after `utf8Offset` (fewer at the end of the text).
    static func lineTerminatorOffsets(in text: UnsafeBufferPointer<UInt8>, from utf8Offset: Int, count: Int) -> [Int] {
        var offsets: [Int] = []
        var index = utf8Offset
        while index < text.count && offsets.count < count {
            let byte = text[index]
            if byte == 0x0A || byte == 0x0D { offsets.append(index) }
            index += 1
        }
        return offsets
    }

    /// The overlap order: earlier start, then longer, then lower rule index.
    @inline(__always)
    static func isBetter(_ a: Match, than b: Match) -> Bool {
        if a.utf8Range.lowerBound != b.utf8Range.lowerBound { return a.utf8Range.lowerBound < b.utf8Range.lowerBound }
        if a.utf8Range.upperBound != b.utf8Range.upperBound { return a.utf8Range.upperBound > b.utf8Range.upperBound }
        return a.ruleIndex < b.ruleIndex
    }

    /// The offset of the character after the one at `utf8Offset` (one byte on invalid UTF-8).
    static func nextCharacterOffset(in text: UnsafeBufferPointer<UInt8>, after utf8Offset: Int) -> Int {
        guard utf8Offset < text.count else { return utf8Offset + 1 }
        if let (_, length) = UTF8Decoding.scalar(at: utf8Offset, in: text) {
            return utf8Offset + length
        }
        return utf8Offset + 1
    }
}

extension RuleSet.RegexCursor {
    /// Records the stream's match starts from `utf8Offset` on, unless they are recorded already or recording gave up there.
    ///
    /// For a regex that spans at most k line breaks the recorded starts reach up to the next line break, and the
    /// backward pass begins at the k+1st, where every match from those starts has ended (or sooner, at the
    /// longest match length); for one that spans any number, they cover everything up to `startLimit`.
    mutating func recordStartsIfNeeded(in text: UnsafeBufferPointer<UInt8>, from utf8Offset: Int, startLimit: Int) {
        guard !starts.covers(utf8Offset), utf8Offset >= unrecordableBelow, utf8Offset < startLimit else { return }
        var recordedEnd = startLimit
        var end = text.count
        if let most = stream.regex.maximumLineTerminatorCount {
            let terminators = RuleSet.lineTerminatorOffsets(in: text, from: utf8Offset, count: most + 1)
            if let first = terminators.first { recordedEnd = min(recordedEnd, first + 1) }
            if terminators.count > most { end = terminators[most] }
        }
        if let length = stream.regex.maximumMatchUTF8Length {
            end = min(end, recordedEnd - 1 + length)
        }
        end = min(max(end, utf8Offset), text.count)
        var bits = starts.bits
        starts.bits = []
        if stream.regex.recordMatchStarts(in: text, lowerBound: utf8Offset, end: end, bits: &bits, scan: scan) {
            starts = RuleSet.RegexStartSet(lowerBound: utf8Offset, recordedEnd: recordedEnd, bits: bits)
        } else {
            starts = RuleSet.RegexStartSet(lowerBound: 0, recordedEnd: 0, bits: bits)
            unrecordableBelow = recordedEnd
        }
    }

    /// Sets `candidate` to the regex's next acceptable candidate starting in `utf8Offset..<startLimit`: only its start
    /// where the recorded starts cover it, else a match found by a search.
    mutating func findCandidate(
        in text: UnsafeBufferPointer<UInt8>, from utf8Offset: Int, startLimit: Int, accept: RuleSet.MatchFilter?
    ) {
        var from = utf8Offset
        while from < startLimit {
            if starts.covers(from) {
                if let start = starts.firstStart(atOrAfter: from) {
                    candidate = start < startLimit ? .start(start) : .exhausted
                    return
                }
                from = starts.recordedEnd
                continue
            }
            guard let range = stream.regex.firstMatch(in: text, from: from, scan: scan) else { break }
            // Distrust what cannot be: empty, out of bounds or before `from`; step over it.
            guard range.lowerBound >= from, range.upperBound <= text.count, !range.isEmpty else {
                from = RuleSet.nextCharacterOffset(in: text, after: max(from, min(range.lowerBound, text.count)))
                continue
            }
            if range.lowerBound >= startLimit { break }
            if let accept, !accept(stream.ruleIndex, range) {
                from = RuleSet.nextCharacterOffset(in: text, after: range.lowerBound)
                continue
            }
            candidate = .match(Match(ruleIndex: stream.ruleIndex, utf8Range: range))
            return
        }
        candidate = .exhausted
    }

    /// Sets `candidate` to the match at a recorded start, searched for its end; when `accept` rejects it, to the next
    /// candidate.
    mutating func resolveCandidate(
        in text: UnsafeBufferPointer<UInt8>, start: Int, startLimit: Int, accept: RuleSet.MatchFilter?
    ) {
        // A match starts at `start`, so the search from there finds it at once; trust the search over the recorded starts.
        guard let range = stream.regex.firstMatch(in: text, from: start, scan: scan) else {
            candidate = .exhausted
            return
        }
        guard range.lowerBound >= start, range.upperBound <= text.count, !range.isEmpty else {
            let next = RuleSet.nextCharacterOffset(in: text, after: max(start, min(range.lowerBound, text.count)))
            findCandidate(in: text, from: next, startLimit: startLimit, accept: accept)
            return
        }
        if range.lowerBound >= startLimit {
            candidate = .exhausted
        } else if let accept, !accept(stream.ruleIndex, range) {
            findCandidate(in: text, from: RuleSet.nextCharacterOffset(in: text, after: range.lowerBound), startLimit: startLimit, accept: accept)
        } else {
            candidate = .match(Match(ruleIndex: stream.ruleIndex, utf8Range: range))
        }
    }
}

/// Writing a literal word as a regex, for case-insensitive words with too many case variants (and for importers
/// that build a regex around a literal tag).
public enum RegexEscaping {
    /// `word` with every regex metacharacter escaped: each of `\ ^ $ . | ? * + ( ) [ ] { }` gets a backslash, which
    /// makes it stand for itself in RE2 and in JavaScript alike.
    public static func escaped(_ word: String) -> String {
        var result = ""
        for scalar in word.unicodeScalars {
            if "\\^$.|?*+()[]{}".unicodeScalars.contains(scalar) {
                result.unicodeScalars.append("\\")
            }
            result.unicodeScalars.append(scalar)
        }
        return result
    }

    /// The longest UTF-8 length of any case variant of `word`.
    static func maximumCaseInsensitiveUTF8Length(of word: String) -> Int {
        word.unicodeScalars.reduce(0) { total, scalar in
            total + CaseFolding.equivalents(of: scalar).reduce(0) { max($0, $1.utf8.count) }
        }
    }
}

// The public face of the regex engine.
//
// Within one pattern, matching follows RE2's default semantics: the leftmost
// start wins, and at that start the match a backtracking matcher would find
// first (alternation branches in written order, greedy repetitions preferring
// more, lazy ones fewer), never an empty match. `RegexMatchKind.leftmostLongest`
// keeps the POSIX-style alternative (the longest match at the leftmost start).
//
//     pattern --RegexParser--> RegexSyntax --NFACompiler--> NFAs --> engines
//
// Three NFAs are compiled: the forward one restricted to non-empty matches
// (for search), its reverse (to find where a match starts once its end is
// known), and a forward one with capture slots (for `captures`). Searching
// uses a lazily built DFA and falls back to the Pike VM when the DFA's state
// cache thrashes; see LazyDFA.swift for the algorithm and its proof. When no
// first byte is rare but a rare byte sits inside every match (`-` in
// `\b[A-Z]{2,}-\d+\b`), candidates come from a byte scan for it instead
// (`InnerLiteral` in Prefilter.swift).
//
// Thread safety: a `CompiledRegex` is an immutable value around an immutable
// program. The mutable search state (DFA caches, Pike VM buffers) lives in
// scratch values kept in a small pool guarded by a `Mutex`; a search checks
// one out, uses it without locking, and puts it back. Concurrent searches
// therefore never share a cache, and a warm cache is reused by later calls.

import Synchronization

/// Which of the matches at the leftmost start a search reports.
public enum RegexMatchKind: Sendable, Hashable {
    /// The first in priority order, as RE2, Go, Rust and Perl report it (`a|ab` on `ab` gives `a`; `a+?` gives `a`).
    case leftmostFirst
    /// The longest (`a|ab` on `ab` gives `ab`; laziness is ignored), as POSIX specifies.
    case leftmostLongest
}

/// A compiled pattern with leftmost-first (or leftmost-longest), non-empty, linear-time matching over UTF-8 bytes.
public struct CompiledRegex: Sendable {
    let program: RegexProgram
    /// The options it was compiled with, so that a rule set can tell whether it may take it as a rule's regex.
    let caseInsensitive: Bool
    public let wholeWord: Bool
    /// The automaton states and bytes compiling it cost, charged again when a rule set takes it
    /// (`RegexCompileTracker.admit(_:)`).
    let compiledStates: Int
    let compiledBytes: Int

    /// Compiles `pattern` (RE2 syntax); `caseInsensitive` is the same as a leading `(?i)`.
    ///
    /// - Complexity: O(pattern size after expanding repetitions), bounded by the automaton size limit.
    /// With `wholeWord`, a match must have no word character (as `(?u)\w` reads it) right before or right after it;
    /// the check is part of the pattern, so the preferred match that passes it is found (`a-b|a` on `a-bc` gives `a`).
    /// A pattern whose automaton would exceed `budget` (states, bytes or time, measured while compiling) is
    /// rejected with a "pattern too large" error.
    public init(
        _ pattern: String, caseInsensitive: Bool = false, matchKind: RegexMatchKind = .leftmostFirst, wholeWord: Bool = false,
        budget: CompileBudget = .rule
    ) throws(RegexError) {
        var meter = CompileMeter(budget: budget, owner: "the pattern's budget")
        try self.init(pattern, caseInsensitive: caseInsensitive, matchKind: matchKind, wholeWord: wholeWord, meter: &meter)
    }

    /// Compiles within `meter`, which is charged for what the program costs (a rule set shares one budget this way).
    init(
        _ pattern: String, caseInsensitive: Bool = false, matchKind: RegexMatchKind = .leftmostFirst, wholeWord: Bool = false,
        meter: inout CompileMeter
    ) throws(RegexError) {
        let (statesBefore, bytesBefore) = (meter.statesUsed, meter.bytesUsed)
        self.caseInsensitive = caseInsensitive
        self.wholeWord = wholeWord
        var syntax = try RegexParser.parse(pattern, caseInsensitive: caseInsensitive)
        if wholeWord {
            syntax.root = .concat([.look(.notAfterWordCharacter), syntax.root, .look(.notBeforeWordCharacter)])
        }
        // The forward and capture NFAs each have at least this many states; refuse before building when that is too many.
        if let problem = meter.problemIfCharged(states: 2 * NFACompiler.minimumStateCount(of: syntax.root)) {
            throw RegexError.overBudget(problem, patternUTF8Offset: NFACompiler.costliestRepetitionOffset(in: syntax.root))
        }
        program = try RegexProgram(pattern: pattern, syntax: syntax, matchKind: matchKind, meter: &meter)
        compiledStates = meter.statesUsed - statesBefore
        compiledBytes = meter.bytesUsed - bytesBefore
    }

    /// Which match at the leftmost start a search reports.
    var matchKind: RegexMatchKind { program.matchKind }

    /// The pattern as written.
    public var pattern: String { program.pattern }

    /// The number of capturing groups, excluding group 0 (the whole match).
    var captureCount: Int { program.syntax.captureCount }

    /// The names of groups 0...captureCount; nil for unnamed groups (group 0 is always nil).
    public var captureNames: [String?] { program.syntax.captureNames }

    /// Byte strings one of which starts every match, when the pattern has such a small set (e.g. `TODO|FIXME`).
    var prefixLiterals: [[UInt8]]? { program.prefixLiterals }

    /// True when a match can contain a line terminator (the caller must then rescan beyond the edited line).
    public var canMatchLineTerminator: Bool { program.canMatchLineTerminator }
    /// The most line breaks a match can contain in a text without lone `\r`s (its `\n`s), or nil when unbounded.
    var maximumLineFeedCount: Int? { program.canMatchLineTerminator ? program.maximumLineFeedCount : 0 }
    /// The most `\n` and `\r` bytes a match can contain, or nil when unbounded: a bound on its line breaks in any text.
    var maximumLineTerminatorCount: Int? { program.canMatchLineTerminator ? program.maximumLineTerminatorCount : 0 }

    /// The most UTF-8 bytes a match can span, or nil when the pattern is unbounded (`a+`, `\w*`).
    var maximumMatchUTF8Length: Int? { program.maximumMatchUTF8Length }

    /// The leftmost non-empty match with lowerBound >= from, chosen by `matchKind` among those at that start; bytes
    /// before `from` are context for assertions.
    ///
    /// - Complexity: O(n) for the bytes scanned: the bytes up to the match end plus the look-ahead needed to
    ///   rule out a preferred later end (usually a few bytes).
    public func firstMatch(in text: UnsafeBufferPointer<UInt8>, from utf8Offset: Int) -> Range<Int>? {
        firstMatch(in: text, from: utf8Offset, engine: .automatic)
    }

    /// The capture groups of `match` (a range returned by `firstMatch` on the same text): index 0 is the match itself.
    ///
    /// Sub-matches follow leftmost-first (RE2) priority among the ways to match exactly `match`;
    /// groups that did not participate are nil.
    ///
    /// - Complexity: O(match length x pattern size).
    public func captures(in text: UnsafeBufferPointer<UInt8>, match: Range<Int>) -> [Range<Int>?] {
        PikeVM.captures(program.captureNFA, in: text, span: match)
    }

    /// The search with an explicit engine choice (tests run every table against every engine).
    func firstMatch(in text: UnsafeBufferPointer<UInt8>, from utf8Offset: Int, engine: RegexEngineChoice) -> Range<Int>? {
        let from = max(utf8Offset, 0)
        guard from < text.count else { return nil }
        return program.withScratch { scratch in
            switch engine {
            case .pikeVM:
                return PikeVM.search(
                    program.searchNFA, in: text, from: from, kind: program.matchKind, scratch: &scratch.state.pikeVM)
            case .automatic:
                return program.search(text, from: from, limits: .standard, state: &scratch.state)
            case .lazyDFA(let limits, let usesInnerLiteral):
                return program.search(text, from: from, limits: limits, usesInnerLiteral: usesInnerLiteral, state: &scratch.state)
            }
        }
    }
}

extension CompiledRegex {
    /// Starts a series of searches of one text (a rule set's scan): the scratch is checked out once, and the
    /// look-ahead memo makes the whole series linear in the text (see LazyDFA.swift).
    func beginScan(limits: DFALimits = .standard) -> SearchScratch {
        let scratch = program.checkOutScratch()
        if scratch.state.limits != limits {
            scratch.state = SearchState(program, limits: limits)
        }
        scratch.state.forwardDFA.resetMemo(enabled: true)
        return scratch
    }

    /// Ends a series begun with `beginScan`; the scratch must not be used afterwards.
    func endScan(_ scratch: SearchScratch) {
        scratch.state.forwardDFA.resetMemo(enabled: false)
        program.checkIn(scratch)
    }

    /// Within a scan: sets bit `q - lowerBound` of `bits` for every start q in `lowerBound...end` of a non-empty
    /// match that ends at or before `end` (bytes outside are context); false when the DFA gave up.
    ///
    /// `firstMatch(in:from:scan:)` from a recorded start finds the match there, with its end.
    ///
    /// - Complexity: O(end - lowerBound) in one backward pass.
    func recordMatchStarts(
        in text: UnsafeBufferPointer<UInt8>, lowerBound: Int, end: Int, bits: inout [UInt64], scan scratch: SearchScratch
    ) -> Bool {
        // Searched in place through optional chaining: binding it to a local copied the whole DFA (a retain and a
        // release of each of its tables) per call, and even `== nil` copied it to read its tag.
        if let recorded = scratch.state.everyStartDFA?.recordMatchStarts(in: text, end: end, lowerBound: lowerBound, bits: &bits) {
            return recorded
        }
        scratch.state.everyStartDFA = LazyDFA(
            nfa: program.reverseNFA, reverse: true, kind: .leftmostLongest, limits: scratch.state.limits,
            flagsStartLikeStates: false, recordsEveryStart: true)
        return scratch.state.everyStartDFA?.recordMatchStarts(in: text, end: end, lowerBound: lowerBound, bits: &bits) ?? false
    }

    /// `firstMatch(in:from:)` within a scan: the same text as every other search with this scratch since `beginScan`.
    ///
    /// - Complexity: O(n · m) over all the searches of one scan, for n text bytes and m NFA states.
    func firstMatch(in text: UnsafeBufferPointer<UInt8>, from utf8Offset: Int, scan scratch: SearchScratch) -> Range<Int>? {
        let from = max(utf8Offset, 0)
        guard from < text.count else { return nil }
        return program.search(text, from: from, limits: scratch.state.limits, state: &scratch.state)
    }
}

/// Which engine a search uses.
enum RegexEngineChoice: Sendable {
    /// The lazy DFA with standard limits, falling back to the Pike VM.
    case automatic
    /// The Pike VM only.
    case pikeVM
    /// The lazy DFA with the given limits, falling back to the Pike VM; `usesInnerLiteral` as for `search`.
    case lazyDFA(DFALimits, usesInnerLiteral: Bool = true)
}

/// Mutable per-search state, checked out of a program's pool by one search at a time.
///
/// A class, so that checking it out and back costs a pointer move rather than copying every buffer.
// @unchecked Sendable: an instance is reachable either from the pool, only inside its mutex, or from
// the one search that checked it out (`withScratch`), never from two threads at once.
final class SearchScratch: @unchecked Sendable {
    /// Accessed once per search (`inout`), so exclusivity is checked once rather than per field.
    var state: SearchState

    init(_ program: RegexProgram) {
        state = SearchState(program, limits: .standard)
    }
}

/// The buffers and caches of one search.
struct SearchState {
    var pikeVM = PikeVMScratch()
    var forwardDFA: LazyDFA
    var reverseDFA: LazyDFA
    /// Over the reversed prefix of the inner literal, when the pattern has one.
    var reversePrefixDFA: LazyDFA?
    /// Over the reverse NFA, recording every match start (`CompiledRegex.recordMatchStarts`); built on first use.
    var everyStartDFA: LazyDFA?
    /// The limits both DFAs were built with.
    var limits: DFALimits

    init(_ program: RegexProgram, limits: DFALimits) {
        self.limits = limits
        forwardDFA = LazyDFA(
            nfa: program.searchNFA, reverse: false, kind: program.matchKind, limits: limits,
            flagsStartLikeStates: program.firstBytes != nil)
        // A reverse pass looks for the smallest start of any match ending where it began: every thread counts.
        reverseDFA = LazyDFA(nfa: program.reverseNFA, reverse: true, kind: .leftmostLongest, limits: limits, flagsStartLikeStates: false)
        reversePrefixDFA = program.innerLiteral.map {
            LazyDFA(nfa: $0.reversePrefixNFA, reverse: true, kind: .leftmostLongest, limits: limits, flagsStartLikeStates: false)
        }
    }
}

/// Everything compiled from one pattern; immutable apart from the scratch pool.
final class RegexProgram: Sendable {
    let pattern: String
    let syntax: RegexSyntax
    let matchKind: RegexMatchKind
    /// Forward, non-empty matches only, no captures.
    let searchNFA: NFA
    /// The reverse of `searchNFA`'s language, non-empty matches only.
    let reverseNFA: NFA
    /// Forward, with capture slots.
    let captureNFA: NFA
    let prefixLiterals: [[UInt8]]?
    /// Bytes that can start a match (for skipping ahead), when they are few.
    let firstBytes: FirstByteSet?
    /// A rare byte inside every match, used when no first byte is rare enough.
    let innerLiteral: InnerLiteral?
    let canMatchLineTerminator: Bool
    let maximumLineFeedCount: Int?
    let maximumLineTerminatorCount: Int?
    let maximumMatchUTF8Length: Int?
    private let scratchPool = Mutex<[SearchScratch]>([])

    /// How many idle scratch values are kept.
    private static let poolLimit = 8

    init(pattern: String, syntax: RegexSyntax, matchKind: RegexMatchKind, meter: inout CompileMeter) throws(RegexError) {
        self.pattern = pattern
        self.syntax = syntax
        self.matchKind = matchKind
        // Every NFA, and each non-empty copy, is charged to the one meter, so the budget covers the whole program.
        let forward = try NFACompiler.compile(syntax, reverse: false, includeCaptures: false, meter: &meter)
        searchNFA = forward.restrictedToNonEmptyMatches()
        if let problem = meter.charge(searchNFA) { throw RegexError.overBudget(problem, patternUTF8Offset: 0) }
        let reverse = try NFACompiler.compile(syntax, reverse: true, includeCaptures: false, meter: &meter)
        reverseNFA = reverse.restrictedToNonEmptyMatches()
        if let problem = meter.charge(reverseNFA) { throw RegexError.overBudget(problem, patternUTF8Offset: 0) }
        captureNFA = try NFACompiler.compile(syntax, reverse: false, includeCaptures: true, meter: &meter)
        canMatchLineTerminator = forward.canConsumeLineTerminator
        maximumMatchUTF8Length = syntax.root.maximumUTF8Length
        maximumLineFeedCount = syntax.root.maximumCount(ofAny: [0x0A])
        maximumLineTerminatorCount = syntax.root.maximumCount(ofAny: [0x0A, 0x0D])
        prefixLiterals = LiteralPrefixes.prefixes(of: syntax.root)
        firstBytes = FirstByteSet(searchNFA)
        innerLiteral = firstBytes == nil ? try InnerLiteral(syntax.root, meter: &meter) : nil
    }

    /// Runs `body` with a scratch value from the pool (or a fresh one) and returns the value to the pool.
    func withScratch<Result>(_ body: (SearchScratch) -> Result) -> Result {
        let scratch = checkOutScratch()
        let result = body(scratch)
        checkIn(scratch)
        return result
    }

    /// A scratch value from the pool, or a fresh one; give it back with `checkIn`.
    func checkOutScratch() -> SearchScratch {
        scratchPool.withLock { $0.popLast() } ?? SearchScratch(self)
    }

    /// Returns a scratch value to the pool (or drops it when the pool is full).
    func checkIn(_ scratch: SearchScratch) {
        scratchPool.withLock { pool in
            if pool.count < RegexProgram.poolLimit {
                pool.append(scratch)
            }
        }
    }
}

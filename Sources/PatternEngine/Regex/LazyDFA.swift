// A lazily built DFA for leftmost-first or leftmost-longest, non-empty search.
//
// Leftmost-first (RE2's default, and this DFA's forward mode for it): a state's
// kernel is one ordered list of NFA states in thread priority order (the order
// of the Pike VM's threads; a state reached twice keeps its first, higher
// place). The closure is taken state by state in that order, depth first with
// union targets in priority order, and stops at the first `match` it reaches:
// everything after it has a lower priority and is dropped, and no new start is
// made. The threads before it run on; one of them matching later replaces the
// match, so the last match end the pass sees is the end of the leftmost-first
// match (this is how RE2's DFA does it). The start is then found by the reverse
// pass exactly as below: the smallest s with (s, e*) a match is the leftmost
// start, because no match starts before it. The look-ahead memo's argument
// holds unchanged: after the last match end no cut happens, so every state
// still held afterwards genuinely never reaches a match.
//
// What follows describes the leftmost-longest mode (used by the reverse
// passes, and by patterns compiled with `RegexMatchKind.leftmostLongest`).
//
// States are built on demand from sets of NFA states and cached in a
// transition table (one row per state, one column per byte class: bytes that
// no transition and no assertion tells apart share a column), so the inner
// loop is one table load per byte and the table stays small enough for L1. The cache is bounded: when it is full it
// is cleared, and a search that has to clear it too often gives up and lets
// the Pike VM run instead (the result is the same, only slower).
//
// State contents. A DFA state holds
//   - the NFA states reached by the last byte ("kernel"), before their
//     epsilon closure, split into groups by the position they started at
//     (earliest start first);
//   - the class of the side behind the scan position (edge, \n, \r, word,
//     other), so that assertions can be decided once the byte ahead is known;
//   - whether new threads are still started at each position (unanchored
//     forward search until the first match);
//   - whether a match ended just before the last byte.
// The closure is taken when the next byte (or the end of input) is seen,
// because only then are both sides of the position known and `^ $ \b \B`
// decidable. A non-ASCII byte's word class needs its whole scalar: the
// search loop decodes it and picks one of two columns (word or not) for
// patterns with `\b` or `\B`.
//
// Search = forward pass, then reverse pass:
//
//     from                    s*              e*
//     |.......................[===== match ====]....>  forward: finds e*
//                             <=================|       reverse: finds s*
//
// Forward (unanchored, leftmost-longest in the style of RE2's "longest match"
// mode): groups are kept in start order and a state reached from two starts
// is kept only in the earlier group (identical futures, earlier start
// preferred). When group k's closure contains `match` at position i, (s_k, i)
// is a match; later groups (later starts) are dropped and no new starts are
// made. The pass ends when no group is left, and reports the last match end
// it saw.
//
// Why that end is e*, the end of the leftmost-longest match (s*, e*).
// (1) Every reported end belongs to a real match, whose start is that of its
//     group. (2) Starts are made at every position until the first match is
//     seen at some i0; that match starts at or after s*, so s* < i0 and the
//     thread from s* was started. (3) Along the NFA path of (s*, e*), each
//     state sits in the group of s*: in a group with an earlier start it would
//     give a match starting before s*. (4) That group is never dropped: a
//     drop needs a match in an earlier group, i.e. one starting before s*.
//     So (s*, e*) is seen at e*. After that only groups starting at or before
//     s* remain, so every later match starts at s* exactly and would end
//     after e*, contradicting the maximality of e*. Before it, every match
//     seen starts at or after s*. Hence the last end seen is e*.
//
// Reverse (anchored at e*): the DFA of the reversed pattern scans backwards
// from e* down to `from` and reports the smallest position where a match of
// the reversed pattern ends, i.e. the smallest s with (s, e*) a match. Since
// (s*, e*) is a match and no match starts before s*, that position is s*.
//
// Cost: the forward pass reads each byte from `from` to its end once (up to
// e* plus the look-ahead needed to rule out a longer match, usually a few
// bytes); the reverse pass reads e* - s* bytes.
//
// Linear time across calls (the look-ahead memo). Searching for every match
// calls the forward pass again from e*, and it reads the look-ahead once more.
// With `a+b|a` on a long run of `a`, each call reads to the end of the run to
// rule out the `b`, which is quadratic. But the first pass has proven
// something about the text: after e*, no NFA state it still held ever reached
// a match (else e* would not be the last end). So the NFA states of its
// kernel at each position q in (e*, stop] are *doomed* at q, whatever search
// they appear in later: their future depends only on the state, the text
// from q on and the class behind q. When that look-ahead is long, the pass is
// run once more to record the doomed sets position by position, merged with
// what earlier passes proved (a memo region of positions -> set ids), and
// later passes remove doomed states from their kernels at those positions.
//
//     call 1 from 0:   [a]aaaaaaaaaaaaaaa     look-ahead to the end: doomed {a+} at 2...n
//     call 2 from 1:    a[a]a ...              kernel at 2 = {a+} minus doomed = dead: stop
//
// A pass only reads far past its match end when some state is not doomed
// yet, and then it adds that state to the sets it records, so each position
// is re-read at most once per NFA state: O(n · m) over all calls, linear in
// the text. The memo describes one text, so only searches that say so (a rule
// set's scan, which resets it first) use it.
//
// Every start at once (`recordsEveryStart`). A rule set whose regex candidate
// lost to another rule's overlapping match needs the regex's next start after
// that match, again and again along a line. One backward pass answers all of
// those questions: the DFA of the reversed pattern, started at every position
// (new threads at each step, never cut, all NFA states in one group), is in a
// match state at q exactly when some non-empty match [q, j) with j no later
// than where the pass began exists. So one pass from `end` down to `lowerBound`
// records every start whose matches all end by `end`:
//
//     lowerBound                                      end
//     |<---------------- one pass, every thread ------|
//     ^ ^   ^ ^                                          recorded: where matches start
//
// The rule set then asks the forward search for a match's end only when that
// match can still win, so a lost candidate is never read again (RuleSet.swift).

/// Limits on a lazy DFA's cache.
struct DFALimits: Sendable, Equatable {
    /// The most states cached before the cache is cleared.
    var maxStates: Int
    /// How many clears one search may cause before it falls back to the Pike VM.
    var maxClearsPerSearch: Int
    /// Look-aheads up to this many bytes are simply read again by the next search; longer ones are recorded in the memo.
    var memoThreshold = 32

    /// Limits for ordinary use: a few MB of table at most per DFA.
    static let standard = DFALimits(maxStates: 2048, maxClearsPerSearch: 8)
}

/// A cache key: a DFA row and a doomed-set id.
private struct RowAndSet: Hashable {
    var row: Int32
    var set: Int32
}

/// A map from (row, set) keys that remembers its last lookup: along a run of text the same key repeats, and
/// hashing would dominate.
private struct RowAndSetCache {
    private var values: [RowAndSet: Int32] = [:]
    private var last = (key: RowAndSet(row: -1, set: -1), value: Int32(0))

    mutating func value(for key: RowAndSet) -> Int32? {
        if last.key == key { return last.value }
        guard let value = values[key] else { return nil }
        last = (key, value)
        return value
    }

    mutating func store(_ value: Int32, for key: RowAndSet) {
        values[key] = value
        last = (key, value)
    }

    mutating func removeAll() {
        values.removeAll(keepingCapacity: true)
        last.key = RowAndSet(row: -1, set: -1)
    }
}

/// The identity of a DFA state.
private struct DFAStateKey: Hashable {
    /// NFA states, groups separated by -1, earliest start first, sorted within a group.
    var kernel: [Int32]
    var behind: SideClass
    var startsNewThreads: Bool
    var matchedBeforeLastByte: Bool
}

/// A lazily built DFA over one NFA, with its bounded cache; one search uses it at a time.
struct LazyDFA: Sendable {
    /// Flags kept in bits 24...27 of table entries (the state's row offset fills the low 24 bits).
    private enum EntryFlag {
        static let match: Int32 = 1 << 24
        static let dead: Int32 = 2 << 24
        static let startLike: Int32 = 4 << 24
        static let unknown: Int32 = 8 << 24
        static let mask: Int32 = 0x0F00_0000
        /// Row offsets must stay below this.
        static let rowLimit = 1 << 24
    }

    /// How a pass ended.
    enum Outcome: Equatable {
        case found(Int)
        case notFound
        case gaveUp
    }

    let limits: DFALimits
    private let nfa: NFA
    /// Leftmost-first (ordered kernels, cut at the first match) or leftmost-longest (groups by start).
    private let kind: RegexMatchKind
    /// Scanning backwards (over the reverse NFA) rather than forwards.
    private let isReverse: Bool
    /// Columns per row: the byte classes, twice over when non-ASCII bytes come in word and non-word flavours.
    private let stride: Int
    /// The byte class (column) of each byte.
    private let byteClasses: [UInt8]
    /// The number of byte classes.
    private let classCount: Int
    private let usesWordColumns: Bool
    /// Whether start-like states are flagged so the search can skip ahead with a prefilter.
    private let flagsStartLikeStates: Bool
    /// Whether every position starts a thread and no match cuts anything (one group): a match state at q
    /// means some match ends at q, whatever its start (`recordMatchStarts`).
    private let recordsEveryStart: Bool

    private var keys: [DFAStateKey] = []
    private var index: [DFAStateKey: Int32] = [:]
    private var table: [Int32] = []
    /// Per state and side class beyond the end: 1 if a match ends at the end of the pass, 0 if not, -1 if not known yet.
    private var endMatches: [Int8] = []
    /// Start state rows by the raw value of the side class behind the start, unanchored ones first, then anchored
    /// ones; -1 when not built yet.
    private var startRows: [Int32] = Array(repeating: -1, count: 2 * SideClass.allCases.count)
    private var clearsThisSearch = 0
    /// One row of "not computed yet" entries, appended for each new state.
    private let unknownRow: [Int32]
    private var totalClears = 0

    // The look-ahead memo (see "Linear time across calls" above).
    /// Whether the memo is used and extended (a rule set's scan of one text).
    private var memoEnabled = false
    /// Sets of NFA states (sorted, no separators); ids index this list.
    private var doomedSets: [[Int32]] = []
    private var doomedSetIDs: [[Int32]: Int32] = [:]
    /// `doomedSetAt[q - memoLow]`: the id of the doomed set at position `q`, or -1.
    private var doomedSetAt: [Int32] = []
    private var memoLow = 0
    /// (row, set id) -> entry of the row's state with the set's NFA states removed; rows go stale on a clear.
    private var prunedEntries = RowAndSetCache()
    /// (row, set id or -1) -> id of the union of the set and the row's kernel.
    private var unions = RowAndSetCache()

    // Buffers reused by transition computation.
    private var stamps: [UInt32]
    private var generation: UInt32 = 0
    private var stack: [Int32] = []
    private var closureStates: [Int32] = []

    /// A DFA over `nfa`, scanning backwards when `reverse`; with `recordsEveryStart`, for `recordMatchStarts` only.
    init(nfa: NFA, reverse: Bool, kind: RegexMatchKind, limits: DFALimits, flagsStartLikeStates: Bool, recordsEveryStart: Bool = false) {
        self.nfa = nfa
        self.recordsEveryStart = recordsEveryStart
        self.kind = kind
        self.isReverse = reverse
        self.limits = limits
        // Rows are addressed by 24-bit offsets; a huge state limit is capped below.
        self.usesWordColumns = nfa.hasUnicodeWordBoundary
        let (byteClasses, classCount) = LazyDFA.byteClasses(for: nfa)
        self.byteClasses = byteClasses
        self.classCount = classCount
        self.stride = nfa.hasUnicodeWordBoundary ? 2 * classCount : classCount
        self.flagsStartLikeStates = flagsStartLikeStates
        self.stamps = Array(repeating: 0, count: nfa.count)
        self.unknownRow = Array(repeating: EntryFlag.unknown, count: stride)
    }

    // MARK: Searching

    /// Above this many distinct doomed sets the memo stops growing (memory stays bounded; searches stay
    /// correct, only the linear-time guarantee is lost for the rest of the scan).
    static let maximumDoomedSets = 1 << 16

    /// Forgets the memo and turns it on or off; a scan of a new text must call it first.
    mutating func resetMemo(enabled: Bool) {
        memoEnabled = enabled
        doomedSets.removeAll(keepingCapacity: true)
        doomedSetIDs.removeAll(keepingCapacity: true)
        doomedSetAt.removeAll(keepingCapacity: true)
        memoLow = 0
        prunedEntries.removeAll()
        unions.removeAll()
    }

    /// The end of the leftmost-longest match starting at or after `from` (forward DFA, unanchored).
    ///
    /// - Complexity: O(bytes scanned), amortised over cache misses; with the memo, O(n · m) over all the calls
    ///   of one scan for n text bytes and m NFA states.
    mutating func findEnd(in text: UnsafeBufferPointer<UInt8>, from: Int, firstBytes: FirstByteSet?) -> Outcome {
        findEnd(in: text, from: from, firstBytes: firstBytes, anchored: false)
    }

    /// The end of the longest match starting exactly at `from` (forward DFA, anchored).
    ///
    /// - Complexity: as `findEnd(in:from:firstBytes:)`.
    mutating func findAnchoredEnd(in text: UnsafeBufferPointer<UInt8>, from: Int) -> Outcome {
        findEnd(in: text, from: from, firstBytes: nil, anchored: true)
    }

    private mutating func findEnd(in text: UnsafeBufferPointer<UInt8>, from: Int, firstBytes: FirstByteSet?, anchored: Bool) -> Outcome {
        var recorded: [Int32] = []
        let (outcome, stop) = scanForward(
            text, from: from, firstBytes: firstBytes, anchored: anchored, recordAfter: .max, recorded: &recorded)
        // After the match end, or after the start of an anchored pass that found nothing, every kernel is doomed.
        // (An unanchored pass that finds nothing ends the series, so there is nothing to save for.)
        var provenAfter: Int?
        switch outcome {
        case .found(let end): provenAfter = end
        case .notFound: provenAfter = anchored ? from : nil
        case .gaveUp: provenAfter = nil
        }
        if memoEnabled, let provenAfter, stop - provenAfter > limits.memoThreshold,
           doomedSets.count < LazyDFA.maximumDoomedSets {
            // Run again, recording the doomed kernels after `provenAfter`; keep them only if the run agrees.
            let (again, _) = scanForward(
                text, from: from, firstBytes: firstBytes, anchored: anchored, recordAfter: provenAfter, recorded: &recorded)
            if again == outcome {
                mergeMemo(firstPosition: provenAfter + 1, sets: recorded)
            }
        }
        return outcome
    }

    /// The forward pass; returns its outcome and the position where it stopped (the last byte it consumed, or the end).
    ///
    /// Bytes whose resulting kernel lies in the memo region are stepped one at a time and pruned of
    /// doomed states; from `recordAfter` on, every kernel is merged with the memo's set into `recorded`.
    private mutating func scanForward(
        _ text: UnsafeBufferPointer<UInt8>, from: Int, firstBytes: FirstByteSet?, anchored: Bool, recordAfter: Int,
        recorded: inout [Int32]
    ) -> (Outcome, stop: Int) {
        clearsThisSearch = 0
        let count = text.count
        var position = from
        if let firstBytes {
            guard let candidate = firstBytes.firstIndex(in: text, from: position) else { return (.notFound, count) }
            position = candidate
        }
        guard var row = startRow(behind: SideClass.before(position, in: text), startsNewThreads: !anchored) else {
            return (.gaveUp, position)
        }
        var lastEnd = -1
        guard let base = text.baseAddress else { return (.notFound, count) }
        // Kernels at positions memoLow..<memoHigh are pruned: the bytes at memoLow - 1..<memoHigh - 1 are slow.
        let memoHigh = memoLow + doomedSetAt.count
        let slowLow = doomedSetAt.isEmpty ? Int.max : memoLow - 1
        let slowHigh = doomedSetAt.isEmpty ? Int.max : memoHigh - 1
        while position < count {
            let slow = position >= recordAfter || (position >= slowLow && position < slowHigh)
            if !slow {
                // The fast loop runs up to the next slow byte.
                let fastEnd = position < slowLow ? min(count, slowLow, recordAfter) : min(count, recordAfter)
                var entry: Int32 = 0
                let stoppedEarly = table.withUnsafeBufferPointer { rows -> Bool in
                    byteClasses.withUnsafeBufferPointer { classes -> Bool in
                        guard let rowBase = rows.baseAddress, let classBase = classes.baseAddress else { return false }
                        return LazyDFA.runForward(
                            rows: rowBase, classes: classBase, text: base, position: &position, end: fastEnd, row: &row,
                            entry: &entry, lastMatch: &lastEnd, stopsOnNonASCII: usesWordColumns)
                    }
                }
                guard stoppedEarly else { continue }
            }
            // One byte the fast loop does not take: a flagged or unknown entry, a non-ASCII byte whose column
            // depends on its scalar, or a byte whose kernel the memo prunes or records.
            let byte = base[position]
            var entry = table[Int(row) + column(byte: byte, at: position, in: text)]
            if entry & EntryFlag.unknown != 0 {
                guard let computed = computeTransition(row: row, byte: byte, at: position, in: text) else {
                    return (.gaveUp, position)
                }
                entry = computed
            }
            if entry & EntryFlag.match != 0 {
                lastEnd = position
            }
            if entry & EntryFlag.dead != 0 {
                return (lastEnd >= 0 ? .found(lastEnd) : .notFound, position)
            }
            position += 1
            row = entry & ~EntryFlag.mask
            let memoIndex = position - memoLow
            let doomed = memoIndex >= 0 && memoIndex < doomedSetAt.count ? doomedSetAt[memoIndex] : -1
            if doomed >= 0 {
                guard let pruned = prunedEntry(row: row, doomedSet: doomed) else { return (.gaveUp, position) }
                if pruned & EntryFlag.dead != 0 {
                    return (lastEnd >= 0 ? .found(lastEnd) : .notFound, position)
                }
                row = pruned & ~EntryFlag.mask
            }
            if position > recordAfter {
                recorded.append(union(of: doomed, withKernelOf: row))
            }
            if entry & EntryFlag.startLike != 0, let firstBytes {
                // No thread is alive: jump to the next position where a match can start.
                guard let candidate = firstBytes.firstIndex(in: text, from: position) else { return (.notFound, count) }
                if candidate != position {
                    position = candidate
                    guard let restarted = startRow(behind: SideClass.before(position, in: text), startsNewThreads: true) else {
                        return (.gaveUp, position)
                    }
                    row = restarted
                }
            }
        }
        if matchesAtEnd(row: row, ahead: .edge) {
            lastEnd = count
        }
        return (lastEnd >= 0 ? .found(lastEnd) : .notFound, count)
    }

    /// Records `sets` (the ids for positions `firstPosition...`) in the memo region, extending or replacing it.
    private mutating func mergeMemo(firstPosition: Int, sets: [Int32]) {
        guard !sets.isEmpty else { return }
        let newHigh = firstPosition + sets.count
        let memoHigh = memoLow + doomedSetAt.count
        if doomedSetAt.isEmpty || firstPosition > memoHigh || newHigh < memoLow {
            // Disjoint: later searches start after this pass's match end, so the new region is the useful one.
            memoLow = firstPosition
            doomedSetAt = sets
            return
        }
        if firstPosition < memoLow {
            doomedSetAt.insert(contentsOf: repeatElement(-1, count: memoLow - firstPosition), at: 0)
            memoLow = firstPosition
        }
        if newHigh > memoLow + doomedSetAt.count {
            doomedSetAt.append(contentsOf: repeatElement(-1, count: newHigh - (memoLow + doomedSetAt.count)))
        }
        for (offset, id) in sets.enumerated() {
            doomedSetAt[firstPosition - memoLow + offset] = id
        }
    }

    /// The entry of `row`'s state without the NFA states of doomed set `doomedSet` (empty groups dropped); nil to give up.
    private mutating func prunedEntry(row: Int32, doomedSet: Int32) -> Int32? {
        let cacheKey = RowAndSet(row: row, set: doomedSet)
        if let cached = prunedEntries.value(for: cacheKey) {
            return cached
        }
        let source = keys[Int(row) / stride]
        let doomed = doomedSets[Int(doomedSet)]
        var kernel: [Int32] = []
        var groupHasStates = false
        for state in source.kernel {
            if state < 0 {
                if groupHasStates {
                    kernel.append(-1)
                    groupHasStates = false
                }
                continue
            }
            if LazyDFA.sortedContains(doomed, state) { continue }
            kernel.append(state)
            groupHasStates = true
        }
        if kernel.last == -1 {
            kernel.removeLast()
        }
        let result: Int32
        if kernel == source.kernel {
            result = row
        } else {
            let key = DFAStateKey(
                kernel: kernel, behind: source.behind, startsNewThreads: source.startsNewThreads,
                matchedBeforeLastByte: false)
            let clearsBefore = totalClears
            guard let entry = intern(key) else { return nil }
            // A clear while interning made `row` meaningless as a key; the entry itself is valid.
            if totalClears != clearsBefore { return entry }
            result = entry
        }
        prunedEntries.store(result, for: cacheKey)
        return result
    }

    /// The id of the union of doomed set `doomedSet` (-1: none) and the NFA states of `row`'s kernel.
    private mutating func union(of doomedSet: Int32, withKernelOf row: Int32) -> Int32 {
        let cacheKey = RowAndSet(row: row, set: doomedSet)
        if let cached = unions.value(for: cacheKey) {
            return cached
        }
        var states = keys[Int(row) / stride].kernel.filter { $0 >= 0 }
        if doomedSet >= 0 {
            states += doomedSets[Int(doomedSet)]
        }
        states.sort()
        var unique: [Int32] = []
        unique.reserveCapacity(states.count)
        for state in states where unique.last != state {
            unique.append(state)
        }
        let id: Int32
        if let existing = doomedSetIDs[unique] {
            id = existing
        } else {
            id = Int32(truncatingIfNeeded: doomedSets.count)
            doomedSets.append(unique)
            doomedSetIDs[unique] = id
        }
        unions.store(id, for: cacheKey)
        return id
    }

    /// Whether sorted `values` contains `value`.
    private static func sortedContains(_ values: [Int32], _ value: Int32) -> Bool {
        var low = 0
        var high = values.count
        while low < high {
            let middle = (low + high) / 2
            if values[middle] < value { low = middle + 1 } else { high = middle }
        }
        return low < values.count && values[low] == value
    }

    /// The smallest start `>= lowerBound` of a match ending at `end` (reverse DFA, anchored at `end`).
    ///
    /// - Complexity: O(end - lowerBound) at most, amortised over cache misses.
    mutating func findStart(in text: UnsafeBufferPointer<UInt8>, end: Int, lowerBound: Int) -> Outcome {
        clearsThisSearch = 0
        guard var row = startRow(behind: SideClass.after(end, in: text), startsNewThreads: false) else { return .gaveUp }
        var lastStart = -1
        var position = end
        guard let base = text.baseAddress else { return .notFound }
        while position > lowerBound {
            var entry: Int32 = 0
            let stoppedEarly = table.withUnsafeBufferPointer { rows -> Bool in
                byteClasses.withUnsafeBufferPointer { classes -> Bool in
                    guard let rowBase = rows.baseAddress, let classBase = classes.baseAddress else { return false }
                    return LazyDFA.runBackward(
                        rows: rowBase, classes: classBase, text: base, position: &position, lowerBound: lowerBound,
                        row: &row, entry: &entry, lastMatch: &lastStart, stopsOnNonASCII: usesWordColumns)
                }
            }
            guard stoppedEarly else { break }
            let byte = base[position - 1]
            if entry == 0 {
                entry = table[Int(row) + column(byte: byte, at: position - 1, in: text)]
            }
            if entry & EntryFlag.unknown != 0 {
                guard let computed = computeTransition(row: row, byte: byte, at: position - 1, in: text) else { return .gaveUp }
                entry = computed
            }
            if entry & EntryFlag.match != 0 {
                lastStart = position
            }
            if entry & EntryFlag.dead != 0 {
                return lastStart >= 0 ? .found(lastStart) : .notFound
            }
            row = entry & ~EntryFlag.mask
            position -= 1
        }
        if matchesAtEnd(row: row, ahead: SideClass.before(lowerBound, in: text)) {
            lastStart = lowerBound
        }
        return lastStart >= 0 ? .found(lastStart) : .notFound
    }

    /// Sets bit `q - lowerBound` of `bits` for every q in `lowerBound...end` where a non-empty match of the
    /// forward pattern starts and ends at or before `end` (a DFA built with `recordsEveryStart` over the reverse
    /// NFA); bytes outside are context for assertions. Returns false when the cache thrashed (the bits unusable).
    ///
    /// - Complexity: O(end - lowerBound), amortised over cache misses.
    mutating func recordMatchStarts(in text: UnsafeBufferPointer<UInt8>, end: Int, lowerBound: Int, bits: inout [UInt64]) -> Bool {
        bits.removeAll(keepingCapacity: true)
        guard recordsEveryStart, isReverse, lowerBound >= 0, lowerBound <= end, end <= text.count else { return false }
        bits.append(contentsOf: repeatElement(0, count: (end - lowerBound) / 64 + 1))
        clearsThisSearch = 0
        guard var row = startRow(behind: SideClass.after(end, in: text), startsNewThreads: true),
              let base = text.baseAddress else { return text.isEmpty }
        var position = end
        while position > lowerBound {
            let byte = base[position - 1]
            var entry = table[Int(row) + column(byte: byte, at: position - 1, in: text)]
            if entry & EntryFlag.unknown != 0 {
                guard let computed = computeTransition(row: row, byte: byte, at: position - 1, in: text) else { return false }
                entry = computed
            }
            if entry & EntryFlag.match != 0 {
                // The closure at `position` (both sides known now) holds a match: one starts here.
                let bit = position - lowerBound
                bits[bit >> 6] |= 1 << UInt64(bit & 63)
            }
            row = entry & ~EntryFlag.mask
            position -= 1
        }
        if matchesAtEnd(row: row, ahead: SideClass.before(lowerBound, in: text)) {
            bits[0] |= 1
        }
        return true
    }

    /// Steps through cached transitions until an entry with flags, a non-ASCII byte (if asked) or the end.
    ///
    /// Entries flagged only as "match" are recorded in `lastMatch` on the way. Returns true when it stopped
    /// before `end`; `entry` is then the flagged entry, or 0 for a non-ASCII stop.
    @inline(__always)
    private static func runForward(
        rows: UnsafePointer<Int32>, classes: UnsafePointer<UInt8>, text: UnsafePointer<UInt8>, position: inout Int,
        end: Int, row: inout Int32, entry: inout Int32, lastMatch: inout Int, stopsOnNonASCII: Bool
    ) -> Bool {
        var current = row
        var index = position
        defer {
            row = current
            position = index
        }
        if stopsOnNonASCII {
            while index < end {
                let byte = text[index]
                if byte >= 0x80 {
                    entry = 0
                    return true
                }
                let next = rows[Int(current) &+ Int(classes[Int(byte)])]
                if next & EntryFlag.mask != 0 {
                    // A plain "match ended before this byte" is recorded without leaving the loop.
                    guard next & EntryFlag.mask == EntryFlag.match else {
                        entry = next
                        return true
                    }
                    lastMatch = index
                }
                current = next & ~EntryFlag.mask
                index &+= 1
            }
        } else {
            while index < end {
                let next = rows[Int(current) &+ Int(classes[Int(text[index])])]
                if next & EntryFlag.mask != 0 {
                    guard next & EntryFlag.mask == EntryFlag.match else {
                        entry = next
                        return true
                    }
                    lastMatch = index
                }
                current = next & ~EntryFlag.mask
                index &+= 1
            }
        }
        return false
    }

    /// `runForward` for the reverse pass: consumes `text[position - 1]` while `position > lowerBound`.
    @inline(__always)
    private static func runBackward(
        rows: UnsafePointer<Int32>, classes: UnsafePointer<UInt8>, text: UnsafePointer<UInt8>, position: inout Int,
        lowerBound: Int, row: inout Int32, entry: inout Int32, lastMatch: inout Int, stopsOnNonASCII: Bool
    ) -> Bool {
        var current = row
        var index = position
        defer {
            row = current
            position = index
        }
        while index > lowerBound {
            let byte = text[index &- 1]
            if stopsOnNonASCII && byte >= 0x80 {
                entry = 0
                return true
            }
            let next = rows[Int(current) &+ Int(classes[Int(byte)])]
            if next & EntryFlag.mask != 0 {
                guard next & EntryFlag.mask == EntryFlag.match else {
                    entry = next
                    return true
                }
                lastMatch = index
            }
            current = next & ~EntryFlag.mask
            index &-= 1
        }
        return false
    }

    /// The table column for `byte` at `index`: with Unicode `\b`, non-ASCII bytes use the upper half when their scalar
    /// is a word scalar.
    @inline(__always)
    private func column(byte: UInt8, at index: Int, in text: UnsafeBufferPointer<UInt8>) -> Int {
        let byteClass = Int(byteClasses[Int(byte)])
        guard usesWordColumns && byte >= 0x80 else { return byteClass }
        return UnicodeClasses.isWordScalar(scalarValue(containing: index, in: text)) ? byteClass + classCount : byteClass
    }

    // MARK: Building states

    /// Partitions the bytes into classes that no transition and no assertion can tell apart.
    ///
    /// Class boundaries come from every transition range, from `\n` and `\r`, from the ASCII word
    /// bytes and from 0x80 (where the search starts decoding scalars for `\b`).
    private static func byteClasses(for nfa: NFA) -> ([UInt8], Int) {
        // startsClass[b]: byte b begins a new class (differs from b - 1).
        var startsClass = [Bool](repeating: false, count: 257)
        func split(_ low: Int, _ highInclusive: Int) {
            startsClass[low] = true
            startsClass[highInclusive + 1] = true
        }
        for state in nfa.states {
            switch state {
            case .bytes(let transition):
                split(Int(transition.low), Int(transition.high))
            case .sparse(let transitions):
                for transition in transitions { split(Int(transition.low), Int(transition.high)) }
            default:
                break
            }
        }
        split(0x0A, 0x0A)
        split(0x0D, 0x0D)
        split(0x30, 0x39)
        split(0x41, 0x5A)
        split(0x5F, 0x5F)
        split(0x61, 0x7A)
        split(0x80, 0xFF)
        var classes = [UInt8](repeating: 0, count: 256)
        var current = 0
        for byte in 1..<256 {
            if startsClass[byte] { current += 1 }
            classes[byte] = UInt8(truncatingIfNeeded: current)
        }
        return (classes, current + 1)
    }

    /// Assertions that nothing in the NFA can tell apart share one class, so fewer states are built.
    private func collapsed(_ side: SideClass) -> SideClass {
        switch side {
        case .edge, .lineFeed, .carriageReturn:
            return nfa.hasLineOrTextAnchor ? side : .other
        case .word:
            return nfa.hasWordBoundary ? .word : .other
        case .unicodeWord:
            return nfa.hasUnicodeWordBoundary ? .unicodeWord : .other
        case .other:
            return .other
        }
    }

    /// The row of the state a pass starts in; nil if the search must give up.
    private mutating func startRow(behind: SideClass, startsNewThreads: Bool) -> Int32? {
        let side = collapsed(behind)
        let slot = Int(side.rawValue) + (startsNewThreads ? 0 : SideClass.allCases.count)
        let cached = startRows[slot]
        if cached >= 0 {
            return cached
        }
        let key = DFAStateKey(
            kernel: startsNewThreads ? [] : [nfa.start], behind: side, startsNewThreads: startsNewThreads,
            matchedBeforeLastByte: false)
        guard let entry = intern(key) else { return nil }
        let row = entry & ~EntryFlag.mask
        startRows[slot] = row
        return row
    }

    /// Whether a match ends at the end of the pass, given what lies beyond it.
    private mutating func matchesAtEnd(row: Int32, ahead: SideClass) -> Bool {
        let stateIndex = Int(row) / stride
        let slot = stateIndex * SideClass.allCases.count + Int(collapsed(ahead).rawValue)
        if endMatches[slot] >= 0 {
            return endMatches[slot] == 1
        }
        let key = keys[stateIndex]
        let (left, right) = isReverse ? (collapsed(ahead), key.behind) : (key.behind, collapsed(ahead))
        let matched = closeGroups(of: key.kernel, left: left, right: right, addsStart: false).matched
        endMatches[slot] = matched ? 1 : 0
        return matched
    }

    /// Computes, caches and returns the entry for leaving `row` on `byte` (read at `index`); nil to give up.
    private mutating func computeTransition(row: Int32, byte: UInt8, at index: Int, in text: UnsafeBufferPointer<UInt8>) -> Int32? {
        let source = keys[Int(row) / stride]
        let aheadClass: SideClass
        if byte < 0x80 {
            aheadClass = collapsed(SideClass.ofASCII(byte))
        } else {
            aheadClass = collapsed(SideClass.ofByte(at: index, in: text))
        }
        let (left, right) = isReverse ? (aheadClass, source.behind) : (source.behind, aheadClass)
        let closure = closeGroups(of: source.kernel, left: left, right: right, addsStart: source.startsNewThreads)
        // Step the closure over the byte, group by group, keeping each NFA state in its earliest group only.
        newGeneration()
        var kernel: [Int32] = []
        var groupStart = 0
        let ordered = kind == .leftmostFirst
        for state in closure.states {
            if state < 0 {
                if ordered { continue }
                if kernel.count > groupStart {
                    LazyDFA.sortTail(&kernel, from: groupStart)
                    kernel.append(-1)
                    groupStart = kernel.count
                }
                continue
            }
            switch nfa.states[Int(state)] {
            case .bytes(let transition):
                if transition.low <= byte && byte <= transition.high {
                    addKernelState(transition.next, to: &kernel)
                }
            case .sparse(let transitions):
                for transition in transitions where transition.low <= byte && byte <= transition.high {
                    addKernelState(transition.next, to: &kernel)
                }
            default:
                break
            }
        }
        if ordered {
            // Priority order is the identity of a leftmost-first state: no sorting, no groups.
        } else if kernel.count > groupStart {
            LazyDFA.sortTail(&kernel, from: groupStart)
        } else if kernel.last == -1 {
            kernel.removeLast()
        }
        let key = DFAStateKey(
            kernel: kernel, behind: aheadClass, startsNewThreads: source.startsNewThreads && (recordsEveryStart || !closure.matched),
            matchedBeforeLastByte: closure.matched)
        let clearsBefore = totalClears
        guard let entry = intern(key) else { return nil }
        // Cache the entry unless interning cleared the table (the source row is then gone).
        if totalClears == clearsBefore {
            table[Int(row) + column(byte: byte, at: index, in: text)] = entry
        }
        return entry
    }

    /// Sorts `values[start...]` in place (insertion sort for the usual small groups).
    private static func sortTail(_ values: inout [Int32], from start: Int) {
        if values.count - start > 32 {
            values[start...].sort()
            return
        }
        var index = start + 1
        while index < values.count {
            let value = values[index]
            var hole = index
            while hole > start && values[hole - 1] > value {
                values[hole] = values[hole - 1]
                hole -= 1
            }
            values[hole] = value
            index += 1
        }
    }

    private mutating func addKernelState(_ state: Int32, to kernel: inout [Int32]) {
        let index = Int(state)
        guard stamps[index] != generation else { return }
        stamps[index] = generation
        kernel.append(state)
    }

    /// The epsilon closure of each group, in order, with assertions decided by `left` and `right`.
    ///
    /// Consuming states are listed with -1 between groups. Stops after the first group whose closure
    /// contains `match` (later starts can no longer win); otherwise appends a group for a new start.
    private mutating func closeGroups(of kernel: [Int32], left: SideClass, right: SideClass, addsStart: Bool)
        -> (states: [Int32], matched: Bool)
    {
        newGeneration()
        closureStates.removeAll(keepingCapacity: true)
        if recordsEveryStart {
            // One group, nothing cut, a new start at every position: a match anywhere counts.
            var matched = false
            for state in kernel where state >= 0 {
                matched = close(state, left: left, right: right) || matched
            }
            if addsStart {
                matched = close(nfa.start, left: left, right: right) || matched
            }
            return (closureStates, matched)
        }
        if kind == .leftmostFirst {
            // One ordered list; the first `match` reached cuts everything after it, new starts included.
            for state in kernel where state >= 0 {
                if close(state, left: left, right: right) {
                    return (closureStates, true)
                }
            }
            if addsStart && close(nfa.start, left: left, right: right) {
                return (closureStates, true)
            }
            return (closureStates, false)
        }
        var matched = false
        var groupHasMatch = false
        for state in kernel {
            if state < 0 {
                if groupHasMatch { break }
                closureStates.append(-1)
                continue
            }
            groupHasMatch = close(state, left: left, right: right) || groupHasMatch
        }
        matched = groupHasMatch
        if addsStart && !matched {
            closureStates.append(-1)
            matched = close(nfa.start, left: left, right: right)
        }
        return (closureStates, matched)
    }

    /// Adds the consuming states reachable from `state` to `closureStates`; returns whether `match` is reachable.
    private mutating func close(_ state: Int32, left: SideClass, right: SideClass) -> Bool {
        var sawMatch = false
        stack.append(state)
        while let current = stack.popLast() {
            let index = Int(current)
            if stamps[index] == generation { continue }
            stamps[index] = generation
            switch nfa.states[index] {
            case .union(let targets):
                for target in targets.reversed() {
                    stack.append(target)
                }
            case .look(let kind, let next):
                if kind.holds(left: left, right: right) {
                    stack.append(next)
                }
            case .capture(_, let next):
                stack.append(next)
            case .match:
                sawMatch = true
                if kind == .leftmostFirst {
                    // What is left on the stack has a lower priority than this match.
                    stack.removeAll(keepingCapacity: true)
                    return true
                }
            case .fail:
                break
            case .bytes, .sparse:
                closureStates.append(current)
            }
        }
        return sawMatch
    }

    private mutating func newGeneration() {
        if generation == UInt32.max {
            for index in stamps.indices { stamps[index] = 0 }
            generation = 0
        }
        generation += 1
    }

    /// The entry (row offset and flags) for `key`, adding a state (and clearing a full cache) as needed.
    private mutating func intern(_ key: DFAStateKey) -> Int32? {
        if let existing = index[key] {
            return entry(forRow: existing, key: key)
        }
        if keys.count >= limits.maxStates || (keys.count + 1) * stride >= EntryFlag.rowLimit {
            clearsThisSearch += 1
            totalClears += 1
            if clearsThisSearch > limits.maxClearsPerSearch {
                return nil
            }
            keys.removeAll(keepingCapacity: true)
            index.removeAll(keepingCapacity: true)
            table.removeAll(keepingCapacity: true)
            prunedEntries.removeAll()
            unions.removeAll()
            endMatches.removeAll(keepingCapacity: true)
            for index in startRows.indices { startRows[index] = -1 }
        }
        let row = Int32(truncatingIfNeeded: keys.count * stride)
        keys.append(key)
        index[key] = row
        table.append(contentsOf: unknownRow)
        endMatches.append(contentsOf: repeatElement(-1, count: SideClass.allCases.count))
        return entry(forRow: row, key: key)
    }

    private func entry(forRow row: Int32, key: DFAStateKey) -> Int32 {
        var flags: Int32 = 0
        if key.matchedBeforeLastByte { flags |= EntryFlag.match }
        if key.kernel.isEmpty && !key.startsNewThreads { flags |= EntryFlag.dead }
        if flagsStartLikeStates && key.kernel.isEmpty && key.startsNewThreads { flags |= EntryFlag.startLike }
        return row | flags
    }
}

extension RegexProgram {
    /// Leftmost-first (or leftmost-longest) search by the lazy DFAs, falling back to the Pike VM when a cache thrashes.
    ///
    /// With an inner literal (and `usesInnerLiteral`), candidates come from a byte scan for it (see `InnerLiteral`).
    ///
    /// - Complexity: O(bytes scanned), see LazyDFA.swift.
    func search(
        _ text: UnsafeBufferPointer<UInt8>, from: Int, limits: DFALimits, usesInnerLiteral: Bool = true,
        state: inout SearchState
    ) -> Range<Int>? {
        if state.limits != limits {
            state = SearchState(self, limits: limits)
        }
        if usesInnerLiteral, let innerLiteral,
           let result = searchByInnerLiteral(text, from: from, innerLiteral: innerLiteral, state: &state) {
            return result
        }
        let end: Int
        switch state.forwardDFA.findEnd(in: text, from: from, firstBytes: firstBytes) {
        case .notFound:
            return nil
        case .found(let found):
            end = found
        case .gaveUp:
            return PikeVM.search(searchNFA, in: text, from: from, kind: matchKind, scratch: &state.pikeVM)
        }
        switch state.reverseDFA.findStart(in: text, end: end, lowerBound: from) {
        case .found(let start):
            return start..<end
        case .gaveUp, .notFound:
            // Not finding a start would be a bug; the Pike VM answers either way.
            return PikeVM.search(searchNFA, in: text, from: from, kind: matchKind, scratch: &state.pikeVM)
        }
    }

    /// The search through the inner literal: `.some(match)` or `.some(nil)` when it decided, nil when a cache gave up
    /// (or `state` has no prefix DFA).
    ///
    /// The prefix DFA is searched in place, through optional chaining on `state`: binding it to a local
    /// (`if var prefixDFA = state.reversePrefixDFA`) copied the whole `LazyDFA` per candidate, a retain and a
    /// release of each of its tables (`initializeWithCopy for LazyDFA` in the regex case's profile).
    private func searchByInnerLiteral(
        _ text: UnsafeBufferPointer<UInt8>, from: Int, innerLiteral: InnerLiteral, state: inout SearchState
    ) -> Range<Int>?? {
        var lowerBound = from
        while let literal = innerLiteral.firstIndex(in: text, from: lowerBound) {
            switch state.reversePrefixDFA?.findStart(in: text, end: literal, lowerBound: lowerBound) {
            case nil, .gaveUp:
                return nil
            case .notFound:
                break
            case .found(let start):
                switch state.forwardDFA.findAnchoredEnd(in: text, from: start) {
                case .gaveUp:
                    return nil
                case .notFound:
                    break
                case .found(let end):
                    return .some(start..<end)
                }
            }
            // No match reaches this occurrence; the next one's prefix cannot reach back over it.
            lowerBound = literal + 1
        }
        return .some(nil)
    }
}

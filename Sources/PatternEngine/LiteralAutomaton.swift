// An Aho-Corasick automaton over UTF-8 bytes with leftmost-longest semantics.
//
// Construction
// ------------
// The variants of all words (see LiteralPatterns.swift) go into a trie whose
// edges are labelled by *byte classes*: every byte that labels an edge is its
// own class (both cases of a folded ASCII letter share one), and all other
// bytes share a single class. Failure links are computed breadth first; each
// state also gets a *dictionary suffix link*, the nearest state on its
// failure chain that ends a word, so the words ending at a position can be
// listed longest first without walking the whole chain.
//
//     words: he, she, hers          s -h-> sh -e-> she        failure(she) = he
//                                   h -e-> he -r-> her -s-> hers
//
// States are renumbered so that the start state is 0 and every state that
// ends a word (itself or through its suffix links) comes next, 1...M: the
// search loop recognises "something to do here" with one comparison.
//
// Two representations of the transitions exist:
// - dense: a full table `state x class -> state` with failure transitions
//   resolved, state ids premultiplied by the row stride, one load per byte;
// - sparse: the trie's sibling lists plus failure links (a classic NFA),
//   used when the dense table would exceed the memory budget.
//
// Leftmost-longest search
// -----------------------
// A state's depth is the length of the longest suffix of the text read so far
// that is a prefix of some word, so `position - depth` is the earliest start of
// any match still in progress. The search keeps one candidate: the best match
// seen so far by (earliest start, then longest, then word priority). Words
// ending at the current position are tried longest first (through the
// dictionary suffix links), and the first that passes its checks (exact bytes
// for case-sensitive words over folded letters; whole-word boundaries) is the
// best match ending here. The search stops as soon as `position - depth` has
// moved past the candidate's start: no match in progress can then start at or
// before it, so the candidate is the leftmost-longest match. A match that fails
// its checks simply never becomes a candidate, so it cannot hide a shorter or
// later valid match.
//
// Each search reads past the match it returns by less than the longest word,
// so finding all matches costs O(n + k·m) for k matches and words of at most
// m bytes; words of bounded length make it linear in the text.
//
// Two walks at once
// -----------------
// Each step loads the next state from the table at an address that depends on
// the state before, so one walk waits on its loads one after the other. All
// the matches of a long text are found by two walks stepped together, one
// from the start and one from the middle: the processor overlaps their loads.
// The second walk finds the matches of a search that began at the middle. If
// the first half's last match ends past the middle, the search goes on from
// that end until it finds a match the second walk found; from there on both
// agree, since each match is found from the end of the one before.
//
//     words    parse token tokenizer en izer
//     text     parse token tokenizer parse
//     middle                  ^
//     first    [   ] [   ] [       ]
//     second                  [][  ] [   ]
//     resumed from the end of "tokenizer": [parse], the second walk's, so the
//     rest is the second walk's

/// One word ending at a state: which pattern, and the exact bytes to compare when folding is not enough.
struct AutomatonOutput: Sendable {
    var patternIndex: Int32
    /// An index into `LiteralAutomaton.exactBytes`, or -1.
    var exactBytesIndex: Int32
}

/// The compiled literal words of a rule set: byte classes, transitions, outputs and a prefilter.
///
/// A class, so that a rule set's scan takes it out of its optional as a reference: as a struct of
/// some twenty arrays and the prefilter's vectors (432 bytes), `if let automaton` copied all of it, a
/// retain per array included, for every literal candidate (`memmove` in `RuleSet.matches`). Immutable.
final class LiteralAutomaton: Sendable {
    /// Which transition representation to use.
    enum Kind: Sendable, Hashable, CaseIterable {
        /// A full transition table (a DFA).
        case dense
        /// Trie edges plus failure links (an NFA).
        case sparse
    }

    /// How to build the automaton; tests force each variant.
    struct Configuration: Sendable, Hashable {
        /// The representation, or nil to choose by `denseByteBudget`.
        var kind: Kind?
        /// Whether to use a prefilter when one pays off.
        var usesPrefilter: Bool
        /// The largest dense table, in bytes, before falling back to the sparse form.
        var denseByteBudget: Int
        /// Whether a few words may be searched by fingerprints instead of the automaton (FingerprintSearch.swift),
        /// when that is estimated cheaper than the automaton with its prefilter.
        var usesFingerprintSearch: Bool
        /// Whether fingerprints are used whenever the words allow, whatever the estimates (tests).
        var forcesFingerprintSearch = false
        /// Whether the fingerprint search uses the AVX2 loops where the CPU has them (CPUFeatures' VectorUnit); tests turn
        /// them off to run the baseline ones. With `forcesFingerprintSearch`, Teddy's tables replace two or more
        /// fingerprints whatever the estimates.
        var usesAVX2 = true
        /// Texts at least this long are searched as two walks stepped together (`matches(in:from:startLimit:)`);
        /// tests make it 1 to split every text.
        var twoWalksFrom = 16 << 10

        /// Creates a configuration; the fingerprint search follows `usesPrefilter` unless given.
        init(kind: Kind?, usesPrefilter: Bool, denseByteBudget: Int, usesFingerprintSearch: Bool? = nil) {
            self.kind = kind
            self.usesPrefilter = usesPrefilter
            self.denseByteBudget = denseByteBudget
            self.usesFingerprintSearch = usesFingerprintSearch ?? usesPrefilter
        }

        static let automatic = Configuration(kind: nil, usesPrefilter: true, denseByteBudget: 16 << 20)
    }

    let kind: Kind
    let patterns: [LiteralPattern]
    /// The byte class of each byte.
    let byteClasses: [UInt8]
    let classCount: Int
    /// Dense rows are `1 << strideShift` entries wide; 0 for the sparse form.
    let strideShift: Int
    /// Dense: `state << strideShift + class -> next state << strideShift`. Empty for the sparse form.
    let denseTable: [UInt32]
    /// Sparse: the first child of a state (0 = none: the start state is nobody's child).
    let firstChild: [UInt32]
    /// Sparse: the next sibling of a state (0 = none).
    let nextSibling: [UInt32]
    /// Sparse: the class labelling the edge into a state.
    let edgeClass: [UInt8]
    /// Sparse: the failure link of each state.
    let failure: [UInt32]
    /// Sparse: the start state's transitions by class (0 = stay).
    let startRow: [UInt32]
    /// The depth (bytes from the start state) of each state.
    let depth: [Int32]
    /// Outputs of state `s` are `outputs[outputStart[s]..<outputStart[s + 1]]`, in priority order.
    let outputStart: [Int32]
    let outputs: [AutomatonOutput]
    /// The nearest state on the failure chain with outputs, or -1.
    let dictionarySuffix: [Int32]
    /// States `1...matchStateCount` have outputs or a dictionary suffix.
    let matchStateCount: Int
    let exactBytes: [[UInt8]]
    let prefilter: LiteralPrefilter?
    /// For a few words, the search that replaces the automaton's (same matches, no states).
    let fingerprintSearch: FingerprintSearch?
    let maximumPatternUTF8Length: Int
    /// See `Configuration.twoWalksFrom`.
    let twoWalksFrom: Int
    /// The number of states.
    var stateCount: Int { depth.count }

    /// Builds the automaton for `patternSet`.
    ///
    /// - Complexity: O(total word bytes × classes) for the dense form, O(total word bytes × alphabet) for the sparse one.
    init(patternSet: LiteralPatternSet, configuration: Configuration) {
        patterns = patternSet.patterns
        maximumPatternUTF8Length = patternSet.maximumVariantUTF8Length
        twoWalksFrom = configuration.twoWalksFrom

        // Byte classes: one per distinct (folded) byte on an edge, one for everything else.
        var used = [Bool](repeating: false, count: 256)
        var firstBytes = [Bool](repeating: false, count: 256)
        for variant in patternSet.variants {
            for byte in variant.foldedBytes { used[Int(byte)] = true }
        }
        var classOfKey = [Int](repeating: -1, count: 257)
        var classes = [UInt8](repeating: 0, count: 256)
        var nextClass = 0
        for value in 0..<256 {
            let folded = Int(patternSet.fold(UInt8(truncatingIfNeeded: value)))
            let key = used[folded] ? folded : 256
            if classOfKey[key] < 0 {
                classOfKey[key] = nextClass
                nextClass += 1
            }
            classes[value] = UInt8(truncatingIfNeeded: classOfKey[key])
        }
        byteClasses = classes
        classCount = nextClass

        // The trie, with sibling lists; node 0 is the start state.
        var trieFirstChild: [UInt32] = [0]
        var trieNextSibling: [UInt32] = [0]
        var trieEdgeClass: [UInt8] = [0]
        var trieDepth: [Int32] = [0]
        var trieStartRow = [UInt32](repeating: 0, count: nextClass)
        var terminals: [(node: Int, output: AutomatonOutput)] = []
        var exact: [[UInt8]] = []

        func child(_ node: Int, _ byteClass: UInt8) -> Int? {
            if node == 0 {
                let next = trieStartRow[Int(byteClass)]
                return next == 0 ? nil : Int(next)
            }
            var edge = Int(trieFirstChild[node])
            while edge != 0 {
                if trieEdgeClass[edge] == byteClass { return edge }
                edge = Int(trieNextSibling[edge])
            }
            return nil
        }

        for variant in patternSet.variants {
            var node = 0
            for byte in variant.foldedBytes {
                let byteClass = classes[Int(byte)]
                if let next = child(node, byteClass) {
                    node = next
                    continue
                }
                let created = trieDepth.count
                trieFirstChild.append(0)
                trieNextSibling.append(node == 0 ? 0 : trieFirstChild[node])
                trieEdgeClass.append(byteClass)
                trieDepth.append(trieDepth[node] &+ 1)
                if node == 0 {
                    trieStartRow[Int(byteClass)] = UInt32(truncatingIfNeeded: created)
                } else {
                    trieFirstChild[node] = UInt32(truncatingIfNeeded: created)
                }
                node = created
            }
            if let first = variant.foldedBytes.first {
                // Both cases of a folded letter can start a match.
                for value in 0..<256 where classes[value] == classes[Int(first)] {
                    firstBytes[value] = true
                }
            }
            var exactIndex: Int32 = -1
            if let bytes = variant.exactBytes {
                exactIndex = Int32(truncatingIfNeeded: exact.count)
                exact.append(bytes)
            }
            terminals.append((node, AutomatonOutput(
                patternIndex: Int32(truncatingIfNeeded: variant.patternIndex), exactBytesIndex: exactIndex)))
        }
        exactBytes = exact
        let nodeCount = trieDepth.count

        // Breadth-first order and failure links.
        var order: [Int] = [0]
        order.reserveCapacity(nodeCount)
        var trieFailure = [Int](repeating: 0, count: nodeCount)
        var head = 0
        while head < order.count {
            let node = order[head]
            head += 1
            var children: [Int] = []
            if node == 0 {
                for next in trieStartRow where next != 0 { children.append(Int(next)) }
            } else {
                var edge = Int(trieFirstChild[node])
                while edge != 0 {
                    children.append(edge)
                    edge = Int(trieNextSibling[edge])
                }
            }
            for next in children {
                order.append(next)
                guard node != 0 else { continue }
                var fallback = trieFailure[node]
                while true {
                    if let target = child(fallback, trieEdgeClass[next]) {
                        trieFailure[next] = target
                        break
                    }
                    if fallback == 0 { break }
                    fallback = trieFailure[fallback]
                }
            }
        }

        // Outputs per node, in priority order, and dictionary suffix links.
        terminals.sort { ($0.node, $0.output.patternIndex) < ($1.node, $1.output.patternIndex) }
        var hasOutputs = [Bool](repeating: false, count: nodeCount)
        for terminal in terminals { hasOutputs[terminal.node] = true }
        var trieDictionarySuffix = [Int](repeating: -1, count: nodeCount)
        for node in order where node != 0 {
            let fallback = trieFailure[node]
            trieDictionarySuffix[node] = hasOutputs[fallback] ? fallback : trieDictionarySuffix[fallback]
        }

        // Renumber: start state 0, then match states in breadth-first order, then the rest.
        var newID = [Int](repeating: 0, count: nodeCount)
        var nextID = 1
        for node in order where node != 0 && (hasOutputs[node] || trieDictionarySuffix[node] >= 0) {
            newID[node] = nextID
            nextID += 1
        }
        matchStateCount = nextID - 1
        for node in order where node != 0 && !(hasOutputs[node] || trieDictionarySuffix[node] >= 0) {
            newID[node] = nextID
            nextID += 1
        }

        var renumberedDepth = [Int32](repeating: 0, count: nodeCount)
        var renumberedSuffix = [Int32](repeating: -1, count: nodeCount)
        for node in 0..<nodeCount {
            renumberedDepth[newID[node]] = trieDepth[node]
            let suffix = trieDictionarySuffix[node]
            renumberedSuffix[newID[node]] = suffix < 0 ? -1 : Int32(truncatingIfNeeded: newID[suffix])
        }
        depth = renumberedDepth
        dictionarySuffix = renumberedSuffix

        var outputsByState = [[AutomatonOutput]](repeating: [], count: nodeCount)
        for terminal in terminals {
            outputsByState[newID[terminal.node]].append(terminal.output)
        }
        var starts: [Int32] = [0]
        starts.reserveCapacity(nodeCount + 1)
        var flatOutputs: [AutomatonOutput] = []
        for list in outputsByState {
            flatOutputs.append(contentsOf: list)
            starts.append(Int32(truncatingIfNeeded: flatOutputs.count))
        }
        outputStart = starts
        outputs = flatOutputs

        // Choose the representation.
        var shift = 0
        while (1 << shift) < nextClass { shift += 1 }
        let (rows, overflow) = nodeCount.multipliedReportingOverflow(by: (1 << shift) * 4)
        let fitsDense = !overflow && rows <= configuration.denseByteBudget && (nodeCount << shift) < Int(UInt32.max)
        let chosenKind = configuration.kind ?? (fitsDense ? .dense : .sparse)
        kind = chosenKind

        if chosenKind == .dense {
            strideShift = shift
            let stride = 1 << shift
            var table = [UInt32](repeating: 0, count: nodeCount << shift)
            // Breadth-first: a failure target's row is complete before the rows that copy it.
            for node in order {
                let row = newID[node] << shift
                if node != 0 {
                    let fallbackRow = newID[trieFailure[node]] << shift
                    for offset in 0..<stride {
                        table[row + offset] = table[fallbackRow + offset]
                    }
                    var edge = Int(trieFirstChild[node])
                    while edge != 0 {
                        table[row + Int(trieEdgeClass[edge])] = UInt32(truncatingIfNeeded: newID[edge] << shift)
                        edge = Int(trieNextSibling[edge])
                    }
                } else {
                    for byteClass in 0..<nextClass where trieStartRow[byteClass] != 0 {
                        table[byteClass] = UInt32(truncatingIfNeeded: newID[Int(trieStartRow[byteClass])] << shift)
                    }
                }
            }
            denseTable = table
            firstChild = []
            nextSibling = []
            edgeClass = []
            failure = []
            startRow = []
        } else {
            strideShift = 0
            denseTable = []
            var renumberedFirstChild = [UInt32](repeating: 0, count: nodeCount)
            var renumberedNextSibling = [UInt32](repeating: 0, count: nodeCount)
            var renumberedEdgeClass = [UInt8](repeating: 0, count: nodeCount)
            var renumberedFailure = [UInt32](repeating: 0, count: nodeCount)
            for node in 0..<nodeCount {
                let id = newID[node]
                let firstChildNode = Int(trieFirstChild[node])
                let siblingNode = Int(trieNextSibling[node])
                renumberedFirstChild[id] = firstChildNode == 0 ? 0 : UInt32(truncatingIfNeeded: newID[firstChildNode])
                renumberedNextSibling[id] = siblingNode == 0 ? 0 : UInt32(truncatingIfNeeded: newID[siblingNode])
                renumberedEdgeClass[id] = trieEdgeClass[node]
                renumberedFailure[id] = UInt32(truncatingIfNeeded: newID[trieFailure[node]])
            }
            firstChild = renumberedFirstChild
            nextSibling = renumberedNextSibling
            edgeClass = renumberedEdgeClass
            failure = renumberedFailure
            startRow = trieStartRow.map { $0 == 0 ? 0 : UInt32(truncatingIfNeeded: newID[Int($0)]) }
        }

        // For each variant, the bytes that can occur at each position (both cases of a folded letter).
        var variantBytes: [[[UInt8]]]?
        if configuration.usesPrefilter && patternSet.variants.count <= LiteralPrefilter.maximumRareVariants {
            var bytesOfClass = [[UInt8]](repeating: [], count: nextClass)
            for value in 0..<256 {
                bytesOfClass[Int(classes[value])].append(UInt8(truncatingIfNeeded: value))
            }
            variantBytes = patternSet.variants.map { variant in
                variant.foldedBytes.map { bytesOfClass[Int(classes[Int($0)])] }
            }
        }
        let chosenPrefilter = configuration.usesPrefilter ? LiteralPrefilter(firstBytes: firstBytes, variants: variantBytes) : nil
        prefilter = chosenPrefilter
        // Fingerprints replace the automaton where they are estimated cheaper than it (with its prefilter, or bare).
        // A single-byte prefilter's estimate counts with a margin (`LiteralPrefilter.comparableStepsPerByte`).
        if configuration.usesFingerprintSearch, let search = FingerprintSearch(
               patternSet: patternSet, usesAVX2: configuration.usesAVX2,
               forcesNibbleTables: configuration.forcesFingerprintSearch),
           configuration.forcesFingerprintSearch
            || search.estimatedStepsPerByte < (chosenPrefilter?.comparableStepsPerByte ?? 1.0) {
            fingerprintSearch = search
        } else {
            fingerprintSearch = nil
        }
    }
}

// MARK: - Searching

/// A transition function the search loop is specialised for.
protocol AutomatonTransitions {
    /// The state after reading `byte` in `state`.
    func next(_ state: UInt32, _ byte: UInt8) -> UInt32
}

/// Dense transitions: one table load per byte.
struct DenseTransitions: AutomatonTransitions {
    let table: UnsafeBufferPointer<UInt32>
    let classes: UnsafeBufferPointer<UInt8>

    @inline(__always)
    func next(_ state: UInt32, _ byte: UInt8) -> UInt32 {
        table[Int(state) &+ Int(classes[Int(byte)])]
    }
}

/// Sparse transitions: walk the children, follow failure links when none fits.
struct SparseTransitions: AutomatonTransitions {
    let firstChild: UnsafeBufferPointer<UInt32>
    let nextSibling: UnsafeBufferPointer<UInt32>
    let edgeClass: UnsafeBufferPointer<UInt8>
    let failure: UnsafeBufferPointer<UInt32>
    let startRow: UnsafeBufferPointer<UInt32>
    let classes: UnsafeBufferPointer<UInt8>

    @inline(__always)
    func next(_ state: UInt32, _ byte: UInt8) -> UInt32 {
        let byteClass = classes[Int(byte)]
        var current = state
        while current != 0 {
            var edge = firstChild[Int(current)]
            while edge != 0 {
                if edgeClass[Int(edge)] == byteClass { return edge }
                edge = nextSibling[Int(edge)]
            }
            current = failure[Int(current)]
        }
        return startRow[Int(byteClass)]
    }
}

extension LiteralAutomaton {
    /// The leftmost-longest literal match that starts in `utf8Offset..<startLimit` (earlier bytes are context), or nil.
    ///
    /// - Complexity: O(distance to the match + longest word), plus the words ending at each position visited.
    func nextMatch(
        in text: UnsafeBufferPointer<UInt8>, from utf8Offset: Int, startLimit: Int,
        accept: RuleSet.MatchFilter? = nil
    ) -> Match? {
        if let fingerprintSearch {
            return fingerprintSearch.nextMatch(in: text, from: utf8Offset, startLimit: startLimit, accept: accept)
        }
        let limit = min(startLimit, text.count)
        guard utf8Offset >= 0, utf8Offset < limit, matchStateCount > 0 else { return nil }
        return withSearch(NextMatch(from: utf8Offset, startLimit: limit), in: text, accept: accept)
    }

    /// Every match that starts in `utf8Offset..<startLimit`, in order: the first leftmost-longest one, then the first
    /// from its end, and so on, as `nextMatch` gives them one by one (without a filter, which may expect its candidates
    /// in order, as scopes do).
    ///
    /// A long text is searched as two halves whose walks step together: each step's table load waits for the one
    /// before, so two independent walks take little more time than one. The second half's matches are those of a
    /// search that begins at its start; where the first half's last match runs past that start, the search goes on
    /// from its end until it meets one of them, after which the rest are the same.
    ///
    /// - Complexity: O(n + k·m) for k matches and words of at most m bytes, as successive `nextMatch` calls.
    func matches(in text: UnsafeBufferPointer<UInt8>, from utf8Offset: Int, startLimit: Int) -> [Match] {
        let limit = min(startLimit, text.count)
        guard utf8Offset >= 0, utf8Offset < limit else { return [] }
        if fingerprintSearch != nil || matchStateCount == 0 || limit - utf8Offset < twoWalksFrom {
            var found: [Match] = []
            var position = utf8Offset
            while let match = nextMatch(in: text, from: position, startLimit: limit) {
                found.append(match)
                position = match.utf8Range.upperBound
            }
            return found
        }
        return withSearch(AllMatches(from: utf8Offset, startLimit: limit), in: text, accept: nil)
    }

    /// Runs `task` with a search over `text` specialised for this automaton's transitions.
    private func withSearch<Task: SearchTask>(
        _ task: Task, in text: UnsafeBufferPointer<UInt8>, accept: RuleSet.MatchFilter?
    ) -> Task.Result {
        // Bound once per search: reading `prefilter` inside the loop copied it (192 bytes, and a retain of each of its
        // arrays) at every hit it reported.
        let prefilter = self.prefilter
        let firstBytes = prefilter?.firstBytes ?? []
        return byteClasses.withUnsafeBufferPointer { classes in
            firstBytes.withUnsafeBufferPointer { firstBytes in
                depth.withUnsafeBufferPointer { depth in
                    func run<Transitions: AutomatonTransitions>(_ transitions: Transitions) -> Task.Result {
                        task.run(Search(
                            automaton: self, transitions: transitions, text: text, depth: depth, prefilter: prefilter,
                            firstBytes: firstBytes, accept: accept))
                    }
                    switch kind {
                    case .dense:
                        return denseTable.withUnsafeBufferPointer { run(DenseTransitions(table: $0, classes: classes)) }
                    case .sparse:
                        return firstChild.withUnsafeBufferPointer { firstChild in
                            nextSibling.withUnsafeBufferPointer { nextSibling in
                                edgeClass.withUnsafeBufferPointer { edgeClass in
                                    failure.withUnsafeBufferPointer { failure in
                                        startRow.withUnsafeBufferPointer { startRow in
                                            run(SparseTransitions(
                                                firstChild: firstChild, nextSibling: nextSibling, edgeClass: edgeClass,
                                                failure: failure, startRow: startRow, classes: classes))
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    /// The best match so far while the search is still looking for a longer or earlier one.
    fileprivate struct Candidate {
        var start: Int
        var end: Int
        var ruleIndex: Int
    }
}

/// An automaton's matches from a position, found at once and handed out to a search that asks from later positions.
///
/// The first match from `p` is the first found at or after `p` when the one found before it ends at or before `p`: no
/// match starts between that end and it, or it would have been found instead. Inside a found match, the automaton
/// searches from `p`.
struct FoundLiterals {
    let automaton: LiteralAutomaton
    let matches: [Match]
    /// The first found match that may start at or after the positions asked so far.
    var index = 0

    init(automaton: LiteralAutomaton, in text: UnsafeBufferPointer<UInt8>, from utf8Offset: Int, startLimit: Int) {
        self.automaton = automaton
        matches = automaton.matches(in: text, from: utf8Offset, startLimit: startLimit)
    }

    /// The first match that starts in `utf8Offset..<startLimit`, as `LiteralAutomaton.nextMatch` finds it; positions
    /// are asked in increasing order, from the one the matches were found from.
    mutating func first(from utf8Offset: Int, in text: UnsafeBufferPointer<UInt8>, startLimit: Int) -> Match? {
        while index < matches.count, matches[index].utf8Range.lowerBound < utf8Offset { index += 1 }
        if index > 0, matches[index - 1].utf8Range.upperBound > utf8Offset {
            return automaton.nextMatch(in: text, from: utf8Offset, startLimit: startLimit)
        }
        return index < matches.count ? matches[index] : nil
    }
}

/// Something to do with a search, whatever its transitions.
private protocol SearchTask {
    associatedtype Result
    func run<Transitions: AutomatonTransitions>(_ search: Search<Transitions>) -> Result
}

/// The first match from a position.
private struct NextMatch: SearchTask {
    let from: Int
    let startLimit: Int

    func run<Transitions: AutomatonTransitions>(_ search: Search<Transitions>) -> Match? {
        var cursor = search.cursor(from: from, startLimit: startLimit)
        return search.next(&cursor)
    }
}

/// Every match from a position, in two halves.
private struct AllMatches: SearchTask {
    let from: Int
    let startLimit: Int

    func run<Transitions: AutomatonTransitions>(_ search: Search<Transitions>) -> [Match] {
        search.all(from: from, startLimit: startLimit)
    }
}

/// One walk of the automaton over the text: where it is, and where it stops.
private struct Cursor {
    var state: UInt32 = 0
    var position: Int
    /// The prefilter is not asked again before the automaton has passed its last hit.
    var prefilterResume: Int
    /// Matches start before this.
    let startLimit: Int
    /// No match starting before `startLimit` ends after this.
    let scanEnd: Int
}

/// A search's constants, specialised per transition representation.
///
/// A walk stops at *special* states: those that end a word (themselves or through their suffix links), and, with a
/// prefilter, the start state, where the prefilter takes over. Until a candidate match exists the walk only steps
/// (`step`); from a candidate it reads on until no match in progress can start at or before it (`settle`).
private struct Search<Transitions: AutomatonTransitions> {
    let automaton: LiteralAutomaton
    let transitions: Transitions
    let text: UnsafeBufferPointer<UInt8>
    let depth: UnsafeBufferPointer<Int32>
    let prefilter: LiteralPrefilter?
    let firstBytes: UnsafeBufferPointer<UInt8>
    let accept: RuleSet.MatchFilter?
    let shift: UInt32
    let matchLimit: UInt32
    /// A state is special when `state &- specialOffset < specialLimit`.
    let specialOffset: UInt32
    let specialLimit: UInt32

    init(
        automaton: LiteralAutomaton, transitions: Transitions, text: UnsafeBufferPointer<UInt8>,
        depth: UnsafeBufferPointer<Int32>, prefilter: LiteralPrefilter?, firstBytes: UnsafeBufferPointer<UInt8>,
        accept: RuleSet.MatchFilter?
    ) {
        self.automaton = automaton
        self.transitions = transitions
        self.text = text
        self.depth = depth
        self.prefilter = prefilter
        self.firstBytes = firstBytes
        self.accept = accept
        shift = UInt32(truncatingIfNeeded: automaton.strideShift)
        matchLimit = UInt32(truncatingIfNeeded: automaton.matchStateCount << automaton.strideShift)
        specialOffset = prefilter == nil ? 1 : 0
        specialLimit = prefilter == nil ? matchLimit : matchLimit &+ 1
    }

    /// A walk from `position` in the start state, for matches that start before `startLimit`.
    func cursor(from position: Int, startLimit: Int) -> Cursor {
        Cursor(
            position: position, prefilterResume: position, startLimit: startLimit,
            scanEnd: min(text.count, startLimit &+ automaton.maximumPatternUTF8Length))
    }

    /// The next match of `cursor`'s walk, or nil; the cursor is left where the search ended.
    func next(_ cursor: inout Cursor) -> Match? {
        while prepare(&cursor) {
            guard step(&cursor) else { return nil }
            if let match = settle(&cursor) { return match }
        }
        return nil
    }

    /// Every match from `from`, searched as two halves stepped together (see `LiteralAutomaton.matches`).
    func all(from: Int, startLimit: Int) -> [Match] {
        let middle = from + (startLimit - from) / 2
        var first = cursor(from: from, startLimit: middle), second = cursor(from: middle, startLimit: startLimit)
        var firstMatches: [Match] = [], secondMatches: [Match] = []
        // Together while both walk; then the one left on its own.
        var live = (true, true)
        while live.0, live.1 {
            live = (prepare(&first), prepare(&second))
            guard live.0, live.1 else { break }
            let stops = stepTogether(&first, &second)
            live = (advance(&first, stopped: stops.0, into: &firstMatches), advance(&second, stopped: stops.1, into: &secondMatches))
        }
        if live.0 { finish(&first, into: &firstMatches) }
        if live.1 { finish(&second, into: &secondMatches) }

        // Where the first half's last match ends past the middle, search on from there until a match of the second half.
        guard let end = firstMatches.last?.utf8Range.upperBound, end > middle else {
            firstMatches.append(contentsOf: secondMatches)
            return firstMatches
        }
        var index = secondMatches.startIndex
        var resumed = cursor(from: end, startLimit: startLimit)
        while let match = next(&resumed) {
            while index < secondMatches.endIndex, secondMatches[index].utf8Range.lowerBound < match.utf8Range.lowerBound {
                index += 1
            }
            if index < secondMatches.endIndex, secondMatches[index] == match {
                firstMatches.append(contentsOf: secondMatches[index...])
                return firstMatches
            }
            firstMatches.append(match)
            resumed = cursor(from: match.utf8Range.upperBound, startLimit: startLimit)
        }
        return firstMatches
    }

    /// After two walks stepped together: settles `cursor` if it stopped at a special state (a match starts a new walk
    /// from its end), and whether it still walks.
    @inline(__always)
    func advance(_ cursor: inout Cursor, stopped: Bool, into found: inout [Match]) -> Bool {
        guard stopped else { return cursor.position < cursor.scanEnd }
        if let match = settle(&cursor) {
            found.append(match)
            cursor = self.cursor(from: match.utf8Range.upperBound, startLimit: cursor.startLimit)
        }
        return true
    }

    /// Walks `cursor` on alone to its end.
    func finish(_ cursor: inout Cursor, into found: inout [Match]) {
        while let match = next(&cursor) {
            found.append(match)
            cursor = self.cursor(from: match.utf8Range.upperBound, startLimit: cursor.startLimit)
        }
    }

    /// Before a walk steps on: in the start state, whether a match may still start, and the prefilter's jump to where.
    @inline(__always)
    func prepare(_ cursor: inout Cursor) -> Bool {
        guard cursor.state == 0 else { return true }
        if cursor.position >= cursor.startLimit { return false }
        if let prefilter, cursor.position >= cursor.prefilterResume {
            guard let next = prefilter.firstCandidate(
                in: text, from: cursor.position, startLimit: cursor.startLimit, firstBytes: firstBytes) else {
                return false
            }
            cursor.position = next.start
            cursor.prefilterResume = next.hit &+ 1
        }
        return true
    }

    /// Steps until a special state (true) or the end of the scan (false).
    @inline(__always)
    func step(_ cursor: inout Cursor) -> Bool {
        // In locals, so that the loop keeps them in registers rather than reading them through `self` at every byte.
        let (text, transitions, offset, limit) = (text, transitions, specialOffset, specialLimit)
        var (state, position) = (cursor.state, cursor.position)
        let end = cursor.scanEnd
        var stopped = false
        while position < end {
            state = transitions.next(state, text[position])
            position &+= 1
            if state &- offset < limit {
                stopped = true
                break
            }
        }
        (cursor.state, cursor.position) = (state, position)
        return stopped
    }

    /// Steps two walks a byte each at a time until either reaches a special state (and which did) or one its end.
    @inline(__always)
    func stepTogether(_ first: inout Cursor, _ second: inout Cursor) -> (Bool, Bool) {
        let (text, transitions, offset, limit) = (text, transitions, specialOffset, specialLimit)
        var (firstState, firstPosition) = (first.state, first.position)
        var (secondState, secondPosition) = (second.state, second.position)
        let end = firstPosition &+ min(first.scanEnd &- firstPosition, second.scanEnd &- secondPosition)
        var stops = (false, false)
        while firstPosition < end {
            firstState = transitions.next(firstState, text[firstPosition])
            secondState = transitions.next(secondState, text[secondPosition])
            firstPosition &+= 1
            secondPosition &+= 1
            stops = (firstState &- offset < limit, secondState &- offset < limit)
            if stops.0 || stops.1 { break }
        }
        (first.state, first.position) = (firstState, firstPosition)
        (second.state, second.position) = (secondState, secondPosition)
        return stops
    }

    /// At a special stop: the match found from here, or nil when the walk goes on.
    ///
    /// The first word ending here that passes its checks is a candidate; the walk reads on until no match in progress
    /// can start at or before it (`position - depth` has passed its start), taking better ones as they end.
    func settle(_ cursor: inout Cursor) -> Match? {
        var state = cursor.state
        guard state != 0, var best = automaton.bestOutput(
            at: Int(state &>> shift), end: cursor.position, text: text, startLimit: cursor.startLimit, improving: nil,
            accept: accept) else { return nil }
        var position = cursor.position
        while position < cursor.scanEnd {
            state = transitions.next(state, text[position])
            position &+= 1
            let index = Int(state &>> shift)
            if position &- Int(depth[index]) > best.start { break }
            if state &- 1 < matchLimit,
               let better = automaton.bestOutput(
                at: index, end: position, text: text, startLimit: cursor.startLimit, improving: best, accept: accept) {
                best = better
            }
        }
        cursor.state = state
        cursor.position = position
        return Match(ruleIndex: best.ruleIndex, utf8Range: best.start..<best.end)
    }
}

extension LiteralAutomaton {
    /// The best valid word ending at `end` in state `stateIndex` that beats `current` (earlier start, or same start and longer).
    fileprivate func bestOutput(
        at stateIndex: Int, end: Int, text: UnsafeBufferPointer<UInt8>, startLimit: Int, improving current: Candidate?,
        accept: RuleSet.MatchFilter?
    ) -> Candidate? {
        var node = outputStart[stateIndex] < outputStart[stateIndex + 1] ? stateIndex : Int(dictionarySuffix[stateIndex])
        // Along the suffix links words get shorter, so their starts only grow.
        while node >= 0 {
            let start = end - Int(depth[node])
            if start >= startLimit { return nil }
            if let current, start > current.start { return nil }
            for outputIndex in Int(outputStart[node])..<Int(outputStart[node + 1]) {
                let output = outputs[outputIndex]
                if output.exactBytesIndex >= 0 {
                    let expected = exactBytes[Int(output.exactBytesIndex)]
                    guard bytesEqual(text, start, expected) else { continue }
                }
                let pattern = patterns[Int(output.patternIndex)]
                if pattern.wholeWord, !WordBoundary.accepts(text, utf8Range: start..<end) {
                    continue
                }
                // A rejected word is skipped like one failing its boundaries, so it hides nothing.
                if let accept, !accept(pattern.ruleIndex, start..<end) { continue }
                return Candidate(start: start, end: end, ruleIndex: pattern.ruleIndex)
            }
            node = Int(dictionarySuffix[node])
        }
        return nil
    }

    private func bytesEqual(_ text: UnsafeBufferPointer<UInt8>, _ start: Int, _ expected: [UInt8]) -> Bool {
        guard start >= 0, text.count - start >= expected.count else { return false }
        for (offset, byte) in expected.enumerated() where text[start + offset] != byte {
            return false
        }
        return true
    }
}

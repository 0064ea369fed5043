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
    /// The number of states.
    var stateCount: Int { depth.count }

    /// Builds the automaton for `patternSet`.
    ///
    /// - Complexity: O(total word bytes × classes) for the dense form, O(total word bytes × alphabet) for the sparse one.
    init(patternSet: LiteralPatternSet, configuration: Configuration) {
        patterns = patternSet.patterns
        maximumPatternUTF8Length = patternSet.maximumVariantUTF8Length

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
        return byteClasses.withUnsafeBufferPointer { classes in
            switch kind {
            case .dense:
                return denseTable.withUnsafeBufferPointer { table in
                    search(DenseTransitions(table: table, classes: classes), text, utf8Offset, limit, accept)
                }
            case .sparse:
                return firstChild.withUnsafeBufferPointer { firstChild in
                    nextSibling.withUnsafeBufferPointer { nextSibling in
                        edgeClass.withUnsafeBufferPointer { edgeClass in
                            failure.withUnsafeBufferPointer { failure in
                                startRow.withUnsafeBufferPointer { startRow in
                                    search(
                                        SparseTransitions(
                                            firstChild: firstChild, nextSibling: nextSibling, edgeClass: edgeClass,
                                            failure: failure, startRow: startRow, classes: classes),
                                        text, utf8Offset, limit, accept)
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    /// The best match so far while the search is still looking for a longer or earlier one.
    private struct Candidate {
        var start: Int
        var end: Int
        var ruleIndex: Int
    }

    /// The search loop, specialised per transition representation.
    @inline(__always)
    private func search<Transitions: AutomatonTransitions>(
        _ transitions: Transitions, _ text: UnsafeBufferPointer<UInt8>, _ from: Int, _ startLimit: Int,
        _ accept: RuleSet.MatchFilter?
    ) -> Match? {
        // No match starting before `startLimit` can end after `scanEnd`.
        let scanEnd = min(text.count, startLimit &+ maximumPatternUTF8Length)
        let shift = strideShift
        let matchLimit = UInt32(truncatingIfNeeded: matchStateCount << shift)
        // With a prefilter, the start state is interesting too (the prefilter takes over there):
        // a state is special when `state &- specialOffset < specialLimit`.
        let specialOffset: UInt32 = prefilter == nil ? 1 : 0
        let specialLimit: UInt32 = prefilter == nil ? matchLimit : matchLimit &+ 1

        // Bound once per search: `if let prefilter` on the stored property inside the loop below copied the
        // prefilter (192 bytes, and a retain of each of its arrays) at every hit it reported.
        let prefilter = self.prefilter
        let firstBytes = prefilter?.firstBytes ?? []
        return firstBytes.withUnsafeBufferPointer { firstBytes in depth.withUnsafeBufferPointer { depth in
            var state: UInt32 = 0
            var position = from
            var candidate: Candidate?
            // The prefilter is not asked again before the automaton has passed its last hit.
            var prefilterResume = from

            // Phase 1: no candidate yet; step quickly until a match state.
            while candidate == nil {
                if state == 0 {
                    if position >= startLimit { return nil }
                    if let prefilter, position >= prefilterResume {
                        guard let next = prefilter.firstCandidate(
                            in: text, from: position, startLimit: startLimit, firstBytes: firstBytes) else {
                            return nil
                        }
                        position = next.start
                        prefilterResume = next.hit &+ 1
                    }
                }
                var interesting = false
                while position < scanEnd {
                    state = transitions.next(state, text[position])
                    position &+= 1
                    if state &- specialOffset < specialLimit {
                        interesting = true
                        break
                    }
                }
                guard interesting else { return nil }
                if state != 0 {
                    candidate = bestOutput(
                        at: Int(state &>> UInt32(shift)), end: position, text: text, startLimit: startLimit,
                        improving: nil, accept: accept)
                }
            }

            // Phase 2: a candidate exists; stop once no match in progress can start at or before it.
            guard var best = candidate else { return nil }
            while position < scanEnd {
                state = transitions.next(state, text[position])
                position &+= 1
                let index = Int(state &>> UInt32(shift))
                if position &- Int(depth[index]) > best.start { break }
                if state &- 1 < matchLimit,
                   let better = bestOutput(
                    at: index, end: position, text: text, startLimit: startLimit, improving: best, accept: accept) {
                    best = better
                }
            }
            return Match(ruleIndex: best.ruleIndex, utf8Range: best.start..<best.end)
        } }
    }

    /// The best valid word ending at `end` in state `stateIndex` that beats `current` (earlier start, or same start and longer).
    private func bestOutput(
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

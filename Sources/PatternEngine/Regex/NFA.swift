// A Thompson NFA over bytes.
//
// Every engine runs on bytes, so a scalar set becomes a small byte automaton
// (a trie of UTF-8 byte ranges, see UTF8Sequences.swift) whose leaves lead to
// what follows the set. The compiler works backwards: `compile(node, next:)`
// returns the entry state of `node` given the state to continue with, so no
// patch lists are needed; loops allocate their union state first and fill it
// in once the body exists.
//
//     a+   :   [a] --> (union) --> next
//               ^         |
//               +---------+
//
// Epsilon states (`union`, `look`, `capture`) are followed during closure;
// `union` lists its targets in priority order (first = preferred), which only
// the capture engine uses.
//
// Large sets (`\w`, `\pL`: hundreds of ranges, about a thousand UTF-8
// sequences) are compiled once per process and direction into a template
// whose exits point at a placeholder, and copied into each NFA that uses
// them: a pattern compiles three NFAs, and a configuration repeats classes.

import Synchronization

/// One transition on a byte range.
struct ByteTransition: Hashable, Sendable {
    var low: UInt8
    var high: UInt8
    var next: Int32
}

extension ByteTransition {
    /// Orders transitions by range, then target (a canonical order for sharing identical trie nodes).
    var sortKey: UInt64 {
        UInt64(low) << 40 | UInt64(high) << 32 | UInt64(UInt32(bitPattern: next))
    }

    /// Whether the range includes `\n` or `\r`.
    var consumesLineTerminator: Bool {
        (low <= 0x0A && high >= 0x0A) || (low <= 0x0D && high >= 0x0D)
    }
}

/// One NFA state.
enum NFAState: Sendable {
    /// Consumes one byte in the range and goes on.
    case bytes(ByteTransition)
    /// Consumes one byte in any of the ranges and goes on (a state of a UTF-8 trie).
    case sparse([ByteTransition])
    /// Goes on to every target without consuming input, first target preferred.
    case union([Int32])
    /// Goes on without consuming input if the assertion holds at the current position.
    case look(LookKind, next: Int32)
    /// Records the current position in a capture slot and goes on.
    case capture(slot: Int, next: Int32)
    /// A match ends here.
    case match
    /// No way on.
    case fail
}

/// A compiled NFA and what the engines need to know about it.
struct NFA: Sendable {
    /// The states; ids are indices.
    var states: [NFAState]
    /// The entry state.
    var start: Int32
    /// The number of capture slots (two per group, including group 0), or 0 when captures were not compiled.
    var captureSlotCount: Int
    /// Whether any `\b` or `\B` occurs, ASCII or Unicode.
    var hasWordBoundary: Bool
    /// Whether any Unicode `\b` or `\B` occurs (`(?u)`): non-ASCII scalars must then be classified.
    var hasUnicodeWordBoundary: Bool
    /// Whether any `^`, `$`, `\A` or `\z` occurs.
    var hasLineOrTextAnchor: Bool

    /// The number of states.
    var count: Int { states.count }
}

/// An edge of a UTF-8 trie; `child` -1 marks the end of a sequence.
private struct TrieEdge {
    var range: ByteRange
    var child: Int
}

/// An inner trie edge, identified by its node and byte range.
private struct TrieEdgeKey: Hashable {
    var node: Int
    var range: ByteRange
}

/// A large set compiled once: byte-range states whose local ids start at 0 and whose exits are -1.
private struct SetTemplate: Sendable {
    var states: [NFAState]
    var entry: Int32
}

/// Templates are per set and per direction (the reverse NFA reads sequences backwards).
private struct SetTemplateKey: Hashable, Sendable {
    var set: ScalarSet
    var reverse: Bool
}

/// The compiled large sets of this process.
private let setTemplates = Mutex<[SetTemplateKey: SetTemplate]>([:])

/// Compiles `RegexNode` trees into `NFA`s.
struct NFACompiler {
    /// The most states a compiled pattern may have (after counted repetitions are expanded), whatever the budget.
    static let maxStates = 100_000

    private var states: [NFAState] = []
    private let reverse: Bool
    private let includeCaptures: Bool
    private var repetitionOffset = 0
    /// What this compilation may still spend; measured state by state as the NFA grows.
    private var meter: CompileMeter

    private init(reverse: Bool, includeCaptures: Bool, meter: CompileMeter) {
        self.reverse = reverse
        self.includeCaptures = includeCaptures
        self.meter = meter
    }

    /// Compiles `syntax` (read backwards when `reverse`), optionally with capture states, within `meter`'s budget,
    /// which is charged for what the NFA costs.
    ///
    /// - Complexity: O(size of the expanded pattern), bounded by `maxStates` and the budget.
    static func compile(
        _ syntax: RegexSyntax, reverse: Bool, includeCaptures: Bool, meter: inout CompileMeter
    ) throws(RegexError) -> NFA {
        var compiler = NFACompiler(reverse: reverse, includeCaptures: includeCaptures, meter: meter)
        defer { meter = compiler.meter }
        let matchState = try compiler.add(.match)
        let root = reverse ? syntax.root.reversed : syntax.root
        var start: Int32
        if includeCaptures {
            let close = try compiler.add(.capture(slot: 1, next: matchState))
            let body = try compiler.compile(root, next: close)
            start = try compiler.add(.capture(slot: 0, next: body))
        } else {
            start = try compiler.compile(root, next: matchState)
        }
        let unicodeWordKinds: Set<LookKind> = [.wordBoundary, .notWordBoundary, .notAfterWordCharacter, .notBeforeWordCharacter]
        let wordKinds = unicodeWordKinds.union([.wordBoundaryASCII, .notWordBoundaryASCII])
        return NFA(
            states: compiler.states,
            start: start,
            captureSlotCount: includeCaptures ? 2 * (syntax.captureCount + 1) : 0,
            hasWordBoundary: syntax.root.containsLook(wordKinds),
            hasUnicodeWordBoundary: syntax.root.containsLook(unicodeWordKinds),
            hasLineOrTextAnchor: syntax.root.containsLook([.startLine, .endLine, .startLineLF, .endLineLF, .startText, .endText]))
    }

    private mutating func add(_ state: NFAState) throws(RegexError) -> Int32 {
        guard states.count < NFACompiler.maxStates else {
            throw RegexError.overBudget(
                "more than \(NFACompiler.maxStates) automaton states after expanding repetitions", patternUTF8Offset: repetitionOffset)
        }
        if let problem = meter.charge(state) {
            // The offset is that of the repetition being expanded when the budget ran out.
            throw RegexError.overBudget(problem, patternUTF8Offset: repetitionOffset)
        }
        states.append(state)
        return Int32(truncatingIfNeeded: states.count - 1)
    }

    private mutating func compile(_ node: RegexNode, next: Int32) throws(RegexError) -> Int32 {
        switch node {
        case .empty:
            return next
        case .look(let kind):
            return try add(.look(kind, next: next))
        case .scalars(let set):
            return try compileSet(set, next: next)
        case .concat(let parts):
            var current = next
            for part in parts.reversed() {
                current = try compile(part, next: current)
            }
            return current
        case .alternation(let branches):
            var targets: [Int32] = []
            for branch in branches {
                targets.append(try compile(branch, next: next))
            }
            return try add(.union(targets))
        case .capture(let inner, let index):
            guard includeCaptures else {
                return try compile(inner, next: next)
            }
            // The reverse NFA never carries captures, so slots keep their forward meaning.
            let close = try add(.capture(slot: 2 * index + 1, next: next))
            let body = try compile(inner, next: close)
            return try add(.capture(slot: 2 * index, next: body))
        case .repetition(let inner, let minimum, let maximum, let greedy, let offset):
            let outerOffset = repetitionOffset
            repetitionOffset = offset
            defer { repetitionOffset = outerOffset }
            return try compileRepetition(inner, minimum: minimum, maximum: maximum, greedy: greedy, next: next)
        }
    }

    private mutating func compileRepetition(
        _ inner: RegexNode, minimum: Int, maximum: Int?, greedy: Bool, next: Int32
    ) throws(RegexError) -> Int32 {
        // Greedy prefers another round, lazy prefers leaving (union targets are in priority order).
        func choice(_ body: Int32, _ exit: Int32) -> NFAState {
            greedy ? .union([body, exit]) : .union([exit, body])
        }
        var current: Int32
        var mandatory = minimum
        if let maximum {
            // x{m,n} = x^m (x (x (...)?)?)? with n - m optional copies, built from the inside out.
            current = next
            for _ in 0..<(maximum - minimum) {
                let body = try compile(inner, next: current)
                current = try add(choice(body, next))
            }
        } else {
            if minimum == 0 && inner.canMatchEmpty {
                // x* with a body that can match nothing is built as (x+)?: with a single loop state, a round
                // that matches nothing would reach the loop again inside one closure and be cut, so a
                // preferred empty way through the body would lose its place to the body's other ways.
                let plus = try compileRepetition(inner, minimum: 1, maximum: nil, greedy: greedy, next: next)
                return try add(choice(plus, next))
            }
            // The loop state is allocated first and filled in once its body exists.
            let loop = try add(.fail)
            let body = try compile(inner, next: loop)
            states[Int(loop)] = choice(body, next)
            if minimum == 0 {
                return loop
            }
            // x{m,} = x^(m-1) x+ where x+ enters the body first.
            current = body
            mandatory = minimum - 1
        }
        for _ in 0..<mandatory {
            current = try compile(inner, next: current)
        }
        return current
    }

    /// A lower bound on the states `compile` builds for `node` (forward, without captures), in O(pattern size):
    /// a pattern whose bound is over budget is refused before anything is built, so a file of many such rules
    /// costs its length, not the budget once per rule. Large sets count their template's size (built once).
    static func minimumStateCount(of node: RegexNode) -> Int {
        let cap = Int.max / 4
        func product(_ a: Int, _ b: Int) -> Int {
            let (result, overflow) = a.multipliedReportingOverflow(by: b)
            return overflow ? cap : min(result, cap)
        }
        switch node {
        case .empty:
            return 0
        case .look:
            return 1
        case .scalars(let set):
            guard set.ranges.count >= templateMinimumRanges,
                  let template = try? NFACompiler.template(for: set, reverse: false) else { return 1 }
            return template.states.count
        case .concat(let parts):
            return parts.reduce(0) { min($0 + minimumStateCount(of: $1), cap) }
        case .alternation(let branches):
            return branches.reduce(1) { min($0 + minimumStateCount(of: $1), cap) }
        case .capture(let inner, _):
            return minimumStateCount(of: inner)
        case .repetition(let inner, let minimum, let maximum, _, _):
            let body = minimumStateCount(of: inner)
            if let maximum { return min(product(body, maximum) + (maximum - minimum), cap) }
            return min(product(body, max(minimum, 1)) + 1, cap)
        }
    }

    /// The offset of the repetition that contributes most to `minimumStateCount(of: node)`, or 0 without one:
    /// where an over-budget error points.
    static func costliestRepetitionOffset(in node: RegexNode) -> Int {
        var best = (cost: -1, offset: 0)
        func visit(_ node: RegexNode) {
            switch node {
            case .empty, .look, .scalars: return
            case .concat(let parts), .alternation(let parts): parts.forEach(visit)
            case .capture(let inner, _): visit(inner)
            case .repetition(let inner, _, _, _, let offset):
                let cost = minimumStateCount(of: node)
                if cost > best.cost { best = (cost, offset) }
                visit(inner)
            }
        }
        visit(node)
        return best.offset
    }

    /// The template of a large set: from the cache, or compiled (and cached while there is room).
    private static func template(for set: ScalarSet, reverse: Bool) throws(RegexError) -> SetTemplate {
        let key = SetTemplateKey(set: set, reverse: reverse)
        if let cached = setTemplates.withLock({ $0[key] }) { return cached }
        // Exits point at -1, replaced by `next` when the template is copied. A template is built once per
        // process and bounded by the set's size; its copies are what is charged.
        var builder = NFACompiler(reverse: reverse, includeCaptures: false, meter: .unlimited)
        let entry = try builder.compileSetDirectly(set, next: -1)
        let template = SetTemplate(states: builder.states, entry: entry)
        setTemplates.withLock { templates in
            if templates.count < NFACompiler.templateLimit { templates[key] = template }
        }
        return template
    }

    /// Sets with at least this many ranges are compiled through the template cache.
    static let templateMinimumRanges = 16
    /// The most templates kept; later large sets are compiled directly.
    static let templateLimit = 64

    /// Compiles a scalar set, through the template cache when it is large.
    private mutating func compileSet(_ set: ScalarSet, next: Int32) throws(RegexError) -> Int32 {
        guard set.ranges.count >= NFACompiler.templateMinimumRanges else {
            return try compileSetDirectly(set, next: next)
        }
        let template = try NFACompiler.template(for: set, reverse: reverse)
        let base = Int32(truncatingIfNeeded: states.count)
        func relocated(_ transition: ByteTransition) -> ByteTransition {
            ByteTransition(low: transition.low, high: transition.high, next: transition.next < 0 ? next : base &+ transition.next)
        }
        for state in template.states {
            switch state {
            case .bytes(let transition):
                _ = try add(.bytes(relocated(transition)))
            case .sparse(let transitions):
                _ = try add(.sparse(transitions.map(relocated)))
            default:
                _ = try add(state)
            }
        }
        return base &+ template.entry
    }

    /// Compiles a scalar set as a trie of UTF-8 byte ranges whose leaves lead to `next`.
    private mutating func compileSetDirectly(_ set: ScalarSet, next: Int32) throws(RegexError) -> Int32 {
        var sequences = UTF8Sequences.sequences(for: set)
        if sequences.isEmpty {
            return try add(.fail)
        }
        if reverse {
            sequences = sequences.map { $0.reversed() }
        }
        // Trie nodes: edges (range, child); child -1 marks the end of a sequence.
        var trie: [[TrieEdge]] = [[]]
        // Inner edges by (node, range), so shared prefixes are found without scanning wide nodes.
        var innerEdges: [TrieEdgeKey: Int] = [:]
        for sequence in sequences {
            var node = 0
            let last = sequence.count - 1
            for depth in 0...last {
                let range = sequence[depth]
                if depth == last {
                    trie[node].append(TrieEdge(range: range, child: -1))
                } else if let existing = innerEdges[TrieEdgeKey(node: node, range: range)] {
                    node = existing
                } else {
                    let child = trie.count
                    trie.append([])
                    trie[node].append(TrieEdge(range: range, child: child))
                    innerEdges[TrieEdgeKey(node: node, range: range)] = child
                    node = child
                }
            }
        }
        var memo: [[ByteTransition]: Int32] = [:]
        return try compileTrieNode(0, trie: trie, next: next, memo: &memo)
    }

    /// Emits trie node `index`, sharing identical subtrees (common UTF-8 suffixes) through `memo`.
    private mutating func compileTrieNode(
        _ index: Int, trie: [[TrieEdge]], next: Int32, memo: inout [[ByteTransition]: Int32]
    ) throws(RegexError) -> Int32 {
        var transitions: [ByteTransition] = []
        for edge in trie[index] {
            let target = edge.child < 0 ? next : try compileTrieNode(edge.child, trie: trie, next: next, memo: &memo)
            transitions.append(ByteTransition(low: edge.range.low, high: edge.range.high, next: target))
        }
        transitions.sort { $0.sortKey < $1.sortKey }
        if let existing = memo[transitions] {
            return existing
        }
        let state: NFAState = transitions.count == 1 ? .bytes(transitions[0]) : .sparse(transitions)
        let id = try add(state)
        memo[transitions] = id
        return id
    }
}

extension NFA {
    /// The NFA restricted to non-empty matches: the product with a "consumed a byte" bit.
    ///
    /// A state is paired with whether a byte has been consumed since the start;
    /// byte transitions set the bit, epsilon transitions keep it, and `match`
    /// without the bit becomes `fail`. Only pairs reachable from the start are
    /// built, so the result is at most twice as large.
    func restrictedToNonEmptyMatches() -> NFA {
        var newStates: [NFAState] = []
        var ids: [Int32: Int32] = [:]  // key: state * 2 + bit
        var work: [(old: Int32, consumed: Bool)] = []

        func id(_ old: Int32, _ consumed: Bool) -> Int32 {
            let key = old &* 2 &+ (consumed ? 1 : 0)
            if let existing = ids[key] {
                return existing
            }
            let new = Int32(truncatingIfNeeded: newStates.count)
            newStates.append(.fail)
            ids[key] = new
            work.append((old, consumed))
            return new
        }

        let start = id(self.start, false)
        while let (old, consumed) = work.popLast() {
            guard let newID = ids[old &* 2 &+ (consumed ? 1 : 0)] else { continue }
            let rebuilt: NFAState
            switch states[Int(old)] {
            case .bytes(let transition):
                rebuilt = .bytes(ByteTransition(low: transition.low, high: transition.high, next: id(transition.next, true)))
            case .sparse(let transitions):
                rebuilt = .sparse(transitions.map { ByteTransition(low: $0.low, high: $0.high, next: id($0.next, true)) })
            case .union(let targets):
                rebuilt = .union(targets.map { id($0, consumed) })
            case .look(let kind, let next):
                rebuilt = .look(kind, next: id(next, consumed))
            case .capture(let slot, let next):
                rebuilt = .capture(slot: slot, next: id(next, consumed))
            case .match:
                rebuilt = consumed ? .match : .fail
            case .fail:
                rebuilt = .fail
            }
            newStates[Int(newID)] = rebuilt
        }
        var result = self
        result.states = newStates
        result.start = start
        return result
    }

    /// Whether some match can consume `\n` or `\r` (over-approximated: any reachable transition on them).
    var canConsumeLineTerminator: Bool {
        states.contains { state in
            switch state {
            case .bytes(let transition):
                return transition.consumesLineTerminator
            case .sparse(let transitions):
                return transitions.contains { $0.consumesLineTerminator }
            default:
                return false
            }
        }
    }
}

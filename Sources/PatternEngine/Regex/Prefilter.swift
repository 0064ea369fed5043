// Cheap facts about where matches can start, used to skip text quickly.
//
// `LiteralPrefixes` finds a small set of byte strings one of which starts
// every match (`TODO|FIXME` -> TODO, FIXME; `\bv\d` gives nothing since
// `\d` has too many members). It walks the syntax tree: concatenation
// multiplies the sets, alternation unions them, and a node that could start
// with too many strings, or with nothing at all, ends the walk.
//
// `FirstByteSet` holds the bytes a match can start with, when there are at
// most three; the searcher then finds candidates eight bytes at a time with
// the classic "has zero byte" word trick instead of stepping the automaton
// byte by byte.

/// Extracts literal prefixes from a syntax tree.
enum LiteralPrefixes {
    /// The most strings a prefix set may hold.
    static let maxStrings = 16
    /// The longest prefix kept, in bytes.
    static let maxLength = 16
    /// The largest class expanded into its members.
    static let maxClassSize = 8

    /// A candidate prefix; `complete` means it is a whole match of the node, so what follows may extend it.
    private struct Prefix: Hashable {
        var bytes: [UInt8]
        var complete: Bool
    }

    /// Byte strings one of which starts every match of `root`; nil when there is no small such set.
    static func prefixes(of root: RegexNode) -> [[UInt8]]? {
        guard let result = extract(root) else { return nil }
        var seen = Set<[UInt8]>()
        var strings: [[UInt8]] = []
        for prefix in result where seen.insert(prefix.bytes).inserted {
            strings.append(prefix.bytes)
        }
        if strings.isEmpty || strings.contains(where: \.isEmpty) {
            return nil
        }
        return strings
    }

    /// The prefixes of `node`, or nil when there are too many to list.
    private static func extract(_ node: RegexNode) -> [Prefix]? {
        switch node {
        case .empty, .look:
            return [Prefix(bytes: [], complete: true)]
        case .scalars(let set):
            guard set.count <= maxClassSize else { return nil }
            var result: [Prefix] = []
            for range in set.ranges {
                for value in range {
                    result.append(Prefix(bytes: UTF8Sequences.encode(value), complete: true))
                }
            }
            return result
        case .capture(let inner, _):
            return extract(inner)
        case .alternation(let branches):
            var result: [Prefix] = []
            for branch in branches {
                guard let prefixes = extract(branch) else { return nil }
                result.append(contentsOf: prefixes)
            }
            return result.count <= maxStrings ? result : nil
        case .repetition(let inner, let minimum, let maximum, _, _):
            let prefixes = extract(inner)
            // Only a single, exact copy stays complete; more copies would have to be appended.
            let keepsCompleteness = maximum == 1
            let taken = prefixes?.map { Prefix(bytes: $0.bytes, complete: $0.complete && keepsCompleteness) }
            if minimum == 0 {
                guard let taken else { return nil }
                return [Prefix(bytes: [], complete: true)] + taken
            }
            return taken
        case .concat(let parts):
            var result = [Prefix(bytes: [], complete: true)]
            for part in parts {
                guard result.contains(where: \.complete) else { break }
                guard let next = extract(part) else {
                    return result.map { Prefix(bytes: $0.bytes, complete: false) }
                }
                var product: [Prefix] = []
                for left in result {
                    guard left.complete else {
                        product.append(left)
                        continue
                    }
                    for right in next {
                        product.append(Prefix(bytes: left.bytes + right.bytes, complete: right.complete))
                    }
                }
                if product.count > maxStrings || product.contains(where: { $0.bytes.count > maxLength }) {
                    // Every match still starts with one of the shorter prefixes.
                    return result.map { Prefix(bytes: $0.bytes, complete: false) }
                }
                result = product
            }
            return result
        }
    }
}

/// Up to three bytes one of which starts every match, found thirty-two bytes at a time with vector compares.
struct FirstByteSet: Sendable {
    /// The bytes (one to three).
    let bytes: [UInt8]
    /// Each byte repeated across a vector; the list is padded to three by repeating the first.
    private let needles: (SIMD16<UInt8>, SIMD16<UInt8>, SIMD16<UInt8>)

    /// A set of one to three given bytes.
    init(bytes: [UInt8]) {
        self.bytes = bytes
        let first = bytes.first ?? 0
        func needle(_ index: Int) -> SIMD16<UInt8> {
            SIMD16<UInt8>(repeating: index < bytes.count ? bytes[index] : first)
        }
        needles = (needle(0), needle(1), needle(2))
    }

    /// The set for `nfa` (whose matches are non-empty), or nil when more than three bytes can start a match.
    init?(_ nfa: NFA) {
        var seen = [Bool](repeating: false, count: nfa.count)
        var stack: [Int32] = [nfa.start]
        var starting = Set<UInt8>()
        while let state = stack.popLast() {
            let index = Int(state)
            if seen[index] { continue }
            seen[index] = true
            switch nfa.states[index] {
            case .union(let targets):
                stack.append(contentsOf: targets)
            case .look(_, let next), .capture(_, let next):
                stack.append(next)
            case .bytes(let transition):
                guard Int(transition.high) - Int(transition.low) < 3 else { return nil }
                for byte in transition.low...transition.high { starting.insert(byte) }
            case .sparse(let transitions):
                for transition in transitions {
                    guard Int(transition.high) - Int(transition.low) < 3 else { return nil }
                    for byte in transition.low...transition.high { starting.insert(byte) }
                }
            case .match, .fail:
                break
            }
            if starting.count > 3 { return nil }
        }
        guard !starting.isEmpty else { return nil }
        self.init(bytes: starting.sorted())
    }

    /// The first index in `from..<text.count` holding one of the bytes, or nil.
    ///
    /// Thirty-two bytes a step: two vectors compared with the three needles, one test for both. The
    /// word-at-a-time loop this replaces (eight bytes a step, a loop over the bytes inside) was a third of
    /// the instructions of `list` with the ticket-id regex, whose inner literal `-` it looks for.
    ///
    /// - Complexity: O(n), thirty-two bytes per step.
    func firstIndex(in text: UnsafeBufferPointer<UInt8>, from: Int) -> Int? {
        guard let base = text.baseAddress, from >= 0, !bytes.isEmpty else { return nil }
        let count = text.count
        var index = from
        // The needles hold three bytes at most; a longer list (never built) goes byte by byte.
        if bytes.count <= 3 {
            let raw = UnsafeRawPointer(base)
            let zero = SIMD16<UInt8>(repeating: 0)
            let (first, second, third) = needles
            while count &- index >= 32 {
                let low = raw.loadUnaligned(fromByteOffset: index, as: SIMD16<UInt8>.self)
                let high = raw.loadUnaligned(fromByteOffset: index &+ 16, as: SIMD16<UInt8>.self)
                let lowFound = zero.replacing(with: 0xFF, where: (low .== first) .| (low .== second) .| (low .== third))
                let highFound = zero.replacing(with: 0xFF, where: (high .== first) .| (high .== second) .| (high .== third))
                let (either, eitherHigh) = SIMDLanes.words(lowFound | highFound)
                if either | eitherHigh != 0 {
                    if let lane = SIMDLanes.firstNonZero(lowFound) { return index &+ lane }
                    if let lane = SIMDLanes.firstNonZero(highFound) { return index &+ 16 &+ lane }
                }
                index &+= 32
            }
            while count &- index >= 16 {
                let chunk = raw.loadUnaligned(fromByteOffset: index, as: SIMD16<UInt8>.self)
                let found = zero.replacing(with: 0xFF, where: (chunk .== first) .| (chunk .== second) .| (chunk .== third))
                if let lane = SIMDLanes.firstNonZero(found) { return index &+ lane }
                index &+= 16
            }
        }
        while index < count {
            if bytes.contains(base[index]) { return index }
            index += 1
        }
        return nil
    }
}

/// A rare byte that every match contains at a known place in its top-level sequence, with what comes before it.
///
/// For `\b[A-Z]{2,}-\d+\b` the inner literal is `-`, and the prefix is `\b[A-Z]{2,}`. When the prefix can
/// never match the literal's bytes, a match's literal is the first occurrence of those bytes at or after its
/// start. So a search can find the literal with a byte scan, run the prefix backwards from there to find the
/// earliest start (the earliest is the one to take: whether the rest matches does not depend on the start), and
/// run the whole pattern forwards, anchored at that start, for the longest end. An occurrence that leads to no
/// match is skipped, and the prefix of the next one is not run back past it.
///
///     text    . . . x   C O R E - 1 2 3 4   . . .
///                       <-------| -------->        prefix backwards from `-`, then the pattern forwards
struct InnerLiteral: Sendable {
    /// The bytes (one to three) the literal position can hold.
    var bytes: [UInt8] { scan.bytes }
    /// Finds them eight bytes at a time.
    let scan: FirstByteSet
    /// The prefix before the literal, reversed, without the non-empty restriction (the prefix may match nothing).
    let reversePrefixNFA: NFA
    /// The estimated share of text bytes that are the literal's, in percent.
    let estimatedFrequency: Double

    /// Above this estimated share (in percent), stopping at every occurrence costs more than it saves.
    static let maximumFrequency = 1.0

    /// The rarest usable inner literal of `root`, or nil.
    init?(_ root: RegexNode, meter: inout CompileMeter) throws(RegexError) {
        let parts = InnerLiteral.topLevelParts(of: root)
        var best: (index: Int, bytes: [UInt8], frequency: Double)?
        for (index, part) in parts.enumerated() where index > 0 {
            guard case .scalars(let set) = part, let last = set.ranges.last, last.upperBound < 0x80,
                  set.count <= 3 else { continue }
            let bytes = set.ranges.flatMap { $0 }.map { UInt8(truncatingIfNeeded: $0) }
            let frequency = bytes.reduce(0) { $0 + ByteFrequency.estimatedPercentage(of: $1) }
            guard frequency <= InnerLiteral.maximumFrequency, frequency < (best?.frequency ?? .infinity) else { continue }
            // The prefix must not be able to read the literal's bytes, or the first occurrence would not be the one.
            let prefix = parts[0..<index]
            guard !prefix.contains(where: { $0.canMatchAny(of: set) }) else { continue }
            best = (index, bytes, frequency)
        }
        guard let best else { return nil }
        scan = FirstByteSet(bytes: best.bytes)
        estimatedFrequency = best.frequency
        let prefix = RegexSyntax(root: .concat(Array(parts[0..<best.index])), captureCount: 0, captureNames: [nil])
        reversePrefixNFA = try NFACompiler.compile(prefix, reverse: true, includeCaptures: false, meter: &meter)
    }

    /// The parts of the top-level sequence, through groups (captures do not matter for finding matches).
    private static func topLevelParts(of node: RegexNode) -> [RegexNode] {
        switch node {
        case .capture(let inner, _):
            return topLevelParts(of: inner)
        case .concat(let parts):
            return parts.flatMap { part -> [RegexNode] in
                switch part {
                case .concat, .capture: return topLevelParts(of: part)
                default: return [part]
                }
            }
        default:
            return [node]
        }
    }

    /// The first position in `utf8Offset..<text.count` holding one of the bytes, or nil.
    @inline(__always)
    func firstIndex(in text: UnsafeBufferPointer<UInt8>, from utf8Offset: Int) -> Int? {
        scan.firstIndex(in: text, from: utf8Offset)
    }
}

extension RegexNode {
    /// Whether some scalar the node can consume is in `set` (over-approximated through assertions and repetitions).
    func canMatchAny(of set: ScalarSet) -> Bool {
        switch self {
        case .empty, .look:
            return false
        case .scalars(let own):
            return !own.intersection(set).isEmpty
        case .concat(let parts), .alternation(let parts):
            return parts.contains { $0.canMatchAny(of: set) }
        case .repetition(let node, _, _, _, _), .capture(let node, _):
            return node.canMatchAny(of: set)
        }
    }
}

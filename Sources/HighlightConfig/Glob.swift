// Glob patterns over '/'-separated relative paths.
//
//     *        any run of characters within one path segment
//     ?        one character, not '/'
//     **       as a whole segment: zero or more segments (`a/**/b`, `**/x`, `x/**`)
//     [abc]    one of the characters; [a-z] a range; [!a] or [^a] any but them
//     {a,b}    either alternative (may nest)
//     \x       x itself
//
// A glob is parsed into a tree and compiled once into a Thompson NFA over Unicode
// scalars; braces become an alternation in the NFA, never an expansion, so
// `{a,b}` repeated 30 times is 30 small alternations rather than 2^30 patterns.
// A path is matched in one pass over its scalars, carrying the set of live NFA
// states, so a match costs O(path × pattern) whatever the pattern's shape.
//
//     a/**/*.{c,h}   :   a / (X* /)* X* . ( c | h )        X = any scalar but '/'
//
// `**` as a whole segment becomes `(X*/)*` before a `/`, `(/X*)*` at the end after
// a `/`, and `.*` when it is the whole pattern. Only two stars written side by side
// make `**`: a star at the edge of a brace alternative does not join a star outside
// (`{a,*}*` is `a*` or `*`, where expanding first would have made `**`). An unclosed
// `[` or `{` is literal.
// Many globs at once (an ignore file) are matched by `GlobSet`.

/// A compiled glob; `matches(_:)` takes a relative path whose segments are separated by `/`.
public struct Glob: Sendable, Hashable {
    /// The pattern as written.
    public let pattern: String
    /// The compiled automaton.
    let nfa: GlobNFA
    /// Whether a path with no segments matches (only an empty pattern or `**` does).
    let matchesEmptyPath: Bool
    /// The parsed pattern, which `GlobSet` classifies.
    let tree: GlobNode

    /// Compiles `pattern`. A leading `/` is ignored (the pattern is relative to a root either way).
    ///
    /// - Complexity: O(pattern length); braces add one alternation each.
    public init(_ pattern: String) {
        self.pattern = pattern
        var text = Substring(pattern)
        while text.hasPrefix("/") { text = text.dropFirst() }
        var parser = GlobParser(scalars: Array(text.unicodeScalars))
        tree = parser.parsePattern()
        nfa = GlobNFA(tree, acceptIndex: 0)
        // Only a pattern of nothing but `**` segments matches the empty path (the root itself):
        // `*/*` needs two segments, even though its stars could each match nothing.
        matchesEmptyPath = text.split(separator: "/", omittingEmptySubsequences: true).allSatisfy { $0 == "**" }
    }

    /// Whether the relative path (segments separated by `/`) matches.
    ///
    /// - Complexity: O(p × s) in the pattern and path lengths.
    public func matches(_ path: String) -> Bool {
        let segments = path.split(separator: "/", omittingEmptySubsequences: true).map { Array($0.unicodeScalars) }
        return matches(segments: segments)
    }

    /// Whether the path, given as its segments, matches.
    package func matches(segments: ArraySlice<[Unicode.Scalar]>) -> Bool {
        guard !segments.isEmpty else { return matchesEmptyPath }
        return nfa.accepts(segments: segments)
    }

    /// Whether the path, given as its segments, matches.
    package func matches(segments: [[Unicode.Scalar]]) -> Bool {
        matches(segments: segments[...])
    }
}

// MARK: Parsing

/// A glob as a tree: sequences, alternations and the elements of a path.
indirect enum GlobNode: Sendable, Hashable {
    case sequence([GlobNode])
    case alternation([GlobNode])
    case scalar(Unicode.Scalar)
    case slash
    /// `?`: one scalar, not `/`.
    case anyCharacter
    /// `*`: any run of scalars, not `/`.
    case star
    /// `[...]`: one scalar in (or, negated, not in) the ranges, never `/`.
    case set([ClosedRange<Unicode.Scalar>], negated: Bool)
    /// `**/`: zero or more whole segments, each followed by `/`.
    case segmentsThenSlash
    /// `/**` at the end: zero or more `/`-led segments.
    case slashSegments
    /// `**` as the whole pattern: anything.
    case anything
}

/// Reads a glob's scalars into a `GlobNode` tree.
struct GlobParser {
    let scalars: [Unicode.Scalar]
    var index = 0

    /// The whole pattern; trailing slashes are dropped (`a/` is `a`).
    mutating func parsePattern() -> GlobNode {
        var items = parseSequence(inBraces: false, atBoundary: true)
        while items.last == .slash { items.removeLast() }
        // A trailing `**/` is a trailing `**` (`a/**/` is `a/**`, and `**/` matches everything).
        if items.last == .segmentsThenSlash {
            items.removeLast()
            if items.last == .slash {
                items.removeLast()
                items.append(.slashSegments)
            } else if items.isEmpty {
                items.append(.anything)
            } else {
                items.append(.star)
            }
        }
        return .sequence(items)
    }

    /// Items up to the end, or (in braces) up to a top-level `,` or `}`, which is left unread.
    private mutating func parseSequence(inBraces: Bool, atBoundary: Bool) -> [GlobNode] {
        var items: [GlobNode] = []
        /// Whether the next item starts a segment: at the pattern's start or after `/`.
        func startsSegment() -> Bool {
            guard let last = items.last else { return atBoundary }
            return last == .slash || last == .segmentsThenSlash
        }
        while index < scalars.count {
            let scalar = scalars[index]
            if inBraces && (scalar == "," || scalar == "}") { break }
            switch scalar {
            case "\\" where index + 1 < scalars.count:
                items.append(.scalar(scalars[index + 1]))
                index += 2
            case "/":
                // Repeated slashes are one (`a//b` is `a/b`), as segments never are empty.
                if !(items.last == .slash || items.last == .segmentsThenSlash) && !(items.isEmpty && atBoundary && !inBraces) {
                    items.append(.slash)
                }
                index += 1
            case "*":
                var end = index
                while end < scalars.count, scalars[end] == "*" { end += 1 }
                // Exactly two stars make `**`; three or more are a plain star, as before.
                let double = end - index == 2
                let atSegmentStart = startsSegment()
                index = end
                if double && atSegmentStart && index < scalars.count && scalars[index] == "/" {
                    index += 1
                    if items.last != .segmentsThenSlash { items.append(.segmentsThenSlash) }
                } else if double && atSegmentStart && index == scalars.count && !inBraces {
                    if items.last == .slash {
                        items.removeLast()
                        items.append(.slashSegments)
                    } else if items.isEmpty {
                        items.append(.anything)
                    } else {
                        items.append(.star)
                    }
                } else if items.last != .star {
                    // `**` inside a segment (`a**b`) is a plain star.
                    items.append(.star)
                }
            case "?":
                items.append(.anyCharacter)
                index += 1
            case "[":
                if let (set, next) = Self.parseClass(scalars, from: index) {
                    items.append(set)
                    index = next
                } else {
                    items.append(.scalar(scalar))
                    index += 1
                }
            case "{" where Self.hasAlternatives(scalars, from: index):
                let boundary = startsSegment()
                index += 1
                var branches: [GlobNode] = []
                while true {
                    branches.append(.sequence(parseSequence(inBraces: true, atBoundary: boundary)))
                    guard index < scalars.count else { break }
                    let separator = scalars[index]
                    index += 1
                    if separator == "}" { break }
                }
                items.append(.alternation(branches))
            default:
                items.append(.scalar(scalar))
                index += 1
            }
        }
        return items
    }

    /// Whether the `{` at `start` has a matching `}` with a `,` at its own depth (else it is literal).
    static func hasAlternatives(_ scalars: [Unicode.Scalar], from start: Int) -> Bool {
        var depth = 0
        var sawComma = false
        var index = start
        while index < scalars.count {
            switch scalars[index] {
            case "\\": index += 1
            case "[":
                if let (_, next) = parseClass(scalars, from: index) {
                    index = next
                    continue
                }
            case "{": depth += 1
            case "}":
                depth -= 1
                if depth == 0 { return sawComma }
            case "," where depth == 1: sawComma = true
            default: break
            }
            index += 1
        }
        return false
    }

    /// The class starting at the `[` at `start` and the index after its `]`, or nil when unclosed (`[]a]` contains `]`).
    static func parseClass(_ scalars: [Unicode.Scalar], from start: Int) -> (GlobNode, Int)? {
        var close = start + 1
        if close < scalars.count, scalars[close] == "!" || scalars[close] == "^" { close += 1 }
        if close < scalars.count, scalars[close] == "]" { close += 1 }
        while close < scalars.count, scalars[close] != "]" {
            close += scalars[close] == "\\" ? 2 : 1
        }
        guard close < scalars.count else { return nil }
        var cursor = start + 1
        var negated = false
        if scalars[cursor] == "!" || scalars[cursor] == "^" {
            negated = true
            cursor += 1
        }
        var ranges: [ClosedRange<Unicode.Scalar>] = []
        while cursor < close {
            var low = scalars[cursor]
            if low == "\\", cursor + 1 < close {
                cursor += 1
                low = scalars[cursor]
            }
            if cursor + 2 < close, scalars[cursor + 1] == "-" {
                let high = scalars[cursor + 2]
                if low <= high { ranges.append(low...high) }
                cursor += 3
            } else {
                ranges.append(low...low)
                cursor += 1
            }
        }
        return (.set(ranges, negated: negated), close + 1)
    }
}

// MARK: The automaton

/// One state of a glob NFA; ids are indices.
enum GlobState: Sendable, Hashable {
    case scalar(Unicode.Scalar, next: Int32)
    case set([ClosedRange<Unicode.Scalar>], negated: Bool, next: Int32)
    /// Any scalar but `/`.
    case anyButSlash(next: Int32)
    /// Any scalar.
    case any(next: Int32)
    /// Epsilon moves to every target.
    case split([Int32])
    /// The glob with this index matches here.
    case accept(Int)

    /// The state after consuming `scalar`, or nil when it does not consume it.
    @inline(__always)
    func next(after scalar: Unicode.Scalar) -> Int32? {
        switch self {
        case .scalar(let expected, let next): return expected == scalar ? next : nil
        case .set(let ranges, let negated, let next):
            guard scalar != "/" else { return nil }
            return ranges.contains { $0.contains(scalar) } != negated ? next : nil
        case .anyButSlash(let next): return scalar == "/" ? nil : next
        case .any(let next): return next
        case .split, .accept: return nil
        }
    }
}

/// A Thompson NFA over scalars for one glob or (in `GlobSet`) many.
struct GlobNFA: Sendable, Hashable {
    var states: [GlobState] = []
    var start: Int32 = 0

    /// Compiles `tree`; reaching the end of it accepts with `acceptIndex`.
    init(_ tree: GlobNode, acceptIndex: Int) {
        let accept = add(.accept(acceptIndex))
        start = compile(tree, next: accept)
    }

    /// An NFA whose start splits into every one of `trees` (tree i accepts with index `indices[i]`).
    init(trees: [(GlobNode, Int)]) {
        var starts: [Int32] = []
        for (tree, acceptIndex) in trees {
            let accept = add(.accept(acceptIndex))
            starts.append(compile(tree, next: accept))
        }
        start = add(.split(starts))
    }

    private mutating func add(_ state: GlobState) -> Int32 {
        states.append(state)
        return Int32(truncatingIfNeeded: states.count - 1)
    }

    /// Builds `node` backwards: returns its entry given the state that follows it.
    private mutating func compile(_ node: GlobNode, next: Int32) -> Int32 {
        switch node {
        case .sequence(let items):
            var current = next
            for item in items.reversed() { current = compile(item, next: current) }
            return current
        case .alternation(let branches):
            return add(.split(branches.map { compile($0, next: next) }))
        case .scalar(let scalar):
            return add(.scalar(scalar, next: next))
        case .slash:
            return add(.scalar("/", next: next))
        case .anyCharacter:
            return add(.anyButSlash(next: next))
        case .set(let ranges, let negated):
            return add(.set(ranges, negated: negated, next: next))
        case .star:
            return loop(next: next) { nfa, loop in nfa.add(.anyButSlash(next: loop)) }
        case .anything:
            return loop(next: next) { nfa, loop in nfa.add(.any(next: loop)) }
        case .segmentsThenSlash:
            // (X* /)*
            return loop(next: next) { nfa, loop in
                let slash = nfa.add(.scalar("/", next: loop))
                return nfa.compile(.star, next: slash)
            }
        case .slashSegments:
            // (/ X*)*
            return loop(next: next) { nfa, loop in
                let segment = nfa.compile(.star, next: loop)
                return nfa.add(.scalar("/", next: segment))
            }
        }
    }

    /// A loop state that prefers nothing: it splits into `body` (built with the loop as its continuation) and `next`.
    private mutating func loop(next: Int32, body: (inout GlobNFA, Int32) -> Int32) -> Int32 {
        let loop = add(.split([]))
        let entry = body(&self, loop)
        states[Int(loop)] = .split([entry, next])
        return loop
    }

    /// Adds the epsilon closure of `state` to `set` (consuming and accepting states only); `seen` marks visited states.
    func addClosure(of state: Int32, to set: inout [Int32], seen: inout [Bool]) {
        var stack = [state]
        while let current = stack.popLast() {
            let index = Int(current)
            guard states.indices.contains(index), !seen[index] else { continue }
            seen[index] = true
            if case .split(let targets) = states[index] {
                stack.append(contentsOf: targets.reversed())
            } else {
                set.append(current)
            }
        }
    }

    /// Whether the NFA accepts the segments joined by `/`.
    ///
    /// - Complexity: O(path scalars × states).
    func accepts(segments: ArraySlice<[Unicode.Scalar]>) -> Bool {
        var seen = [Bool](repeating: false, count: states.count)
        var current: [Int32] = []
        addClosure(of: start, to: &current, seen: &seen)
        var following: [Int32] = []
        func step(_ scalar: Unicode.Scalar) {
            following.removeAll(keepingCapacity: true)
            for index in seen.indices { seen[index] = false }
            for state in current {
                if let next = states[Int(state)].next(after: scalar) { addClosure(of: next, to: &following, seen: &seen) }
            }
            swap(&current, &following)
        }
        for (number, segment) in segments.enumerated() {
            if number > 0 { step("/") }
            for scalar in segment {
                step(scalar)
                if current.isEmpty { return false }
            }
        }
        return current.contains { if case .accept = states[Int($0)] { return true } else { return false } }
    }
}

// MARK: Many globs

/// Many globs matched together: which of them match a path.
///
/// As ripgrep's globset does, the common shapes of ignore patterns are looked up rather than run:
/// a literal name at any depth (`**/node_modules`, `.DS_Store`), a literal extension at any depth
/// (`*.log`, `**/*.tar.gz`) and a literal path (`/TODO.txt`) go into hash tables, so their cost per
/// path does not depend on how many there are. The other globs are run one by one, each in one
/// pass over the path.
public struct GlobSet: Sendable {
    /// Globs of the form `**/name` by name.
    private let names: [[Unicode.Scalar]: [Int]]
    /// Globs of the form `**/*suffix` (a literal suffix starting with `.`) by the suffix's last extension.
    private let suffixes: [[Unicode.Scalar]: [(suffix: [Unicode.Scalar], index: Int)]]
    /// Globs that are one literal path, by the path's scalars with `/` between segments.
    private let paths: [[Unicode.Scalar]: [Int]]
    /// The rest.
    private let others: [(index: Int, glob: Glob)]
    /// The number of globs.
    public let count: Int

    /// Classifies `globs`; indices in results are positions in this list.
    ///
    /// - Complexity: O(total pattern length).
    public init(_ globs: [Glob]) {
        var names: [[Unicode.Scalar]: [Int]] = [:]
        var suffixes: [[Unicode.Scalar]: [(suffix: [Unicode.Scalar], index: Int)]] = [:]
        var paths: [[Unicode.Scalar]: [Int]] = [:]
        var others: [(index: Int, glob: Glob)] = []
        for (index, glob) in globs.enumerated() {
            switch Self.shape(of: glob.tree) {
            case .name(let name): names[name, default: []].append(index)
            case .suffix(let suffix, let key): suffixes[key, default: []].append((suffix, index))
            case .path(let path): paths[path, default: []].append(index)
            case .other: others.append((index, glob))
            }
        }
        self.names = names
        self.suffixes = suffixes
        self.paths = paths
        self.others = others
        self.count = globs.count
    }

    /// The indices of the globs that match the path, ascending.
    ///
    /// - Complexity: O(path) for the looked-up globs, plus O(path × pattern) for each other glob.
    public func matchingIndices(segments: ArraySlice<[Unicode.Scalar]>) -> [Int] {
        guard let last = segments.last else {
            return others.filter { $0.glob.matchesEmptyPath }.map(\.index)
        }
        var result: [Int] = names[last] ?? []
        if let dot = last.lastIndex(of: "."), let candidates = suffixes[Array(last[(dot + 1)...])] {
            for candidate in candidates where last.count >= candidate.suffix.count && last.suffix(candidate.suffix.count).elementsEqual(candidate.suffix) {
                result.append(candidate.index)
            }
        }
        if !paths.isEmpty {
            var joined: [Unicode.Scalar] = []
            for (number, segment) in segments.enumerated() {
                if number > 0 { joined.append("/") }
                joined += segment
            }
            result += paths[joined] ?? []
        }
        for other in others where other.glob.matches(segments: segments) { result.append(other.index) }
        result.sort()
        return result
    }

    private enum Shape {
        case name([Unicode.Scalar])
        case suffix([Unicode.Scalar], key: [Unicode.Scalar])
        case path([Unicode.Scalar])
        case other
    }

    private static func shape(of tree: GlobNode) -> Shape {
        guard case .sequence(let items) = tree, !items.isEmpty else { return .other }
        func literal(_ items: ArraySlice<GlobNode>, allowingSlash: Bool) -> [Unicode.Scalar]? {
            var scalars: [Unicode.Scalar] = []
            for item in items {
                switch item {
                case .scalar(let scalar) where scalar != "/": scalars.append(scalar)
                case .slash where allowingSlash: scalars.append("/")
                default: return nil
                }
            }
            return scalars.isEmpty ? nil : scalars
        }
        if items[0] == .segmentsThenSlash {
            if let name = literal(items.dropFirst(), allowingSlash: false) { return .name(name) }
            if items.count >= 3, items[1] == .star, let suffix = literal(items.dropFirst(2), allowingSlash: false),
               suffix.first == ".", let dot = suffix.lastIndex(of: ".") {
                return .suffix(suffix, key: Array(suffix[(dot + 1)...]))
            }
            return .other
        }
        if let path = literal(items[...], allowingSlash: true), path.first != "/", path.last != "/" { return .path(path) }
        return .other
    }
}

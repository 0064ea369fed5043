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
// Many globs at once (an ignore file) are matched by `GlobSet`: the common shapes
// are looked up in hash tables, and all the others are branches of one NFA whose
// subset construction is built lazily (`GlobDFA`), so a path costs one step per
// scalar however many globs there are (see below).

import Synchronization

/// A compiled glob; `matches(_:)` takes a relative path whose segments are separated by `/`.
struct Glob: Sendable, Hashable {
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
    init(_ pattern: String) {
        self.pattern = pattern
        let parsed = ParsedGlob(pattern)
        tree = parsed.tree
        matchesEmptyPath = parsed.matchesEmptyPath
        nfa = GlobNFA(tree)
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

/// A glob parsed but not compiled: what `GlobSet`, which compiles many globs together, needs of each.
struct ParsedGlob: Sendable {
    let tree: GlobNode
    /// Whether a path with no segments matches.
    let matchesEmptyPath: Bool

    /// Parses `pattern`; a leading `/` is ignored.
    init(_ pattern: String) {
        var text = Substring(pattern)
        while text.hasPrefix("/") { text = text.dropFirst() }
        var parser = GlobParser(scalars: Array(text.unicodeScalars))
        tree = parser.parsePattern()
        // Only a pattern of nothing but `**` segments matches the empty path (the root itself):
        // `*/*` needs two segments, even though its stars could each match nothing.
        matchesEmptyPath = text.split(separator: "/", omittingEmptySubsequences: true).allSatisfy { $0 == "**" }
    }

    init(tree: GlobNode, matchesEmptyPath: Bool) {
        self.tree = tree
        self.matchesEmptyPath = matchesEmptyPath
    }
}

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
                    // `/**/**` at the end is `/**`: zero or more segments, after zero or more segments.
                    while items.last == .segmentsThenSlash { items.removeLast() }
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
    /// An epsilon move into the part of the automaton that belongs to one glob (in `GlobSet`): from here on the
    /// entries of `GlobDFA`'s sets carry its index, and that of a glob that matches files (-1 when it does not).
    case tag(any: Int32, files: Int32, next: Int32)
    /// The glob matches here.
    case accept

    /// Whether the state moves without consuming anything.
    var isEpsilon: Bool {
        switch self {
        case .split, .tag: return true
        default: return false
        }
    }

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
        case .split, .tag, .accept: return nil
        }
    }
}

/// A Thompson NFA over scalars for one glob or (in `GlobSet`) many.
///
/// In an automaton of many globs, states are shared: a state equal to one already built (same move, same
/// continuation) is that state, and so is a loop of the same kind before the same continuation. Globs that end
/// alike (`*foo*.h`, `[a-c]?*.h`) thus end in the same states, which is what keeps `GlobDFA`'s sets small: one entry
/// per distinct remainder, not per glob.
struct GlobNFA: Sendable, Hashable {
    var states: [GlobState] = []
    /// While compiling many globs: the states and loops built so far, to share them.
    private var sharing = false
    private var ids: [GlobState: Int32] = [:]
    private var loops: [LoopKey: Int32] = [:]
    /// The entry of the glob given to `init(_:)`.
    private(set) var start: Int32 = 0

    /// A loop's kind and continuation, which determine it.
    private struct LoopKey: Hashable {
        var kind: UInt8
        var next: Int32
    }

    /// Compiles one glob.
    init(_ tree: GlobNode) {
        start = compile(tree, next: intern(.accept))
    }

    /// Compiles many globs, each tagged with its indices (`GlobState.tag`), into one automaton entered at `start`.
    ///
    /// The globs' top-level items form a trie, so globs that begin alike share their states up to where they part
    /// (`*foo17*.tmp` and `*foo18*.tmp` share `*foo1`); each glob's tag stands there, and its remainder is built
    /// like any state, so globs that end alike share it too (`*.tmp`). A set of `GlobDFA` then holds one entry per
    /// distinct prefix or remainder that is alive, not one per glob.
    ///
    /// - Complexity: O(total items), expected (hashing).
    init(globs: [(tree: GlobNode, any: Int32, files: Int32)]) {
        sharing = true
        defer {
            sharing = false
            ids = [:]
            loops = [:]
        }
        let accept = intern(.accept)
        let sequences = globs.map { glob -> [GlobNode] in
            if case .sequence(let items) = glob.tree { return items }
            return [glob.tree]
        }
        // The trie of items: node 0 is the root; a child always has a higher number than its parent.
        var children: [[GlobNode: Int]] = [[:]]
        var item: [GlobNode?] = [nil]
        var globCount: [Int] = [0]
        for items in sequences {
            var node = 0
            globCount[0] += 1
            for element in items {
                if let child = children[node][element] {
                    node = child
                } else {
                    let child = children.count
                    children[node][element] = child
                    children.append([:])
                    item.append(element)
                    globCount.append(0)
                    node = child
                }
                globCount[node] += 1
            }
        }
        // Each glob parts from the others at the first node only it reaches (or at its end): its tagged remainder
        // starts at that node's parent.
        var tagged: [[Int32]] = Array(repeating: [], count: children.count)
        for (index, items) in sequences.enumerated() {
            var node = 0, depth = 0
            while depth < items.count, let child = children[node][items[depth]], globCount[child] > 1 {
                node = child
                depth += 1
            }
            let remainder = compile(.sequence(Array(items[depth...])), next: accept)
            let glob = globs[index]
            tagged[node].append(intern(.tag(any: glob.any, files: glob.files, next: remainder)))
        }
        // Entries in the reverse order of the nodes' making (a child is made after its parent), so that every
        // shared child's entry exists before its parent's; nodes only one glob reaches need none.
        var entries = [Int32](repeating: 0, count: children.count)
        for node in stride(from: children.count - 1, through: 0, by: -1) where node == 0 || globCount[node] > 1 {
            var targets = tagged[node]
            for child in children[node].values where globCount[child] > 1 {
                if let element = item[child] { targets.append(compile(element, next: entries[child])) }
            }
            entries[node] = targets.count == 1 ? targets[0] : intern(.split(targets.sorted()))
        }
        start = entries[0]
    }

    private mutating func intern(_ state: GlobState) -> Int32 {
        if sharing, let known = ids[state] { return known }
        let id = Int32(truncatingIfNeeded: states.count)
        states.append(state)
        if sharing { ids[state] = id }
        return id
    }

    /// Builds `node` backwards: returns its entry given the state that follows it.
    private mutating func compile(_ node: GlobNode, next: Int32) -> Int32 {
        switch node {
        case .sequence(let items):
            var current = next
            for item in items.reversed() { current = compile(item, next: current) }
            return current
        case .alternation(let branches):
            return intern(.split(branches.map { compile($0, next: next) }))
        case .scalar(let scalar):
            return intern(.scalar(scalar, next: next))
        case .slash:
            return intern(.scalar("/", next: next))
        case .anyCharacter:
            return intern(.anyButSlash(next: next))
        case .set(let ranges, let negated):
            return intern(.set(ranges, negated: negated, next: next))
        case .star:
            return loop(kind: 0, next: next) { nfa, loop in nfa.intern(.anyButSlash(next: loop)) }
        case .anything:
            return loop(kind: 1, next: next) { nfa, loop in nfa.intern(.any(next: loop)) }
        case .segmentsThenSlash:
            // (X* /)*
            return loop(kind: 2, next: next) { nfa, loop in
                let slash = nfa.intern(.scalar("/", next: loop))
                return nfa.compile(.star, next: slash)
            }
        case .slashSegments:
            // (/ X*)*
            return loop(kind: 3, next: next) { nfa, loop in
                let segment = nfa.compile(.star, next: loop)
                return nfa.intern(.scalar("/", next: segment))
            }
        }
    }

    /// A loop state that prefers nothing: it splits into `body` (built with the loop as its continuation) and `next`.
    private mutating func loop(kind: UInt8, next: Int32, body: (inout GlobNFA, Int32) -> Int32) -> Int32 {
        let key = LoopKey(kind: kind, next: next)
        if sharing, let known = loops[key] { return known }
        // The loop's own state is filled in once its body exists; it is not interned, so no other state is taken
        // for the placeholder.
        let loop = Int32(truncatingIfNeeded: states.count)
        states.append(.split([]))
        if sharing { loops[key] = loop }
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
            } else if case .tag(_, _, let next) = states[index] {
                stack.append(next)
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
        return current.contains { states[Int($0)] == .accept }
    }
}

// MARK: Many globs

/// Many globs matched together, for ignore files: the last of them (highest index) that matches a path.
///
/// As ripgrep's globset does, the common shapes of ignore patterns are looked up rather than run:
/// a literal name at any depth (`**/node_modules`, `.DS_Store`), a literal extension at any depth
/// (`*.log`, `**/*.tar.gz`) and a literal path (`/TODO.txt`) go into hash tables. Every other glob is
/// a branch of one of two automata (`GlobDFA`), built lazily as paths are matched: globs that match a
/// name at any depth (`**/` and no other `/`: `*foo*.tmp`, `[a-c]?*.h`) are run on the last segment
/// only, the rest (`src/**/gen_*.c`, `build-*/out`) on the whole path. A state of an automaton holds
/// each distinct remainder of a glob once, with the highest index that reached it, so it stays small
/// however many globs end alike, and a path costs one table lookup per scalar once the states it
/// reaches are built, whatever the number of globs.
///
///     globs      *foo*.tmp  [a-c]?*.h   src/**/gen_*.c   *.log
///     into       the name automaton     the path one     extension "log" (hash table)
///     path       src/x/gen_parser.c  ->  name "gen_parser.c", then the path  ->  src/**/gen_*.c
///
/// Only the highest index is answered, not every glob that matches: thousands of globs can match one
/// path, and listing them would cost what running them one by one costs.
public struct GlobSet: Sendable {
    /// The highest matching index, and the highest among the globs that match files too.
    private typealias Best = (any: Int, files: Int)
    /// Globs of the form `**/name`, by name.
    private let names: [[Unicode.Scalar]: Best]
    /// Globs of the form `**/*suffix` (a literal suffix starting with `.`) by the suffix's last extension.
    private let suffixes: [[Unicode.Scalar]: [(suffix: [Unicode.Scalar], index: Int)]]
    /// Globs that are one literal path, by the path's scalars with `/` between segments.
    private let paths: [[Unicode.Scalar]: Best]
    /// Globs that match a name at any depth, without their leading `**/`, run on the last segment.
    private let nameAutomaton: GlobDFA?
    /// Every other glob, run on the whole path.
    private let pathAutomaton: GlobDFA?
    /// The globs that match the empty path (only `**` and the like do).
    private let emptyPath: Best
    /// Per glob: whether it matches directories only.
    private let directoryOnly: [Bool]
    /// The number of globs.
    public let count: Int

    /// Classifies `globs`; indices in results are positions in this list. A glob whose `directoryOnly` entry is
    /// true matches directories only (an ignore file's `build/`). `cacheLimit` bounds each automaton's cache.
    ///
    /// - Complexity: O(total pattern length), expected (hashing).
    init(_ globs: [Glob], directoryOnly: [Bool] = [], cacheLimit: Int = GlobDFA.defaultCacheLimit) {
        self.init(parsed: globs.map { ParsedGlob(tree: $0.tree, matchesEmptyPath: $0.matchesEmptyPath) }, directoryOnly: directoryOnly,
                  cacheLimit: cacheLimit)
    }

    /// The set of `patterns` (as `Glob` reads them), parsed and compiled only together: each glob's own automaton
    /// is never built.
    public init(patterns: [String], directoryOnly: [Bool] = [], cacheLimit: Int = GlobDFA.defaultCacheLimit) {
        self.init(parsed: patterns.map(ParsedGlob.init), directoryOnly: directoryOnly, cacheLimit: cacheLimit)
    }

    private init(parsed globs: [ParsedGlob], directoryOnly: [Bool], cacheLimit: Int) {
        let directoryOnly = globs.indices.map { directoryOnly.indices.contains($0) && directoryOnly[$0] }
        func better(_ best: Best?, _ index: Int) -> Best {
            let current = best ?? (-1, -1)
            return (max(current.any, index), directoryOnly[index] ? current.files : max(current.files, index))
        }
        var names: [[Unicode.Scalar]: Best] = [:]
        var suffixes: [[Unicode.Scalar]: [(suffix: [Unicode.Scalar], index: Int)]] = [:]
        var paths: [[Unicode.Scalar]: Best] = [:]
        var nameGlobs: [(tree: GlobNode, any: Int32, files: Int32)] = [], pathGlobs = nameGlobs
        var emptyPath: Best = (-1, -1)
        for (index, glob) in globs.enumerated() {
            let tagged = { (tree: GlobNode) in
                (tree, Int32(truncatingIfNeeded: index), directoryOnly[index] ? Int32(-1) : Int32(truncatingIfNeeded: index))
            }
            switch Self.shape(of: glob.tree) {
            case .name(let name): names[name] = better(names[name], index)
            case .suffix(let suffix, let key): suffixes[key, default: []].append((suffix, index))
            case .path(let path): paths[path] = better(paths[path], index)
            case .nameAtAnyDepth(let rest): nameGlobs.append(tagged(rest))
            case .other:
                pathGlobs.append(tagged(glob.tree))
                if glob.matchesEmptyPath { emptyPath = better(emptyPath, index) }
            }
        }
        self.names = names
        self.suffixes = suffixes
        self.paths = paths
        self.nameAutomaton = nameGlobs.isEmpty ? nil : GlobDFA(GlobNFA(globs: nameGlobs), cacheLimit: cacheLimit)
        self.pathAutomaton = pathGlobs.isEmpty ? nil : GlobDFA(GlobNFA(globs: pathGlobs), cacheLimit: cacheLimit)
        self.emptyPath = emptyPath
        self.directoryOnly = directoryOnly
        self.count = globs.count
    }

    /// The highest index of a glob that matches the path, leaving out directory-only globs unless the path is a
    /// directory; nil when none does.
    ///
    /// - Complexity: O(path) expected: a hash lookup per table and one automaton step per scalar, plus, the
    ///   first time a path reaches an automaton state, O(NFA states) to build it.
    public func lastMatch(segments: ArraySlice<[Unicode.Scalar]>, isDirectory: Bool) -> Int? {
        var best = -1
        func consider(_ found: Best?) {
            guard let found else { return }
            best = max(best, isDirectory ? found.any : found.files)
        }
        guard let last = segments.last else {
            consider(emptyPath)
            return best >= 0 ? best : nil
        }
        consider(names[last])
        if let dot = last.lastIndex(of: "."), let candidates = suffixes[Array(last[(dot + 1)...])] {
            for candidate in candidates where candidate.index > best && (isDirectory || !directoryOnly[candidate.index])
                && last.count >= candidate.suffix.count && last.suffix(candidate.suffix.count).elementsEqual(candidate.suffix) {
                best = candidate.index
            }
        }
        if !paths.isEmpty {
            var joined: [Unicode.Scalar] = []
            for (number, segment) in segments.enumerated() {
                if number > 0 { joined.append("/") }
                joined += segment
            }
            consider(paths[joined])
        }
        if let nameAutomaton { consider(nameAutomaton.best(segments: segments.suffix(1))) }
        if let pathAutomaton { consider(pathAutomaton.best(segments: segments)) }
        return best >= 0 ? best : nil
    }

    private enum Shape {
        case name([Unicode.Scalar])
        case suffix([Unicode.Scalar], key: [Unicode.Scalar])
        case path([Unicode.Scalar])
        /// `**/` and then a pattern without `/`: it matches the last segment, at any depth.
        case nameAtAnyDepth(GlobNode)
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
            let rest = GlobNode.sequence(Array(items.dropFirst()))
            if items.count > 1, !crossesSegments(rest) { return .nameAtAnyDepth(rest) }
            return .other
        }
        if let path = literal(items[...], allowingSlash: true), path.first != "/", path.last != "/" { return .path(path) }
        return .other
    }

    /// Whether the pattern can match a `/`, so that it may span segments.
    private static func crossesSegments(_ node: GlobNode) -> Bool {
        switch node {
        case .sequence(let items), .alternation(let items): return items.contains(where: crossesSegments)
        case .scalar(let scalar): return scalar == "/"
        case .slash, .segmentsThenSlash, .slashSegments, .anything: return true
        case .anyCharacter, .star, .set: return false
        }
    }
}

/// The subset construction of a glob NFA, built lazily: each state is a set of NFA states, made the first time a
/// path reaches it, and remembers the best glob that accepts there and where each scalar leads.
///
/// Each NFA state in a set carries the highest index of the globs that reached it through their tags (and the
/// highest of those that match files too): the NFA shares states between globs that end alike, and two globs in
/// the same NFA state match the same rest of the path, so only the higher one can decide. A set thus holds each
/// distinct remainder once; states before any tag (the shared beginnings) carry -1.
///
/// States live in a cache shared by every thread that matches (behind a lock: a step is a table lookup, and a
/// path is a few dozen steps). When the cache holds more than `cacheLimit` entries it is emptied before the next
/// path, as RE2's DFA does, so memory stays bounded whatever the globs; a path then costs at most one state built
/// per scalar, each O(NFA states), which is the NFA simulation's own bound.
public final class GlobDFA: Sendable {
    private let nfa: GlobNFA
    private let cache: Mutex<GlobDFACache>
    /// The most entries (of four bytes) the cache keeps across paths.
    private let cacheLimit: Int
    /// 4 Mi entries: 16 MiB of sets and tables at most, far more than the states real ignore files reach.
    public static let defaultCacheLimit = 1 << 22

    init(_ nfa: GlobNFA, cacheLimit: Int) {
        self.nfa = nfa
        self.cacheLimit = cacheLimit
        cache = Mutex(GlobDFACache(stateCount: nfa.states.count))
    }

    /// The highest index of a glob that matches the non-empty path, and the highest among those that match files.
    func best(segments: ArraySlice<[Unicode.Scalar]>) -> (any: Int, files: Int) {
        cache.withLock { cache in
            if cache.entryCount > cacheLimit { cache = GlobDFACache(stateCount: nfa.states.count) }
            var state = cache.start(of: nfa)
            for (number, segment) in segments.enumerated() {
                if number > 0 { state = cache.next(after: "/", from: state, in: nfa) }
                for scalar in segment {
                    if state == GlobDFACache.dead { return (-1, -1) }
                    state = cache.next(after: scalar, from: state, in: nfa)
                }
            }
            return cache.accepted(state)
        }
    }
}

/// The states built so far by a `GlobDFA`.
struct GlobDFACache: Sendable {
    /// The state with no NFA states left: nothing can match any more.
    static let dead: Int32 = 0
    /// Unknown transitions in `asciiNext`.
    private static let unknown: Int32 = -1

    /// Each state's entries, three numbers each: NFA state (ascending), highest index, highest index of a glob that
    /// matches files (-1 for none); and the state of each such list.
    private var sets: [[Int32]] = [[]]
    private var ids: [[Int32]: Int32] = [[]: 0]
    /// Each state's best accepting indices, two numbers each (any, files).
    private var accepts: [Int32] = [-1, -1]
    /// Transitions on ASCII scalars: state × 128 + scalar; other scalars in `otherNext`.
    private var asciiNext = [Int32](repeating: GlobDFACache.unknown, count: 128)
    private var otherNext: [UInt64: Int32] = [:]
    private var startState: Int32?
    /// The numbers held in sets and tables, the cache's size.
    private(set) var entryCount = 0
    /// Scratch for building a set: per NFA state, whether the set being built has reached it (`inSet == generation`)
    /// and its best indices.
    private var inSet: [UInt32]
    private var bestAny: [Int32]
    private var bestFiles: [Int32]
    private var members: [Int32] = []
    private var stack: [(state: Int32, any: Int32, files: Int32)] = []
    private var generation: UInt32 = 0

    init(stateCount: Int) {
        inSet = [UInt32](repeating: 0, count: stateCount)
        bestAny = [Int32](repeating: -1, count: stateCount)
        bestFiles = [Int32](repeating: -1, count: stateCount)
    }

    /// The best accepting indices of `state`.
    func accepted(_ state: Int32) -> (any: Int, files: Int) {
        (Int(accepts[Int(state) &* 2]), Int(accepts[Int(state) &* 2 &+ 1]))
    }

    /// The state of the empty path: the closure of the NFA's start.
    mutating func start(of nfa: GlobNFA) -> Int32 {
        if let startState { return startState }
        beginSet()
        addClosure(of: nfa.start, any: -1, files: -1, in: nfa)
        let state = internSet(in: nfa)
        startState = state
        return state
    }

    /// The state after `scalar` from `state`, built if this is the first time.
    mutating func next(after scalar: Unicode.Scalar, from state: Int32, in nfa: GlobNFA) -> Int32 {
        let ascii = scalar.value < 128
        let key = ascii ? Int(state) &* 128 &+ Int(scalar.value) : 0
        let otherKey = UInt64(UInt32(bitPattern: state)) << 32 | UInt64(scalar.value)
        if ascii {
            let known = asciiNext[key]
            if known != Self.unknown { return known }
        } else if let known = otherNext[otherKey] {
            return known
        }
        beginSet()
        let entries = sets[Int(state)]
        var position = 0
        while position + 2 < entries.count {
            if let target = nfa.states[Int(entries[position])].next(after: scalar) {
                addClosure(of: target, any: entries[position + 1], files: entries[position + 2], in: nfa)
            }
            position += 3
        }
        let target = internSet(in: nfa)
        if ascii { asciiNext[key] = target } else { otherNext[otherKey] = target }
        return target
    }

    private mutating func beginSet() {
        members.removeAll(keepingCapacity: true)
        generation &+= 1
        if generation == 0 {
            for index in inSet.indices { inSet[index] = 0 }
            generation = 1
        }
    }

    /// Adds the epsilon closure of `state` (its consuming and accepting states) to the set being built, each with
    /// at least the indices given, or those of the tag on the way. A state reached again is passed on again only
    /// when it now carries a higher index, so the closure ends, and every state holds the best of all its ways in.
    private mutating func addClosure(of state: Int32, any: Int32, files: Int32, in nfa: GlobNFA) {
        stack.removeAll(keepingCapacity: true)
        stack.append((state, any, files))
        while let (current, reachedAny, reachedFiles) = stack.popLast() {
            let index = Int(current)
            guard nfa.states.indices.contains(index) else { continue }
            var any = reachedAny, files = reachedFiles
            if inSet[index] == generation {
                guard any > bestAny[index] || files > bestFiles[index] else { continue }
                any = max(any, bestAny[index])
                files = max(files, bestFiles[index])
            } else {
                inSet[index] = generation
                if !nfa.states[index].isEpsilon { members.append(current) }
            }
            bestAny[index] = any
            bestFiles[index] = files
            switch nfa.states[index] {
            case .split(let targets):
                for target in targets { stack.append((target, any, files)) }
            case .tag(let taggedAny, let taggedFiles, let next):
                stack.append((next, taggedAny, taggedFiles))
            default:
                break
            }
        }
    }

    /// The state of the set just built, made when new.
    private mutating func internSet(in nfa: GlobNFA) -> Int32 {
        members.sort()
        var entries: [Int32] = []
        entries.reserveCapacity(members.count * 3)
        var acceptAny: Int32 = -1, acceptFiles: Int32 = -1
        for member in members {
            let index = Int(member)
            entries.append(member)
            entries.append(bestAny[index])
            entries.append(bestFiles[index])
            if nfa.states[index] == .accept {
                acceptAny = max(acceptAny, bestAny[index])
                acceptFiles = max(acceptFiles, bestFiles[index])
            }
        }
        if let known = ids[entries] { return known }
        let state = Int32(truncatingIfNeeded: sets.count)
        sets.append(entries)
        ids[entries] = state
        accepts.append(acceptAny)
        accepts.append(acceptFiles)
        asciiNext.append(contentsOf: repeatElement(Self.unknown, count: 128))
        entryCount += entries.count + 130
        return state
    }
}

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
// are looked up in hash tables, and each other glob is run only when a literal
// it requires occurs in the path, found for all of them in one pass (see below).

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
/// path does not depend on how many there are. Every other glob that contains literal text
/// (`*foo*.tmp`, `build-*`, `src/**/gen_*.c`) is filed under one of its literal runs, the one
/// fewest globs share (`gen_` rather than `.c`); one pass of an Aho-Corasick automaton over the path
/// finds which of those runs occur, and only the globs filed under them are run. A glob that can
/// match a path contains each of its literal runs there, so none is missed. Globs without any
/// literal (`*`, `[a-z]?*`) are run one by one.
///
///     globs      *foo*.tmp   build-*/   src/**/gen_*.c   *.log
///     filed by   "foo"       "build-"   "gen_"           extension "log" (hash table)
///     path       src/x/gen_parser.c  ->  the automaton sees "gen_"  ->  run src/**/gen_*.c only
public struct GlobSet: Sendable {
    /// Globs of the form `**/name` by name.
    private let names: [[Unicode.Scalar]: [Int]]
    /// Globs of the form `**/*suffix` (a literal suffix starting with `.`) by the suffix's last extension.
    private let suffixes: [[Unicode.Scalar]: [(suffix: [Unicode.Scalar], index: Int)]]
    /// Globs that are one literal path, by the path's scalars with `/` between segments.
    private let paths: [[Unicode.Scalar]: [Int]]
    /// Globs filed under a literal run, by the run's id in `literals`.
    private let filed: [[(index: Int, glob: Glob)]]
    /// The literal runs of `filed`, found in a path in one pass.
    private let literals: GlobLiteralScanner
    /// Globs without literal text, run one by one.
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
        var rest: [(index: Int, glob: Glob, runs: [[Unicode.Scalar]])] = []
        // How many of the remaining globs contain each literal run, to file each under its rarest.
        var globsWithRun: [[Unicode.Scalar]: Int] = [:]
        for (index, glob) in globs.enumerated() {
            switch Self.shape(of: glob.tree) {
            case .name(let name): names[name, default: []].append(index)
            case .suffix(let suffix, let key): suffixes[key, default: []].append((suffix, index))
            case .path(let path): paths[path, default: []].append(index)
            case .other:
                let runs = Self.literalRuns(of: glob.tree)
                for run in Set(runs) { globsWithRun[run, default: 0] += 1 }
                rest.append((index, glob, runs))
            }
        }
        var runIDs: [[Unicode.Scalar]: Int] = [:]
        var runs: [[Unicode.Scalar]] = []
        var filed: [[(index: Int, glob: Glob)]] = []
        var others: [(index: Int, glob: Glob)] = []
        for entry in rest {
            let chosen = entry.runs.min { first, second in
                let (firstCount, secondCount) = (globsWithRun[first] ?? 0, globsWithRun[second] ?? 0)
                return firstCount != secondCount ? firstCount < secondCount : first.count > second.count
            }
            guard let chosen else {
                others.append((entry.index, entry.glob))
                continue
            }
            let id: Int
            if let existing = runIDs[chosen] {
                id = existing
            } else {
                id = runs.count
                runIDs[chosen] = id
                runs.append(chosen)
                filed.append([])
            }
            filed[id].append((entry.index, entry.glob))
        }
        self.names = names
        self.suffixes = suffixes
        self.paths = paths
        self.filed = filed
        self.literals = GlobLiteralScanner(runs)
        self.others = others
        self.count = globs.count
    }

    /// The maximal runs of literal scalars (and `/`) in the glob's top-level sequence: any path the glob matches
    /// contains each of them, in the path's text with `/` between segments.
    static func literalRuns(of tree: GlobNode) -> [[Unicode.Scalar]] {
        guard case .sequence(let items) = tree else { return [] }
        var runs: [[Unicode.Scalar]] = []
        var current: [Unicode.Scalar] = []
        for item in items {
            switch item {
            case .scalar(let scalar): current.append(scalar)
            case .slash: current.append("/")
            default:
                if !current.isEmpty { runs.append(current) }
                current = []
            }
        }
        if !current.isEmpty { runs.append(current) }
        return runs
    }

    /// The indices of the globs that match the path, ascending.
    ///
    /// - Complexity: O(path) for the looked-up globs and the literal pass, plus O(path × pattern) for each glob
    ///   filed under a literal that occurs in the path and for each glob without literals.
    public func matchingIndices(segments: ArraySlice<[Unicode.Scalar]>) -> [Int] {
        guard let last = segments.last else {
            // Only a glob of nothing but `**` segments matches the empty path, and it has no literal.
            return others.filter { $0.glob.matchesEmptyPath }.map(\.index)
        }
        var result: [Int] = names[last] ?? []
        if let dot = last.lastIndex(of: "."), let candidates = suffixes[Array(last[(dot + 1)...])] {
            for candidate in candidates where last.count >= candidate.suffix.count && last.suffix(candidate.suffix.count).elementsEqual(candidate.suffix) {
                result.append(candidate.index)
            }
        }
        if !paths.isEmpty || !filed.isEmpty {
            var joined: [Unicode.Scalar] = []
            for (number, segment) in segments.enumerated() {
                if number > 0 { joined.append("/") }
                joined += segment
            }
            result += paths[joined] ?? []
            if !filed.isEmpty {
                for id in literals.runsOccurring(in: joined) {
                    for candidate in filed[id] where candidate.glob.matches(segments: segments) { result.append(candidate.index) }
                }
            }
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

/// Which of many literal runs occur in a text: an Aho-Corasick automaton over scalars that reports every
/// occurrence, overlapping ones included, in one pass.
struct GlobLiteralScanner: Sendable {
    /// (node << 32 | scalar) -> child node; node 0 is the root.
    private let children: [UInt64: Int32]
    /// The longest proper suffix of each node's text that is also a node.
    private let failure: [Int32]
    /// The run that ends exactly at each node, or -1.
    private let run: [Int32]
    /// The nearest node on the failure chain (itself excluded) where a run ends, or -1.
    private let outputLink: [Int32]

    /// Builds the automaton of `runs`; ids in results are positions in this list.
    ///
    /// - Complexity: O(total run length), expected (hashing).
    init(_ runs: [[Unicode.Scalar]]) {
        var children: [UInt64: Int32] = [:]
        var parent: [Int32] = [0]
        var scalarOf: [UInt32] = [0]
        var depth: [Int] = [0]
        var run: [Int32] = [-1]
        for (id, text) in runs.enumerated() {
            var node: Int32 = 0
            for scalar in text {
                let key = UInt64(UInt32(bitPattern: node)) << 32 | UInt64(scalar.value)
                if let child = children[key] {
                    node = child
                } else {
                    let child = Int32(truncatingIfNeeded: parent.count)
                    children[key] = child
                    parent.append(node)
                    scalarOf.append(scalar.value)
                    depth.append(depth[Int(node)] + 1)
                    run.append(-1)
                    node = child
                }
            }
            run[Int(node)] = Int32(truncatingIfNeeded: id)
        }
        // Failure links in order of depth, so a node's parent (and every shorter suffix) is done first.
        let count = parent.count
        var byDepth = [[Int32]](repeating: [], count: (depth.max() ?? 0) + 1)
        for node in 1..<max(count, 1) { byDepth[depth[node]].append(Int32(truncatingIfNeeded: node)) }
        var failure = [Int32](repeating: 0, count: count)
        var outputLink = [Int32](repeating: -1, count: count)
        for level in byDepth.dropFirst() {
            for node in level {
                let index = Int(node)
                let from = parent[index]
                if from != 0 {
                    var candidate = failure[Int(from)]
                    while true {
                        let key = UInt64(UInt32(bitPattern: candidate)) << 32 | UInt64(scalarOf[index])
                        if let next = children[key] {
                            failure[index] = next
                            break
                        }
                        if candidate == 0 { break }
                        candidate = failure[Int(candidate)]
                    }
                }
                let fail = Int(failure[index])
                outputLink[index] = run[fail] >= 0 ? Int32(truncatingIfNeeded: fail) : outputLink[fail]
            }
        }
        self.children = children
        self.failure = failure
        self.run = run
        self.outputLink = outputLink
    }

    /// The ids of the runs that occur in `text`, each once, ascending.
    ///
    /// - Complexity: O(text + occurrences), expected.
    func runsOccurring(in text: [Unicode.Scalar]) -> [Int] {
        var found: [Int] = []
        var node: Int32 = 0
        for scalar in text {
            while true {
                let key = UInt64(UInt32(bitPattern: node)) << 32 | UInt64(scalar.value)
                if let next = children[key] {
                    node = next
                    break
                }
                if node == 0 { break }
                node = failure[Int(node)]
            }
            var output = run[Int(node)] >= 0 ? node : outputLink[Int(node)]
            while output >= 0 {
                found.append(Int(run[Int(output)]))
                output = outputLink[Int(output)]
            }
        }
        guard found.count > 1 else { return found }
        found.sort()
        var unique: [Int] = []
        unique.reserveCapacity(found.count)
        for id in found where unique.last != id { unique.append(id) }
        return unique
    }
}

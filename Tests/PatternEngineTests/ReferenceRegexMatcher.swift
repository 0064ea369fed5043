// Deliberately simple matchers used only as test oracles.
//
// Leftmost-longest: for each start position in turn it computes the set of
// positions where the pattern can end, by recursion over the syntax tree on
// sets of positions (concatenation composes, alternation unions, repetition
// iterates to a fixed point). It shares the parser with the real engines but
// none of the automata.
//
// Leftmost-first: for each start in turn, a depth-first backtracking search
// over the NFA in priority order (union targets as listed), which never
// explores the same (state, position) twice: the first visit had a higher
// priority and, had it led to a match, would have ended the search (RE2's
// "bit state" argument). The first non-empty match reached is the answer. It
// shares the parser and the NFA compiler with the real engines, but neither
// the Pike VM's thread lists nor the DFA; RE2 itself is the independent
// oracle (Tests/re2). Both run in polynomial time, fine for test inputs.

import UTF8Decoding

@testable import PatternEngine

/// A simple, obviously correct matcher with the same semantics as `CompiledRegex.firstMatch`, for tests.
enum ReferenceRegexMatcher {
    /// The leftmost non-empty match starting at or after `from`, chosen among those at its start by the regex's match kind.
    ///
    /// - Complexity: polynomial (roughly O(n^3 x pattern size)); for tests only.
    static func firstMatch(_ regex: CompiledRegex, in text: [UInt8], from: Int) -> Range<Int>? {
        switch regex.matchKind {
        case .leftmostFirst: return firstMatchByBacktracking(regex, in: text, from: from)
        case .leftmostLongest: return longestMatch(regex, in: text, from: from)
        }
    }

    /// The leftmost-first, non-empty match starting at or after `from`, by backtracking over the NFA.
    private static func firstMatchByBacktracking(_ regex: CompiledRegex, in text: [UInt8], from: Int) -> Range<Int>? {
        var meter = CompileMeter.unlimited
        guard let nfa = try? NFACompiler.compile(regex.program.syntax, reverse: false, includeCaptures: false, meter: &meter) else {
            return nil
        }
        return text.withUnsafeBufferPointer { buffer in
            var start = max(from, 0)
            while start < buffer.count {
                var visited = Set<Int>()
                var stack: [(state: Int32, position: Int)] = [(nfa.start, start)]
                while let (state, position) = stack.popLast() {
                    guard visited.insert(Int(state) &* (buffer.count + 1) &+ position).inserted else { continue }
                    switch nfa.states[Int(state)] {
                    case .union(let targets):
                        stack.append(contentsOf: targets.reversed().map { ($0, position) })
                    case .look(let kind, let next):
                        if kind.holds(left: SideClass.before(position, in: buffer), right: SideClass.after(position, in: buffer)) {
                            stack.append((next, position))
                        }
                    case .capture(_, let next):
                        stack.append((next, position))
                    case .bytes(let transition):
                        if position < buffer.count, transition.low <= buffer[position], buffer[position] <= transition.high {
                            stack.append((transition.next, position + 1))
                        }
                    case .sparse(let transitions):
                        guard position < buffer.count else { break }
                        for transition in transitions.reversed()
                        where transition.low <= buffer[position] && buffer[position] <= transition.high {
                            stack.append((transition.next, position + 1))
                        }
                    case .match:
                        if position > start { return start..<position }
                    case .fail:
                        break
                    }
                }
                start += 1
            }
            return nil
        }
    }

    /// The leftmost, then longest, non-empty match starting at or after `from`.
    private static func longestMatch(_ regex: CompiledRegex, in text: [UInt8], from: Int) -> Range<Int>? {
        text.withUnsafeBufferPointer { buffer in
            let root = regex.program.syntax.root
            var start = max(from, 0)
            while start < buffer.count {
                let ends = endPositions(root, from: [start], in: buffer)
                if let end = ends.filter({ $0 > start }).max() {
                    return start..<end
                }
                start += 1
            }
            return nil
        }
    }

    /// Every position where `node` can end when it starts at any of `positions`.
    private static func endPositions(_ node: RegexNode, from positions: Set<Int>, in text: UnsafeBufferPointer<UInt8>) -> Set<Int> {
        switch node {
        case .empty:
            return positions
        case .look(let kind):
            return positions.filter { position in
                kind.holds(left: SideClass.before(position, in: text), right: SideClass.after(position, in: text))
            }
        case .scalars(let set):
            var result = Set<Int>()
            for position in positions {
                guard let value = UTF8Decoding.scalar(at: position, in: text)?.scalar.value, set.contains(value) else { continue }
                result.insert(position + UTF8Sequences.encodedLength(value))
            }
            return result
        case .concat(let parts):
            var current = positions
            for part in parts {
                current = endPositions(part, from: current, in: text)
            }
            return current
        case .alternation(let branches):
            var result = Set<Int>()
            for branch in branches {
                result.formUnion(endPositions(branch, from: positions, in: text))
            }
            return result
        case .capture(let inner, _):
            return endPositions(inner, from: positions, in: text)
        case .repetition(let inner, let minimum, let maximum, _, _):
            var current = positions
            for _ in 0..<minimum {
                current = endPositions(inner, from: current, in: text)
            }
            var result = current
            var frontier = current
            var remaining = maximum.map { $0 - minimum } ?? Int.max
            while remaining > 0 && !frontier.isEmpty {
                let next = endPositions(inner, from: frontier, in: text)
                frontier = next.subtracting(result)
                result.formUnion(next)
                remaining -= 1
            }
            return result
        }
    }
}

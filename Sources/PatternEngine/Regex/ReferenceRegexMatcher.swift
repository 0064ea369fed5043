// A deliberately simple matcher used only as a test oracle.
//
// For each start position in turn it computes the set of positions where the
// pattern can end, by recursion over the syntax tree on sets of positions
// (concatenation composes, alternation unions, repetition iterates to a fixed
// point). It shares the parser with the real engines but none of the
// automata, and it runs in polynomial time, which is fine for test inputs.

/// A simple, obviously correct matcher with the same semantics as `CompiledRegex.firstMatch`, for tests.
public enum ReferenceRegexMatcher {
    /// The leftmost, then longest, non-empty match starting at or after `from`.
    ///
    /// - Complexity: polynomial (roughly O(n^3 x pattern size)); for tests only.
    public static func firstMatch(_ regex: CompiledRegex, in text: [UInt8], from: Int) -> Range<Int>? {
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
                guard let value = decodeScalar(at: position, in: text), set.contains(value) else { continue }
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

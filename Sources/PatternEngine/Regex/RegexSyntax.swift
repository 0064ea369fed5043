// The abstract syntax of a parsed pattern.
//
// Characters are already resolved to sets of scalars (case folding applied,
// negation applied), so later stages see only a few shapes: scalar sets,
// zero-width assertions, concatenation, alternation, counted repetition and
// capture groups. Greediness sets thread priorities, which decide the match
// under leftmost-first matching (the default) and only the captures under
// leftmost-longest.

/// A zero-width assertion, evaluated between the scalar before and the scalar after a position.
enum LookKind: UInt8, Sendable, CaseIterable {
    /// `^` (multi-line, CRLF-aware): at the start of the text or of a line (after `\n`, after `\r` not followed by `\n`).
    case startLine
    /// `$` (multi-line, CRLF-aware): at the end of the text or of a line (before `\r`, before `\n` not preceded by `\r`).
    case endLine
    /// `^` under `(?-R)`: at the start of the text or after `\n`, as RE2's `(?m)^`.
    case startLineLF
    /// `$` under `(?-R)`: at the end of the text or before `\n`, as RE2's `(?m)$`.
    case endLineLF
    /// `\A`, and `^` under `(?-m)`: at the start of the text.
    case startText
    /// `\z`, and `$` under `(?-m)`: at the end of the text.
    case endText
    /// `\b` under `(?u)`: between a Unicode word scalar and anything else.
    case wordBoundary
    /// `\B` under `(?u)`: not at a Unicode word boundary.
    case notWordBoundary
    /// `\b` (RE2): between an ASCII word character `[0-9A-Za-z_]` and anything else.
    case wordBoundaryASCII
    /// `\B` (RE2): not at an ASCII word boundary.
    case notWordBoundaryASCII
    /// The start of a whole-word match: the scalar before is not a word character (as `(?u)\w` reads it).
    case notAfterWordCharacter
    /// The end of a whole-word match: the scalar after is not a word character.
    case notBeforeWordCharacter
}

/// One node of a parsed pattern.
indirect enum RegexNode: Sendable {
    /// Matches the empty string.
    case empty
    /// Matches one scalar from the set.
    case scalars(ScalarSet)
    /// Matches the parts one after another.
    case concat([RegexNode])
    /// Matches any one of the branches.
    case alternation([RegexNode])
    /// Matches the node `min` to `max` times (`max == nil`: unbounded); the offset is where the operator is.
    ///
    /// `greedy` prefers more rounds, lazy fewer (after `(?U)`, the parser has already swapped them).
    case repetition(RegexNode, min: Int, max: Int?, greedy: Bool, patternUTF8Offset: Int)
    /// A capturing group; `index` counts from 1 in order of opening parentheses.
    case capture(RegexNode, index: Int)
    /// A zero-width assertion.
    case look(LookKind)
}

/// A parsed pattern: the tree and its capture groups.
struct RegexSyntax: Sendable {
    /// The root of the tree.
    var root: RegexNode
    /// The number of capturing groups (excluding the implicit group 0).
    var captureCount: Int
    /// Names of groups 1...captureCount (index 0 is the whole match and has no name).
    var captureNames: [String?]
}

extension RegexNode {
    /// The same language read backwards: concatenations are reversed; assertions keep their meaning.
    var reversed: RegexNode {
        switch self {
        case .empty, .scalars, .look:
            return self
        case .concat(let parts):
            return .concat(parts.reversed().map(\.reversed))
        case .alternation(let branches):
            return .alternation(branches.map(\.reversed))
        case .repetition(let node, let min, let max, let greedy, let offset):
            return .repetition(node.reversed, min: min, max: max, greedy: greedy, patternUTF8Offset: offset)
        case .capture(let node, let index):
            return .capture(node.reversed, index: index)
        }
    }

    /// Whether the node can match without consuming anything (assertions count as able to).
    var canMatchEmpty: Bool {
        switch self {
        case .empty, .look:
            return true
        case .scalars:
            return false
        case .concat(let parts):
            return parts.allSatisfy(\.canMatchEmpty)
        case .alternation(let branches):
            return branches.contains(where: \.canMatchEmpty)
        case .repetition(let node, let minimum, _, _, _):
            return minimum == 0 || node.canMatchEmpty
        case .capture(let node, _):
            return node.canMatchEmpty
        }
    }

    /// Whether any assertion of the given kinds occurs in the tree.
    func containsLook(_ kinds: Set<LookKind>) -> Bool {
        switch self {
        case .empty, .scalars:
            return false
        case .look(let kind):
            return kinds.contains(kind)
        case .concat(let parts), .alternation(let parts):
            return parts.contains { $0.containsLook(kinds) }
        case .repetition(let node, _, _, _, _), .capture(let node, _):
            return node.containsLook(kinds)
        }
    }

    /// The most UTF-8 bytes a match of the node can span, or nil when a repetition makes it unbounded.
    ///
    /// A set counts the encoded length of its largest member; an unbounded repetition of a node that
    /// only matches the empty string adds nothing.
    var maximumUTF8Length: Int? {
        maximumTotal { set in set.ranges.last.map { UTF8Sequences.encodedLength($0.upperBound) } ?? 0 }
    }

    /// The most characters among `scalars` a match can contain, or nil when unbounded (a
    /// repetition that can consume one, as in `(?s).*` for `\n`).
    func maximumCount(ofAny scalars: [UInt32]) -> Int? {
        maximumTotal { set in scalars.contains(where: set.contains) ? 1 : 0 }
    }

    /// The most a match can add up, when each character matched by a set adds `weight(set)`:
    /// sums along a concatenation, the most of an alternation's branches, a repetition times
    /// its maximum; nil when an unbounded repetition adds more than nothing, or on overflow.
    func maximumTotal(_ weight: (ScalarSet) -> Int) -> Int? {
        switch self {
        case .empty, .look:
            return 0
        case .scalars(let set):
            return weight(set)
        case .concat(let parts):
            var total = 0
            for part in parts {
                guard let value = part.maximumTotal(weight) else { return nil }
                let (sum, overflow) = total.addingReportingOverflow(value)
                if overflow { return nil }
                total = sum
            }
            return total
        case .alternation(let branches):
            var most = 0
            for branch in branches {
                guard let value = branch.maximumTotal(weight) else { return nil }
                most = max(most, value)
            }
            return most
        case .repetition(let node, _, let maximum, _, _):
            guard let value = node.maximumTotal(weight) else { return nil }
            if value == 0 { return 0 }
            guard let maximum else { return nil }
            let (product, overflow) = value.multipliedReportingOverflow(by: maximum)
            return overflow ? nil : product
        case .capture(let node, _):
            return node.maximumTotal(weight)
        }
    }
}

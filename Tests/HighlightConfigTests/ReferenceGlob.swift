// The previous glob matcher (brace expansion, then segment matching), kept as the reference for the
// differential test of the automaton. Glob patterns over '/'-separated relative paths.
//
//     *        any run of characters within one path segment
//     ?        one character, not '/'
//     **       as a whole segment: zero or more segments (`a/**/b`, `**/x`, `x/**`)
//     [abc]    one of the characters; [a-z] a range; [!a] or [^a] any but them
//     {a,b}    either alternative (may nest; expanded before matching)
//     \x       x itself
//
// Matching works segment by segment; `**` backtracks over segments and `*`
// over characters, each with the classic "remember the last star" loop, so a
// match costs O(pattern × path) at worst. An unclosed `[` or `{` is literal.

/// A compiled glob; `matches(_:)` takes a relative path whose segments are separated by `/`.
struct ReferenceGlob: Sendable, Hashable {
    /// One element of a segment pattern.
    enum Token: Sendable, Hashable {
        case literal(Unicode.Scalar)
        case anyCharacter
        case star
        case set([ClosedRange<Unicode.Scalar>], negated: Bool)
    }

    /// A path segment pattern, or `**`.
    enum Segment: Sendable, Hashable {
        case anySegments
        case pattern([Token])
    }

    /// The pattern as written.
    let pattern: String
    /// Each alternative after brace expansion, as segments.
    let alternatives: [[Segment]]

    /// The most alternatives brace expansion may produce; the rest of a larger expansion is dropped.
    static let maximumAlternatives = 256

    /// Compiles `pattern`. A leading `/` is ignored (the pattern is relative to a root either way).
    init(_ pattern: String) {
        self.pattern = pattern
        var text = Substring(pattern)
        while text.hasPrefix("/") { text = text.dropFirst() }
        alternatives = Self.expandBraces(Array(text.unicodeScalars)).map(Self.segments)
    }

    /// Whether the relative path (segments separated by `/`) matches.
    ///
    /// - Complexity: O(p × s) in the pattern and path lengths, per brace alternative.
    func matches(_ path: String) -> Bool {
        let segments = path.split(separator: "/", omittingEmptySubsequences: true).map { Array($0.unicodeScalars) }
        return matches(segments: segments)
    }

    /// Whether the path, given as its segments, matches.
    func matches(segments: ArraySlice<[Unicode.Scalar]>) -> Bool {
        alternatives.contains { Self.match($0, segments) }
    }

    /// Whether the path, given as its segments, matches.
    func matches(segments: [[Unicode.Scalar]]) -> Bool {
        matches(segments: segments[...])
    }

    // MARK: Matching

    private static func match(_ pattern: [Segment], _ path: ArraySlice<[Unicode.Scalar]>) -> Bool {
        // `**/name`, the shape of most ignore patterns, only looks at the last segment.
        if pattern.count == 2, pattern[0] == .anySegments, case .pattern(let tokens) = pattern[1] {
            guard let last = path.last else { return false }
            return matchSegment(tokens, last)
        }
        var patternIndex = 0
        var pathIndex = path.startIndex
        var starPattern = -1
        var starPath = path.startIndex
        while pathIndex < path.endIndex {
            if patternIndex < pattern.count {
                switch pattern[patternIndex] {
                case .anySegments:
                    starPattern = patternIndex
                    starPath = pathIndex
                    patternIndex += 1
                    continue
                case .pattern(let tokens) where matchSegment(tokens, path[pathIndex]):
                    patternIndex += 1
                    pathIndex += 1
                    continue
                default:
                    break
                }
            }
            guard starPattern >= 0 else { return false }
            patternIndex = starPattern + 1
            starPath += 1
            pathIndex = starPath
        }
        while patternIndex < pattern.count, pattern[patternIndex] == .anySegments { patternIndex += 1 }
        return patternIndex == pattern.count
    }

    private static func matchSegment(_ tokens: [Token], _ name: [Unicode.Scalar]) -> Bool {
        var tokenIndex = 0
        var nameIndex = 0
        var starToken = -1
        var starName = 0
        while nameIndex < name.count {
            if tokenIndex < tokens.count {
                switch tokens[tokenIndex] {
                case .star:
                    starToken = tokenIndex
                    starName = nameIndex
                    tokenIndex += 1
                    continue
                case .anyCharacter:
                    tokenIndex += 1
                    nameIndex += 1
                    continue
                case .literal(let scalar) where scalar == name[nameIndex]:
                    tokenIndex += 1
                    nameIndex += 1
                    continue
                case .set(let ranges, let negated) where ranges.contains { $0.contains(name[nameIndex]) } != negated:
                    tokenIndex += 1
                    nameIndex += 1
                    continue
                default:
                    break
                }
            }
            guard starToken >= 0 else { return false }
            tokenIndex = starToken + 1
            starName += 1
            nameIndex = starName
        }
        while tokenIndex < tokens.count, tokens[tokenIndex] == .star { tokenIndex += 1 }
        return tokenIndex == tokens.count
    }

    // MARK: Compiling

    /// `{a,b}` expanded into alternatives, innermost-first through recursion; escapes are kept.
    static func expandBraces(_ scalars: [Unicode.Scalar]) -> [[Unicode.Scalar]] {
        // Find the first top-level `{` that has a matching `}` with a `,` at its depth.
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == "\\" {
                index += 2
                continue
            }
            if scalar == "[", let close = classEnd(scalars, from: index) {
                index = close + 1
                continue
            }
            if scalar == "{", let (close, commas) = braceEnd(scalars, from: index), !commas.isEmpty {
                let prefix = Array(scalars[..<index])
                let suffix = Array(scalars[(close + 1)...])
                var options: [[Unicode.Scalar]] = []
                var start = index + 1
                for comma in commas + [close] {
                    options.append(Array(scalars[start..<comma]))
                    start = comma + 1
                }
                var results: [[Unicode.Scalar]] = []
                for option in options {
                    for expanded in expandBraces(prefix + option + suffix) {
                        guard results.count < maximumAlternatives else { return results }
                        results.append(expanded)
                    }
                }
                return results
            }
            index += 1
        }
        return [scalars]
    }

    /// The `}` closing the `{` at `start` and the top-level commas inside, or nil when unclosed.
    private static func braceEnd(_ scalars: [Unicode.Scalar], from start: Int) -> (Int, [Int])? {
        var depth = 0
        var commas: [Int] = []
        var index = start
        while index < scalars.count {
            switch scalars[index] {
            case "\\": index += 1
            case "{": depth += 1
            case "}":
                depth -= 1
                if depth == 0 { return (index, commas) }
            case "," where depth == 1: commas.append(index)
            default: break
            }
            index += 1
        }
        return nil
    }

    /// The `]` closing the `[` at `start`, or nil when unclosed (`[]a]` contains `]`).
    private static func classEnd(_ scalars: [Unicode.Scalar], from start: Int) -> Int? {
        var index = start + 1
        if index < scalars.count, scalars[index] == "!" || scalars[index] == "^" { index += 1 }
        if index < scalars.count, scalars[index] == "]" { index += 1 }
        while index < scalars.count {
            if scalars[index] == "\\" {
                index += 2
                continue
            }
            if scalars[index] == "]" { return index }
            index += 1
        }
        return nil
    }

    private static func segments(_ scalars: [Unicode.Scalar]) -> [Segment] {
        var segments: [Segment] = []
        var current: [Unicode.Scalar] = []
        var index = 0
        func finish() {
            if current == ["*", "*"] {
                if segments.last != .anySegments { segments.append(.anySegments) }
            } else if !current.isEmpty {
                segments.append(.pattern(tokens(current)))
            }
            current = []
        }
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == "\\", index + 1 < scalars.count {
                current += [scalar, scalars[index + 1]]
                index += 2
                continue
            }
            if scalar == "[", let close = classEnd(scalars, from: index) {
                current += scalars[index...close]
                index = close + 1
                continue
            }
            if scalar == "/" { finish() } else { current.append(scalar) }
            index += 1
        }
        finish()
        return segments
    }

    private static func tokens(_ scalars: [Unicode.Scalar]) -> [Token] {
        var tokens: [Token] = []
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            switch scalar {
            case "\\" where index + 1 < scalars.count:
                tokens.append(.literal(scalars[index + 1]))
                index += 2
                continue
            case "*":
                // `**` inside a segment (`a**b`) is a plain star.
                if tokens.last != .star { tokens.append(.star) }
            case "?":
                tokens.append(.anyCharacter)
            case "[":
                guard let close = classEnd(scalars, from: index) else {
                    tokens.append(.literal(scalar))
                    break
                }
                var cursor = index + 1
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
                tokens.append(.set(ranges, negated: negated))
                index = close + 1
                continue
            default:
                tokens.append(.literal(scalar))
            }
            index += 1
        }
        return tokens
    }
}

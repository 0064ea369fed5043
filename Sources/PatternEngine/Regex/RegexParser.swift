// A recursive-descent parser for the RE2 / Rust `regex` dialect.
//
//     alternation := concat ('|' concat)*
//     concat      := (atom quantifier?)*
//     atom        := literal | '.' | '^' | '$' | escape | class | group
//     quantifier  := ('*' | '+' | '?' | '{m}' | '{m,}' | '{m,n}') '?'?
//
// Flags (`i` case-insensitive, `s` dot matches line terminators, `x` extended)
// are scoped: `(?i)` lasts to the end of the enclosing group, `(?i:...)` to the
// end of its own group. Features that cannot run in linear time (look-around,
// backreferences, possessive and atomic constructs) are rejected with the
// pattern offset of the construct, as are malformed patterns.

/// Parses a pattern into `RegexSyntax`, or explains with an offset why it cannot.
struct RegexParser {
    /// The largest count allowed in `{m,n}`.
    static let maxRepetitionCount = 1000
    /// The deepest group nesting accepted (keeps every recursive stage's stack small).
    static let maxNestingDepth = 200

    private struct Flags {
        var caseInsensitive: Bool
        var dotMatchesLineTerminators = false
        var extended = false
    }

    private let scalars: [Unicode.Scalar]
    /// `utf8Offsets[i]` is the UTF-8 offset of `scalars[i]`; one extra entry holds the pattern length.
    private let utf8Offsets: [Int]
    private var position = 0
    private var depth = 0
    private var captureCount = 0
    private var captureNames: [String?] = [nil]

    private init(pattern: String) {
        var scalars: [Unicode.Scalar] = []
        var offsets: [Int] = []
        var offset = 0
        for scalar in pattern.unicodeScalars {
            scalars.append(scalar)
            offsets.append(offset)
            offset += UTF8.width(scalar)
        }
        offsets.append(offset)
        self.scalars = scalars
        self.utf8Offsets = offsets
    }

    /// Parses `pattern`; `caseInsensitive` sets the initial `i` flag.
    ///
    /// - Complexity: O(p) for a pattern of p scalars, plus the size of the classes it builds.
    static func parse(_ pattern: String, caseInsensitive: Bool) throws(RegexError) -> RegexSyntax {
        var parser = RegexParser(pattern: pattern)
        var flags = Flags(caseInsensitive: caseInsensitive)
        let root = try parser.parseAlternation(flags: &flags)
        if parser.position < parser.scalars.count {
            // The only way to stop early at top level is an unmatched ')'.
            throw parser.error("unmatched closing parenthesis", at: parser.position)
        }
        return RegexSyntax(root: root, captureCount: parser.captureCount, captureNames: parser.captureNames)
    }

    // MARK: Helpers

    private func error(_ message: String, at scalarIndex: Int) -> RegexError {
        let clamped = min(max(scalarIndex, 0), utf8Offsets.count - 1)
        return RegexError(message: message, patternUTF8Offset: utf8Offsets[clamped])
    }

    private var current: Unicode.Scalar? {
        position < scalars.count ? scalars[position] : nil
    }

    private func peek(_ ahead: Int) -> Unicode.Scalar? {
        let index = position + ahead
        return index >= 0 && index < scalars.count ? scalars[index] : nil
    }

    private mutating func skipExtendedWhitespace(_ flags: Flags) {
        guard flags.extended else { return }
        while let scalar = current {
            if scalar.properties.isWhitespace {
                position += 1
            } else if scalar == "#" {
                while let inner = current, inner != "\n" {
                    position += 1
                }
            } else {
                return
            }
        }
    }

    // MARK: Structure

    private mutating func parseAlternation(flags: inout Flags) throws(RegexError) -> RegexNode {
        var branches: [RegexNode] = [try parseConcat(flags: &flags)]
        while current == "|" {
            position += 1
            branches.append(try parseConcat(flags: &flags))
        }
        return branches.count == 1 ? branches[0] : .alternation(branches)
    }

    private mutating func parseConcat(flags: inout Flags) throws(RegexError) -> RegexNode {
        var parts: [RegexNode] = []
        while true {
            skipExtendedWhitespace(flags)
            guard let scalar = current, scalar != "|", scalar != ")" else { break }
            let atomStart = position
            guard let atom = try parseAtom(flags: &flags) else { continue }
            parts.append(try parseQuantifiers(atom, atomStart: atomStart, flags: flags))
        }
        switch parts.count {
        case 0: return .empty
        case 1: return parts[0]
        default: return .concat(parts)
        }
    }

    private mutating func parseQuantifiers(_ atom: RegexNode, atomStart: Int, flags: Flags) throws(RegexError) -> RegexNode {
        skipExtendedWhitespace(flags)
        guard let scalar = current else { return atom }
        let operatorStart = position
        let offset = utf8Offsets[operatorStart]
        let bounds: (Int, Int?)
        switch scalar {
        case "*":
            position += 1
            bounds = (0, nil)
        case "+":
            position += 1
            bounds = (1, nil)
        case "?":
            position += 1
            bounds = (0, 1)
        case "{":
            bounds = try parseCountedRepetition()
        default:
            return atom
        }
        // A lazy marker is accepted: under leftmost-longest it only changes capture priorities.
        var greedy = true
        if current == "?" {
            position += 1
            greedy = false
        } else if current == "+" {
            throw error("possessive repetition is not supported", at: position)
        }
        let node = RegexNode.repetition(atom, min: bounds.0, max: bounds.1, greedy: greedy, patternUTF8Offset: offset)
        skipExtendedWhitespace(flags)
        if let next = current, next == "*" || next == "+" || next == "?" || next == "{" {
            throw error("nested repetition operator; wrap the repeated part in a group", at: position)
        }
        return node
    }

    private mutating func parseCountedRepetition() throws(RegexError) -> (Int, Int?) {
        let start = position
        position += 1  // '{'
        guard let low = parseDecimal() else {
            throw error("counted repetition needs a number, as in {2} or {2,5}", at: start)
        }
        var high: Int? = low
        if current == "," {
            position += 1
            high = current == "}" ? nil : parseDecimal()
            if high == nil && current != "}" {
                throw error("malformed counted repetition", at: start)
            }
        }
        guard current == "}" else {
            throw error("unclosed counted repetition", at: start)
        }
        position += 1
        if low > RegexParser.maxRepetitionCount || (high ?? 0) > RegexParser.maxRepetitionCount {
            throw error("repetition count above \(RegexParser.maxRepetitionCount)", at: start)
        }
        if let high, high < low {
            throw error("invalid repetition range {\(low),\(high)}: the minimum exceeds the maximum", at: start)
        }
        return (low, high)
    }

    /// Reads decimal digits; values are capped just above the limit so huge numbers cannot overflow.
    private mutating func parseDecimal() -> Int? {
        var value = 0
        var sawDigit = false
        while let scalar = current, scalar.value >= 0x30 && scalar.value <= 0x39 {
            value = min(value * 10 + Int(scalar.value - 0x30), RegexParser.maxRepetitionCount + 1)
            sawDigit = true
            position += 1
        }
        return sawDigit ? value : nil
    }

    /// Parses one atom; returns nil for constructs that produce nothing (a flag group like `(?i)`).
    private mutating func parseAtom(flags: inout Flags) throws(RegexError) -> RegexNode? {
        guard let scalar = current else { return .empty }
        switch scalar {
        case "(":
            return try parseGroup(flags: &flags)
        case "[":
            let set = try parseClass(flags: flags)
            return .scalars(set)
        case ".":
            position += 1
            if flags.dotMatchesLineTerminators {
                return .scalars(ScalarSet.all)
            }
            return .scalars(ScalarSet([0x0A...0x0A, 0x0D...0x0D]).inverted())
        case "^":
            position += 1
            return .look(.startLine)
        case "$":
            position += 1
            return .look(.endLine)
        case "\\":
            return try parseEscape(flags: flags)
        case "*", "+", "?", "{":
            throw error("repetition operator '\(scalar)' has nothing to repeat", at: position)
        default:
            position += 1
            return literal(scalar, flags: flags)
        }
    }

    private func literal(_ scalar: Unicode.Scalar, flags: Flags) -> RegexNode {
        if flags.caseInsensitive {
            return .scalars(ScalarSet(CaseFolding.equivalents(of: scalar).map { $0.value...$0.value }))
        }
        return .scalars(ScalarSet(scalar: scalar))
    }

    // MARK: Groups and flags

    private mutating func parseGroup(flags: inout Flags) throws(RegexError) -> RegexNode? {
        let open = position
        position += 1  // '('
        var captureIndex: Int?
        var innerFlags = flags
        if current == "?" {
            position += 1
            guard let marker = current else {
                throw error("unclosed group", at: open)
            }
            switch marker {
            case "=", "!":
                throw error("look-ahead is not supported", at: open)
            case ">":
                throw error("atomic groups are not supported", at: open)
            case "#":
                throw error("comment groups are not supported; use (?x) and # comments", at: open)
            case "P" where peek(1) == "=" || peek(1) == ">":
                throw error("backreferences are not supported", at: open)
            case "<" where peek(1) == "=" || peek(1) == "!":
                throw error("look-behind is not supported", at: open)
            case "P", "<":
                if marker == "P" {
                    position += 1
                    guard current == "<" else { throw error("malformed named group", at: open) }
                }
                position += 1
                let name = try parseGroupName(groupStart: open)
                captureCount += 1
                captureIndex = captureCount
                captureNames.append(name)
            default:
                // A flag group: (?flags) or (?flags:...).
                let endsGroup = try parseFlags(into: &innerFlags, groupStart: open)
                if endsGroup {
                    flags = innerFlags
                    return nil
                }
            }
        } else {
            captureCount += 1
            captureIndex = captureCount
            captureNames.append(nil)
        }
        depth += 1
        if depth > RegexParser.maxNestingDepth {
            throw error("groups nested deeper than \(RegexParser.maxNestingDepth)", at: open)
        }
        let inner = try parseAlternation(flags: &innerFlags)
        depth -= 1
        guard current == ")" else {
            throw error("unclosed group", at: open)
        }
        position += 1
        if let captureIndex {
            return .capture(inner, index: captureIndex)
        }
        return inner
    }

    private mutating func parseGroupName(groupStart: Int) throws(RegexError) -> String {
        let nameStart = position
        var name = ""
        while let scalar = current, scalar != ">" {
            let isLetter = (scalar.value >= 0x41 && scalar.value <= 0x5A) || (scalar.value >= 0x61 && scalar.value <= 0x7A)
            let isDigit = scalar.value >= 0x30 && scalar.value <= 0x39
            let isAllowed = isLetter || scalar == "_" || (!name.isEmpty && (isDigit || scalar == "." || scalar == "[" || scalar == "]"))
            guard isAllowed else {
                throw error("invalid character in group name", at: position)
            }
            name.unicodeScalars.append(scalar)
            position += 1
        }
        guard current == ">" else {
            throw error("unclosed group name", at: nameStart)
        }
        guard !name.isEmpty else {
            throw error("empty group name", at: nameStart)
        }
        if captureNames.contains(name) {
            throw error("duplicate group name '\(name)'", at: nameStart)
        }
        position += 1
        return name
    }

    /// Parses flags after `(?`; returns true for `(?flags)` and false for `(?flags:`.
    private mutating func parseFlags(into flags: inout Flags, groupStart: Int) throws(RegexError) -> Bool {
        var negated = false
        var sawFlag = false
        while let scalar = current {
            switch scalar {
            case ")", ":":
                if !sawFlag && !negated && scalar == ")" {
                    throw error("empty flag group", at: groupStart)
                }
                if negated && !sawFlag {
                    throw error("'-' must be followed by a flag", at: position)
                }
                position += 1
                return scalar == ")"
            case "-":
                if negated { throw error("repeated '-' in flags", at: position) }
                negated = true
                sawFlag = false
            case "i":
                flags.caseInsensitive = !negated
                sawFlag = true
            case "s":
                flags.dotMatchesLineTerminators = !negated
                sawFlag = true
            case "x":
                flags.extended = !negated
                sawFlag = true
            case "m":
                if negated {
                    throw error("multi-line mode is always on and cannot be disabled; use \\A and \\z for text boundaries", at: position)
                }
                sawFlag = true
            case "u":
                if negated {
                    throw error("Unicode mode cannot be disabled", at: position)
                }
                sawFlag = true
            case "U", "R":
                // Swapping greediness changes nothing under leftmost-longest; CRLF handling is always on.
                sawFlag = true
            default:
                throw error("unknown flag '\(scalar)'", at: position)
            }
            position += 1
        }
        throw error("unclosed group", at: groupStart)
    }

    // MARK: Escapes

    private enum EscapeResult {
        case scalar(Unicode.Scalar)
        case set(ScalarSet)
        case look(LookKind)
    }

    private mutating func parseEscape(flags: Flags) throws(RegexError) -> RegexNode {
        switch try parseEscapeSequence(flags: flags, inClass: false) {
        case .scalar(let scalar):
            return literal(scalar, flags: flags)
        case .set(let set):
            return .scalars(set)
        case .look(let kind):
            return .look(kind)
        }
    }

    private mutating func parseEscapeSequence(flags: Flags, inClass: Bool) throws(RegexError) -> EscapeResult {
        let start = position
        position += 1  // '\'
        guard let scalar = current else {
            throw error("trailing backslash at the end of the pattern", at: start)
        }
        position += 1
        switch scalar {
        case "A", "z", "b", "B":
            if inClass {
                throw error("assertion \\\(scalar) is not allowed inside a character class", at: start)
            }
            switch scalar {
            case "A": return .look(.startText)
            case "z": return .look(.endText)
            case "b": return .look(.wordBoundary)
            default: return .look(.notWordBoundary)
            }
        case "d": return .set(folded(UnicodeClasses.digit, flags))
        case "D": return .set(folded(UnicodeClasses.digit, flags).inverted())
        case "w": return .set(folded(UnicodeClasses.word, flags))
        case "W": return .set(folded(UnicodeClasses.word, flags).inverted())
        case "s": return .set(folded(UnicodeClasses.space, flags))
        case "S": return .set(folded(UnicodeClasses.space, flags).inverted())
        case "p", "P":
            let set = try parseProperty(escapeStart: start)
            let closed = folded(set, flags)
            return .set(scalar == "P" ? closed.inverted() : closed)
        case "x", "u", "U":
            return .scalar(try parseHexEscape(kind: scalar, escapeStart: start))
        case "a": return .scalar("\u{07}")
        case "f": return .scalar("\u{0C}")
        case "t": return .scalar("\t")
        case "n": return .scalar("\n")
        case "r": return .scalar("\r")
        case "v": return .scalar("\u{0B}")
        case "k":
            throw error("backreferences are not supported", at: start)
        default:
            if scalar.value >= 0x30 && scalar.value <= 0x39 {
                throw error("backreferences and octal escapes are not supported", at: start)
            }
            if scalar.value < 0x80 && !scalar.properties.isAlphabetic && scalar.value >= 0x20 && scalar.value != 0x7F {
                return .scalar(scalar)
            }
            throw error("unknown escape \\\(scalar)", at: start)
        }
    }

    private func folded(_ set: ScalarSet, _ flags: Flags) -> ScalarSet {
        flags.caseInsensitive ? UnicodeClasses.caseFolded(set) : set
    }

    private mutating func parseProperty(escapeStart: Int) throws(RegexError) -> ScalarSet {
        guard let first = current else {
            throw error("\\p needs a property name", at: escapeStart)
        }
        var name = ""
        if first == "{" {
            position += 1
            while let scalar = current, scalar != "}" {
                name.unicodeScalars.append(scalar)
                position += 1
            }
            guard current == "}" else {
                throw error("unclosed \\p{...}", at: escapeStart)
            }
            position += 1
        } else {
            name.unicodeScalars.append(first)
            position += 1
        }
        if let set = UnicodeClasses.property(named: name) {
            return set
        }
        throw error(
            "unknown or unsupported Unicode property '\(name)' (general categories such as L, Lu, Nd and Alphabetic, White_Space, Uppercase, Lowercase are supported; scripts are not)",
            at: escapeStart)
    }

    private mutating func parseHexEscape(kind: Unicode.Scalar, escapeStart: Int) throws(RegexError) -> Unicode.Scalar {
        var digits = ""
        if current == "{" {
            position += 1
            while let scalar = current, scalar != "}" {
                digits.unicodeScalars.append(scalar)
                position += 1
            }
            guard current == "}" else {
                throw error("unclosed hexadecimal escape", at: escapeStart)
            }
            position += 1
            if digits.isEmpty || digits.count > 8 {
                throw error("invalid hexadecimal escape", at: escapeStart)
            }
        } else {
            let width = kind == "x" ? 2 : (kind == "u" ? 4 : 8)
            for _ in 0..<width {
                guard let scalar = current else {
                    throw error("hexadecimal escape needs \(width) digits", at: escapeStart)
                }
                digits.unicodeScalars.append(scalar)
                position += 1
            }
        }
        guard let value = UInt32(digits, radix: 16) else {
            throw error("invalid hexadecimal digits in escape", at: escapeStart)
        }
        guard let scalar = Unicode.Scalar(value) else {
            throw error("escape is not a Unicode scalar value (surrogate or above U+10FFFF)", at: escapeStart)
        }
        return scalar
    }

    // MARK: Classes

    /// Parses `[...]` starting at '[' and returns its set (case-folded and negated as written).
    private mutating func parseClass(flags: Flags) throws(RegexError) -> ScalarSet {
        let open = position
        position += 1  // '['
        depth += 1
        defer { depth -= 1 }
        if depth > RegexParser.maxNestingDepth {
            throw error("classes nested deeper than \(RegexParser.maxNestingDepth)", at: open)
        }
        var negated = false
        if current == "^" {
            negated = true
            position += 1
        }
        var ranges: [ClosedRange<UInt32>] = []
        var first = true
        while true {
            guard let scalar = current else {
                throw error("unclosed character class", at: open)
            }
            if scalar == "]" && !first {
                position += 1
                break
            }
            first = false
            if (scalar == "&" && peek(1) == "&") || (scalar == "~" && peek(1) == "~") || (scalar == "-" && peek(1) == "-") {
                throw error("class set operations (&&, --, ~~) are not supported", at: position)
            }
            if scalar == "[" {
                if peek(1) == ":", let posix = try parsePOSIXClass(flags: flags) {
                    ranges.append(contentsOf: posix.ranges)
                } else {
                    ranges.append(contentsOf: try parseClass(flags: flags).ranges)
                }
                continue
            }
            let itemStart = position
            let item = try parseClassItem(flags: flags)
            switch item {
            case .set(let set):
                ranges.append(contentsOf: set.ranges)
            case .look:
                throw error("assertions are not allowed inside a character class", at: itemStart)
            case .scalar(let low):
                // A range needs '-' followed by something other than the closing ']'.
                if current == "-", let after = peek(1), after != "]" {
                    position += 1
                    let highStart = position
                    guard case .scalar(let high) = try parseClassItem(flags: flags) else {
                        throw error("a class range must end in a single character", at: highStart)
                    }
                    guard low.value <= high.value else {
                        throw error("invalid class range: the start exceeds the end", at: itemStart)
                    }
                    ranges.append(low.value...high.value)
                } else {
                    ranges.append(low.value...low.value)
                }
            }
        }
        var set = ScalarSet(ranges)
        if flags.caseInsensitive {
            set = UnicodeClasses.caseFolded(set)
        }
        return negated ? set.inverted() : set
    }

    private mutating func parseClassItem(flags: Flags) throws(RegexError) -> EscapeResult {
        guard let scalar = current else {
            throw error("unclosed character class", at: position)
        }
        if scalar == "\\" {
            return try parseEscapeSequence(flags: flags, inClass: true)
        }
        position += 1
        return .scalar(scalar)
    }

    /// Parses `[:name:]` or `[:^name:]`; returns nil (consuming nothing) if the text is not of that form.
    private mutating func parsePOSIXClass(flags: Flags) throws(RegexError) -> ScalarSet? {
        let start = position
        var index = position + 2
        var negated = false
        if index < scalars.count && scalars[index] == "^" {
            negated = true
            index += 1
        }
        var name = ""
        while index < scalars.count, scalars[index] != ":" {
            name.unicodeScalars.append(scalars[index])
            index += 1
            if name.unicodeScalars.count > 10 { return nil }
        }
        guard index + 1 < scalars.count, scalars[index] == ":", scalars[index + 1] == "]" else {
            return nil
        }
        guard let set = UnicodeClasses.posixClass(named: name) else {
            throw error("unknown POSIX class [:\(name):]", at: start)
        }
        position = index + 2
        let closed = folded(set, flags)
        return negated ? closed.inverted() : closed
    }
}

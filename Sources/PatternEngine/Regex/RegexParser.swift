// A recursive-descent parser for the RE2 dialect.
//
//     alternation := concat ('|' concat)*
//     concat      := (atom quantifier?)*
//     atom        := literal | '.' | '^' | '$' | escape | \Q...\E | class | group
//     quantifier  := ('*' | '+' | '?' | '{m}' | '{m,}' | '{m,n}') '?'?
//
// It follows RE2's parser where RE2 is particular: a `{` that does not start
// a well-formed count is a literal (`a{,2}`, `x{a}`); two repetition operators
// in a row are an error (`a**`, `a{2}*`); counts are at most 1000, also when
// nested (`(a{100}){100}` is rejected, as RE2's repetition walker does);
// `\1`-`\7` followed by an octal digit and `\0` start octal escapes; `[` inside
// a class is a literal unless it opens `[:name:]`; `\d \w \s \b` are ASCII.
//
// Flags are scoped: `(?i)` lasts to the end of the enclosing group, `(?i:...)`
// to the end of its own group. RE2's flags are `i` (case-insensitive), `m`
// (multi-line; on by default here, see README), `s` (`.` matches `\n`) and `U`
// (swap greedy and lazy). Extensions beyond RE2: `x` (extended: whitespace and
// `#` comments ignored), `u` (Unicode `\d \w \s \b`) and `R` (CRLF-aware `^ $ .`,
// on by default). Features that cannot run in linear time (look-around,
// backreferences, possessive and atomic constructs) are rejected with the
// pattern offset of the construct, as are malformed patterns.

/// Parses a pattern into `RegexSyntax`, or explains with an offset why it cannot.
struct RegexParser {
    /// The largest count allowed in `{m,n}`.
    static let maxRepetitionCount = 1000
    /// The deepest group nesting accepted (keeps every recursive stage's stack small).
    static let maxNestingDepth = 200

    /// The product of nested counts (`{m,n}`) allowed, as RE2 counts it.
    static let maxNestedRepetition = 1000

    private struct Flags {
        var caseInsensitive: Bool
        /// `s`: `.` matches line terminators too.
        var dotMatchesLineTerminators = false
        /// `m`: `^` and `$` match at line boundaries (on by default, as in ripgrep and editors).
        var multiLine = true
        /// `U`: repetitions are lazy unless followed by `?`.
        var swapsGreed = false
        /// `x` (extension): whitespace and `#` comments in the pattern are ignored.
        var extended = false
        /// `u` (extension): `\d \w \s \b \B` and POSIX classes are Unicode-aware rather than ASCII.
        var unicodeClasses = false
        /// `R` (extension, on by default): `\r\n` is one line terminator for `^ $`, and `.` excludes `\r`.
        var crlf = true
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
        try checkNestedRepetition(root, budget: maxNestedRepetition)
        return RegexSyntax(root: root, captureCount: parser.captureCount, captureNames: parser.captureNames)
    }

    /// Rejects counted repetitions nested so deep that their counts multiply past the limit, as RE2 does: each
    /// `{m,n}` divides the budget by n (by m when unbounded), and a budget that reaches zero is an error.
    private static func checkNestedRepetition(_ node: RegexNode, budget: Int) throws(RegexError) {
        switch node {
        case .empty, .scalars, .look:
            return
        case .concat(let parts), .alternation(let parts):
            for part in parts { try checkNestedRepetition(part, budget: budget) }
        case .capture(let inner, _):
            try checkNestedRepetition(inner, budget: budget)
        case .repetition(let inner, let minimum, let maximum, _, let offset):
            // `*`, `+` and `?` divide by 0 (skipped) or 1, as their counted spellings would.
            var inside = budget
            let divisor = maximum ?? minimum
            if divisor > 0 {
                inside = budget / divisor
                if inside == 0 {
                    throw RegexError(
                        message: "nested counted repetitions repeat more than \(maxNestedRepetition) times in all",
                        patternUTF8Offset: offset)
                }
            }
            try checkNestedRepetition(inner, budget: inside)
        }
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
            if scalar == "\\" && peek(1) == "Q" {
                // \Q...\E: literals up to \E or the end; a quantifier after it repeats the last one only.
                position += 2
                var literals: [Unicode.Scalar] = []
                while let inner = current {
                    if inner == "\\" && peek(1) == "E" {
                        position += 2
                        break
                    }
                    literals.append(inner)
                    position += 1
                }
                guard let last = literals.popLast() else {
                    try repeatLastPart(&parts, flags: flags)
                    continue
                }
                parts.append(contentsOf: literals.map { literal($0, flags: flags) })
                parts.append(try parseQuantifiers(literal(last, flags: flags), atomStart: position - 1, flags: flags))
                continue
            }
            guard let atom = try parseAtom(flags: &flags) else {
                try repeatLastPart(&parts, flags: flags)
                continue
            }
            parts.append(try parseQuantifiers(atom, atomStart: atomStart, flags: flags))
        }
        switch parts.count {
        case 0: return .empty
        case 1: return parts[0]
        default: return .concat(parts)
        }
    }

    /// After something that produced no node (`(?i)`, an empty `\Q\E`), a quantifier repeats the part before it,
    /// as in RE2 (`a(?i)*` is `(?:a)*`); with no part before it, it is an error, reported by `parseAtom`.
    private mutating func repeatLastPart(_ parts: inout [RegexNode], flags: Flags) throws(RegexError) {
        skipExtendedWhitespace(flags)
        guard let previous = parts.last, let next = current,
              next == "*" || next == "+" || next == "?" || (next == "{" && isCountedRepetitionAhead) else { return }
        parts[parts.count - 1] = try parseQuantifiers(previous, atomStart: position, flags: flags)
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
            // A `{` that does not start a well-formed count is a literal, as in RE2.
            guard let counted = try parseCountedRepetition() else { return atom }
            bounds = counted
        default:
            return atom
        }
        var greedy = !flags.swapsGreed
        if current == "?" {
            position += 1
            greedy.toggle()
        } else if current == "+" {
            throw error("possessive repetition is not supported", at: position)
        }
        let node = RegexNode.repetition(atom, min: bounds.0, max: bounds.1, greedy: greedy, patternUTF8Offset: offset)
        skipExtendedWhitespace(flags)
        if let next = current, next == "*" || next == "+" || next == "?" || (next == "{" && isCountedRepetitionAhead) {
            throw error("nested repetition operator; wrap the repeated part in a group", at: position)
        }
        return node
    }

    /// Whether the text at the current position is a well-formed count: `{m}`, `{m,}` or `{m,n}`.
    private var isCountedRepetitionAhead: Bool {
        var index = position
        guard index < scalars.count, scalars[index] == "{" else { return false }
        index += 1
        // As RE2: at least one digit, and no leading zero (`{07}` and `{01,2}` are literals).
        func skipDigits() -> Bool {
            let first = index
            while index < scalars.count, scalars[index].value >= 0x30, scalars[index].value <= 0x39 { index += 1 }
            return index > first && (index - first == 1 || scalars[first] != "0")
        }
        guard skipDigits() else { return false }
        if index < scalars.count, scalars[index] == "," {
            index += 1
            if index < scalars.count, scalars[index] != "}", !skipDigits() { return false }
        }
        return index < scalars.count && scalars[index] == "}"
    }

    /// Parses `{m}`, `{m,}` or `{m,n}`; returns nil (consuming nothing) when the text is not of that form.
    private mutating func parseCountedRepetition() throws(RegexError) -> (Int, Int?)? {
        guard isCountedRepetitionAhead else { return nil }
        let start = position
        position += 1  // '{'
        guard let low = parseDecimal() else { return nil }
        var high: Int? = low
        if current == "," {
            position += 1
            high = current == "}" ? nil : parseDecimal()
        }
        position += 1  // '}'
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
            if flags.crlf {
                return .scalars(ScalarSet([0x0A...0x0A, 0x0D...0x0D]).inverted())
            }
            return .scalars(ScalarSet([0x0A...0x0A]).inverted())
        case "^":
            position += 1
            return .look(flags.multiLine ? (flags.crlf ? .startLine : .startLineLF) : .startText)
        case "$":
            position += 1
            return .look(flags.multiLine ? (flags.crlf ? .endLine : .endLineLF) : .endText)
        case "\\":
            return try parseEscape(flags: flags)
        case "{" where !isCountedRepetitionAhead:
            position += 1
            return literal(scalar, flags: flags)
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

    /// A literal code point: a surrogate matches nothing (it cannot occur in UTF-8 text).
    private func literal(codePoint: UInt32, flags: Flags) -> RegexNode {
        guard let scalar = Unicode.Scalar(codePoint) else { return .scalars(ScalarSet()) }
        return literal(scalar, flags: flags)
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
            case ")":
                // `(?)`: an empty flag group, which RE2 accepts and which changes nothing.
                position += 1
                return nil
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
            // As RE2: word characters only (letters, marks, decimal digits, connector punctuation such as `_`).
            guard WordBoundary.isWordCharacter(scalar) else {
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
                flags.multiLine = !negated
                sawFlag = true
            case "u":
                flags.unicodeClasses = !negated
                sawFlag = true
            case "U":
                flags.swapsGreed = !negated
                sawFlag = true
            case "R":
                flags.crlf = !negated
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
        /// A code point; surrogates (RE2 accepts `\x{D800}`) can be written but match nothing.
        case scalar(UInt32)
        case set(ScalarSet)
        case look(LookKind)
    }

    private mutating func parseEscape(flags: Flags) throws(RegexError) -> RegexNode {
        switch try parseEscapeSequence(flags: flags, inClass: false) {
        case .scalar(let codePoint):
            return literal(codePoint: codePoint, flags: flags)
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
            case "b": return .look(flags.unicodeClasses ? .wordBoundary : .wordBoundaryASCII)
            default: return .look(flags.unicodeClasses ? .notWordBoundary : .notWordBoundaryASCII)
            }
        case "d", "D", "w", "W", "s", "S":
            let set = perlClass(scalar, flags: flags)
            let closed = folded(set, flags)
            return .set(scalar.properties.isUppercase ? closed.inverted() : closed)
        case "p", "P":
            let (set, negated) = try parseProperty(escapeStart: start)
            let closed = folded(set, flags)
            return .set((scalar == "P") != negated ? closed.inverted() : closed)
        case "x", "u", "U":
            return .scalar(try parseHexEscape(kind: scalar, escapeStart: start))
        case "a": return .scalar(0x07)
        case "f": return .scalar(0x0C)
        case "t": return .scalar(0x09)
        case "n": return .scalar(0x0A)
        case "r": return .scalar(0x0D)
        case "v": return .scalar(0x0B)
        case "k":
            throw error("backreferences are not supported", at: start)
        case "0"..."7" where scalar == "0" || isOctalDigit(current):
            // Octal, as RE2 reads it: `\0` and up to two more digits, or `\1`-`\7` followed by at least one.
            var value = scalar.value - 0x30
            for _ in 0..<2 {
                guard let digit = current, isOctalDigit(digit) else { break }
                value = value * 8 + digit.value - 0x30
                position += 1
            }
            return .scalar(value)
        default:
            if scalar.value >= 0x30 && scalar.value <= 0x39 {
                throw error("backreferences are not supported (octal escapes are \\0 or three digits, as \\012)", at: start)
            }
            // Any ASCII character that is not a letter or a digit stands for itself, `_` included (as in RE2).
            if scalar.value < 0x80 && !scalar.properties.isAlphabetic {
                return .scalar(scalar.value)
            }
            throw error("unknown escape \\\(scalar)", at: start)
        }
    }

    private func isOctalDigit(_ scalar: Unicode.Scalar?) -> Bool {
        guard let scalar else { return false }
        return scalar.value >= 0x30 && scalar.value <= 0x37
    }

    /// `\d \w \s` (lower case; the caller negates upper case): ASCII as in RE2, Unicode under `(?u)`.
    private func perlClass(_ letter: Unicode.Scalar, flags: Flags) -> ScalarSet {
        switch letter {
        case "d", "D":
            return flags.unicodeClasses ? UnicodeClasses.digit : ScalarSet([0x30...0x39])
        case "w", "W":
            return flags.unicodeClasses ? UnicodeClasses.word : ScalarSet([0x30...0x39, 0x41...0x5A, 0x5F...0x5F, 0x61...0x7A])
        default:
            // RE2's `\s` is `[\t\n\f\r ]`: no vertical tab.
            return flags.unicodeClasses ? UnicodeClasses.space : ScalarSet([0x09...0x0A, 0x0C...0x0D, 0x20...0x20])
        }
    }

    private func folded(_ set: ScalarSet, _ flags: Flags) -> ScalarSet {
        flags.caseInsensitive ? UnicodeClasses.caseFolded(set) : set
    }

    /// Parses the name after `\p` or `\P`; returns its set and whether it was negated with `^` (`\p{^Greek}`).
    private mutating func parseProperty(escapeStart: Int) throws(RegexError) -> (ScalarSet, Bool) {
        guard let first = current else {
            throw error("\\p needs a property name", at: escapeStart)
        }
        var name = ""
        var negated = false
        if first == "{" {
            position += 1
            if current == "^" {
                negated = true
                position += 1
            }
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
            return (set, negated)
        }
        throw error(
            "unknown Unicode property '\(name)' (general categories such as L, Lu, Nd, scripts such as Greek, Han, Cyrillic, script extensions as scx=Greek, and Any are supported)",
            at: escapeStart)
    }

    /// Parses the digits of `\x` (`\xHH`, `\x{H...}`), or of the extensions `\u` (`\uHHHH`, `\u{H...}`) and `\U`.
    private mutating func parseHexEscape(kind: Unicode.Scalar, escapeStart: Int) throws(RegexError) -> UInt32 {
        var digits = ""
        if current == "{" {
            position += 1
            var value: UInt32 = 0
            while let scalar = current, scalar != "}" {
                guard scalar.value < 0x80, let digit = UInt32(String(scalar), radix: 16) else {
                    throw error("invalid hexadecimal digits in escape", at: escapeStart)
                }
                value = min(value &* 16 &+ digit, ScalarSet.maxScalar + 1)
                digits.unicodeScalars.append(scalar)
                position += 1
            }
            guard current == "}" else {
                throw error("unclosed hexadecimal escape", at: escapeStart)
            }
            position += 1
            guard !digits.isEmpty else {
                throw error("invalid hexadecimal escape", at: escapeStart)
            }
            guard value <= ScalarSet.maxScalar else {
                throw error("escape is above U+10FFFF", at: escapeStart)
            }
            return value
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
        guard let value = UInt32(digits, radix: 16), !digits.hasPrefix("+"), !digits.hasPrefix("-") else {
            throw error("invalid hexadecimal digits in escape", at: escapeStart)
        }
        guard value <= ScalarSet.maxScalar else {
            throw error("escape is above U+10FFFF", at: escapeStart)
        }
        return value
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
            // `[` is a literal inside a class (RE2 has no nested classes) unless it opens `[:name:]`.
            if scalar == "[", peek(1) == ":", let posix = try parsePOSIXClass(flags: flags) {
                ranges.append(contentsOf: posix.ranges)
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
                    guard low <= high else {
                        throw error("invalid class range: the start exceeds the end", at: itemStart)
                    }
                    ranges.append(low...high)
                } else {
                    ranges.append(low...low)
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
        return .scalar(scalar.value)
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
        // As RE2: the name runs to the next `:]`; without one, the `[` is a literal.
        var name = ""
        while index < scalars.count, !(scalars[index] == ":" && index + 1 < scalars.count && scalars[index + 1] == "]") {
            name.unicodeScalars.append(scalars[index])
            index += 1
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

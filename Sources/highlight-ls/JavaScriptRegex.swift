import PatternEngine

// A JavaScript regular expression (`new RegExp(source, flags)`, as VS Code extensions build them
// from settings) rewritten in the RE2 syntax of `.highlights.json`, one character at a time:
//
//     JavaScript                 RE2 (.highlights.json)
//     ^ $  (no m flag)           \A \z             the text's ends, not a line's
//     \s \S                      the class JavaScript means (Unicode spaces, \v, U+FEFF)
//     \v \0 \cJ \uXXXX \u{…}     \x{b} \x{0} \x{a} \x{xxxx}
//     (?<name>…)                 (?P<name>…)
//     [^]  [  inside a class     (?s:.)  \[
//     \e \z (no such escape)     e z               a letter escaped for nothing is the letter
//     (?= (?! (?<= (?<! \1 \k<n> none             left out and named, never rewritten in meaning
//
// The one look-around rewritten is `(?!\w)` right after a letter, digit or `_` written as itself
// (and `(?<!\w)` right before one), which is `\b` there: both tools read `\w` and `\b` as ASCII
// (unless the flags are `u` and `i` together, when JavaScript's `\w` takes in U+017F and U+212A).
// `.` and multi-line `^` `$` are kept: JavaScript also ends lines at U+2028 and U+2029, which are
// ordinary characters here (the README says so where it shows the command).

/// A JavaScript pattern in RE2 syntax, or why it cannot be.
struct JavaScriptRegexTranslation {
    /// Something in the pattern or its flags, at a UTF-8 offset in the pattern (nil for the flags).
    struct Problem {
        var patternUTF8Offset: Int?
        var construct: String
        var reason: String
        var nearest: String
        /// Whether the rule cannot be carried at all (look-around, a backreference), rather than carried as the nearest.
        var leavesRuleOut: Bool
    }

    /// The RE2 pattern; meaningful only when no problem leaves the rule out.
    var pattern: String
    var caseSensitive: Bool
    /// The capturing groups, in order, by number (named ones count too).
    var captureCount: Int
    var problems: [Problem]

    /// Whether the rule can be carried (perhaps as the nearest, with problems to name).
    var isUsable: Bool { !problems.contains { $0.leavesRuleOut } }
}

/// JavaScript patterns in RE2 terms.
enum JavaScriptRegex {
    /// The translation of `source` under `flags` (`"gi"`).
    ///
    /// - Complexity: O(*n*) in the length of the pattern.
    static func translate(_ source: String, flags: String) -> JavaScriptRegexTranslation {
        var translator = Translator(source: source, flags: flags)
        translator.run()
        return JavaScriptRegexTranslation(
            pattern: translator.out, caseSensitive: !translator.ignoreCase, captureCount: translator.captureCount,
            problems: translator.problems)
    }

    /// The characters JavaScript's `\s` matches (ECMAScript's WhiteSpace and LineTerminator), as the inside of a class.
    static let whiteSpaceClassBody = #"\t\n\x{b}\f\r \x{a0}\x{1680}\x{2000}-\x{200a}\x{2028}\x{2029}\x{202f}\x{205f}\x{3000}\x{feff}"#
}

/// The walk over one pattern.
private struct Translator {
    let scalars: [Unicode.Scalar]
    /// The UTF-8 offset of each scalar, and of the end.
    let offsets: [Int]
    var out = ""
    var problems: [JavaScriptRegexTranslation.Problem] = []
    var captureCount = 0
    var ignoreCase = false
    var multiline = false
    var dotAll = false
    var unicode = false
    /// Whether the last thing written is one ASCII word character standing for itself, with nothing repeating it.
    var lastIsWordLiteral = false
    var index = 0

    /// A walk over `source`, with its flags read (and the ones that have no counterpart named).
    init(source: String, flags: String) {
        scalars = Array(source.unicodeScalars)
        var offsets: [Int] = []
        var offset = 0
        for scalar in scalars {
            offsets.append(offset)
            offset += UTF8.width(scalar)
        }
        offsets.append(offset)
        self.offsets = offsets
        for flag in flags {
            switch flag {
            case "g", "d": break  // Every match is found anyway; `d` only reports group indices.
            case "i": ignoreCase = true
            case "m": multiline = true
            case "s": dotAll = true
            case "u": unicode = true
            case "y":
                problem(nil, "the flag y (sticky)", "a sticky regex matches only where the last match ended, which no rule can say",
                    nearest: "without y, matches anywhere", leavesRuleOut: true)
            case "v":
                problem(nil, "the flag v (unicodeSets)", "its class syntax (nested classes, -- and &&) has no counterpart",
                    nearest: "the flag u, when no class uses the set syntax", leavesRuleOut: true)
            default:
                problem(nil, "the flag \(flag)", "JavaScript has no such flag and would reject the regex",
                    nearest: "nothing", leavesRuleOut: true)
            }
        }
    }

    /// Names `construct` at scalar `at` of the pattern (nil for the flags).
    mutating func problem(_ at: Int?, _ construct: String, _ reason: String, nearest: String, leavesRuleOut: Bool) {
        problems.append(.init(
            patternUTF8Offset: at.map { offsets[min($0, offsets.count - 1)] }, construct: construct, reason: reason,
            nearest: nearest, leavesRuleOut: leavesRuleOut))
    }

    /// The scalar `ahead` places after `index`, if there is one.
    func peek(_ ahead: Int = 0) -> Unicode.Scalar? {
        index + ahead < scalars.count ? scalars[index + ahead] : nil
    }

    /// Whether the pattern continues with `text` at `index`.
    func continues(with text: String) -> Bool {
        var position = index
        for scalar in text.unicodeScalars {
            guard position < scalars.count, scalars[position] == scalar else { return false }
            position += 1
        }
        return true
    }

    /// Whether `scalar` is in `\w` as both JavaScript and RE2 read it without Unicode: `[0-9A-Za-z_]`.
    static func isASCIIWord(_ scalar: Unicode.Scalar) -> Bool {
        scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "_")
    }

    /// Translates the whole pattern into `out`.
    mutating func run() {
        while index < scalars.count {
            let scalar = scalars[index]
            switch scalar {
            case "\\": escape(inClass: false)
            case "(": group()
            case "[": characterClass()
            case "^":
                out += multiline ? "^" : #"\A"#
                index += 1
                lastIsWordLiteral = false
            case "$":
                out += multiline ? "$" : #"\z"#
                index += 1
                lastIsWordLiteral = false
            case ".":
                out += dotAll ? "(?s:.)" : "."
                index += 1
                lastIsWordLiteral = false
            case "*", "+", "?", "{", "}", "|", ")":
                out.unicodeScalars.append(scalar)
                index += 1
                lastIsWordLiteral = false
            default:
                literal(scalar, following: peek(1))
                index += 1
            }
        }
    }

    /// A character standing for itself, escaped where RE2 would read it otherwise; `following` is what the pattern
    /// has after it, which may make it optional.
    mutating func literal(_ scalar: Unicode.Scalar, following: Unicode.Scalar?) {
        out += RegexEscaping.escaped(String(scalar))
        lastIsWordLiteral = Self.isASCIIWord(scalar) && !(following.map { "*?{".unicodeScalars.contains($0) } ?? false)
    }

    /// A group's opening at `index`: look-around is named (or, in the one exact case, made `\b`), a named group gets RE2's `(?P<`.
    mutating func group() {
        let start = index
        if continues(with: #"(?!\w)"#), lastIsWordLiteral, !(unicode && ignoreCase) {
            out += #"\b"#
            index += 6
            lastIsWordLiteral = false
            return
        }
        if continues(with: #"(?<!\w)"#), !(unicode && ignoreCase), let next = scalars.dropFirst(index + 7).first,
            Self.isASCIIWord(next), !(scalars.dropFirst(index + 8).first.map { "*?{".unicodeScalars.contains($0) } ?? false)
        {
            out += #"\b"#
            index += 7
            return
        }
        lastIsWordLiteral = false
        for (opening, kind, nearest) in [
            ("(?<=", "look-behind", "match what it requires as part of the rule (the highlight then covers it too)"),
            ("(?<!", "negative look-behind", "\\b when it forbids \\w before a word character; else leave it out, which matches more"),
            ("(?=", "look-ahead", "match what it requires as part of the rule (the highlight then covers it too)"),
            ("(?!", "negative look-ahead", "\\b when it forbids \\w after a word character; else leave it out, which matches more"),
        ] where continues(with: opening) {
            problem(start, "the \(kind) \(groupText(from: start))", "RE2 has no look-around, so the rule is left out",
                nearest: nearest, leavesRuleOut: true)
            out += "(?:"
            index += opening.unicodeScalars.count
            return
        }
        if continues(with: "(?<") {
            out += "(?P<"
            index += 3
            captureCount += 1
            return
        }
        if continues(with: "(?") {
            out += "(?"
            index += 2
            return
        }
        out += "("
        index += 1
        captureCount += 1
    }

    /// The group that starts at `start`, as written, to name it (cut short when long).
    func groupText(from start: Int) -> String {
        var depth = 0
        var end = start
        var escaped = false
        while end < scalars.count {
            let scalar = scalars[end]
            end += 1
            if escaped { escaped = false; continue }
            if scalar == "\\" { escaped = true } else if scalar == "(" { depth += 1 } else if scalar == ")" {
                depth -= 1
                if depth == 0 { break }
            }
        }
        return String(String.UnicodeScalarView(scalars[start..<end])).abbreviated
    }

    /// A class at `index`, with JavaScript's `[^]`, `[]` and a literal `[` inside said in RE2 terms.
    mutating func characterClass() {
        let start = index
        index += 1
        lastIsWordLiteral = false
        if peek() == "]" {
            problem(start, "the empty class []", "it matches nothing, and RE2 has no way to write that", nearest: "nothing", leavesRuleOut: true)
            index += 1
            return
        }
        if peek() == "^", peek(1) == "]" {
            out += "(?s:.)"
            index += 2
            return
        }
        out += "["
        if peek() == "^" {
            out += "^"
            index += 1
        }
        while let scalar = peek(), scalar != "]" {
            switch scalar {
            case "\\": escape(inClass: true)
            case "[":
                out += #"\["#
                index += 1
            default:
                out.unicodeScalars.append(scalar)
                index += 1
            }
        }
        out += "]"
        index += 1
        lastIsWordLiteral = false
    }

    /// An escape at `index`, inside a class or not.
    mutating func escape(inClass: Bool) {
        let start = index
        guard let next = peek(1) else {
            problem(start, "a \\ at the end", "JavaScript rejects the regex", nearest: "nothing", leavesRuleOut: true)
            index += 1
            return
        }
        index += 2
        lastIsWordLiteral = false
        switch next {
        case "d", "D", "w", "W", "t", "n", "r", "f":
            out += "\\" + String(next)
        case "b", "B":
            out += inClass ? (next == "b" ? #"\x{8}"# : "B") : "\\" + String(next)
        case "s":
            out += inClass ? JavaScriptRegex.whiteSpaceClassBody : "[\(JavaScriptRegex.whiteSpaceClassBody)]"
        case "S":
            if inClass {
                problem(start, "\\S inside a class", "JavaScript's \\S leaves out Unicode spaces too, and a class cannot hold the complement",
                    nearest: "RE2's \\S (only ASCII spaces left out), used", leavesRuleOut: false)
                out += #"\S"#
            } else {
                out += "[^\(JavaScriptRegex.whiteSpaceClassBody)]"
            }
        case "v": out += #"\x{b}"#
        case "0" where !(peek().map { ("0"..."9").contains($0) } ?? false): out += #"\x{0}"#
        case "1"..."9":
            problem(start, "the backreference \\\(next)", "RE2 has no backreferences, so the rule is left out",
                nearest: "repeat the group's pattern in its place (which matches more)", leavesRuleOut: true)
        case "k" where peek() == "<":
            problem(start, "the backreference \\k<…>", "RE2 has no backreferences, so the rule is left out",
                nearest: "repeat the group's pattern in its place (which matches more)", leavesRuleOut: true)
            while let scalar = peek(), scalar != ">" { index += 1 }
            index += 1
        case "c" where peek().map({ $0.isASCII && $0.properties.isAlphabetic }) ?? false:
            let letter = peek()?.value ?? 0
            out += "\\x{\(String(letter % 32, radix: 16))}"
            index += 1
        case "x":
            if let value = hexValue(digits: 2) {
                out += "\\x{\(String(value, radix: 16))}"
            } else {
                literal("x", following: peek())
            }
        case "u":
            if unicode, peek() == "{", let close = scalars[index...].firstIndex(of: "}"),
                let value = valueOfHexDigits(scalars[(index + 1)..<close])
            {
                out += "\\x{\(String(value, radix: 16))}"
                index = close + 1
            } else if let high = hexValue(digits: 4) {
                if (0xD800..<0xDC00).contains(high), continues(with: "\\u"), let low = peekHex(at: index + 2, digits: 4),
                    (0xDC00..<0xE000).contains(low)
                {
                    index += 6
                    out += "\\x{\(String(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00), radix: 16))}"
                } else {
                    out += "\\x{\(String(high, radix: 16))}"
                }
            } else {
                literal("u", following: peek())
            }
        case "p", "P":
            if unicode, peek() == "{", let close = scalars[index...].firstIndex(of: "}") {
                out += "\\" + String(next) + String(String.UnicodeScalarView(scalars[index...close]))
                index = close + 1
            } else {
                literal(next, following: peek())
            }
        default:
            if next.isASCII, !(next.properties.isAlphabetic || ("0"..."9").contains(next)) {
                // Punctuation escaped stands for itself in both; RE2 takes the escape as written.
                out += "\\" + String(next)
            } else if inClass {
                out.unicodeScalars.append(next)
            } else {
                // JavaScript without `u` reads an escape that means nothing (`\e`, `\z`) as the letter itself.
                literal(next, following: peek())
            }
        }
    }

    /// The value of `digits` hex digits at `index`, consumed; nil (nothing consumed) when they are not there.
    mutating func hexValue(digits: Int) -> UInt32? {
        guard let value = peekHex(at: index, digits: digits) else { return nil }
        index += digits
        return value
    }

    /// The value of `digits` hex digits at `position`, not consumed.
    func peekHex(at position: Int, digits: Int) -> UInt32? {
        guard position + digits <= scalars.count else { return nil }
        return valueOfHexDigits(scalars[position..<(position + digits)])
    }

}

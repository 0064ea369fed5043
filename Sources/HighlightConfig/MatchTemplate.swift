// Templates for a rule's `message` and `link`, filled in from each match.
//
//     "https://tracker.example/browse/$0"      $0 is the whole match
//     "assigned to $1"                         $1 ... $9 are numbered groups
//     "assigned to ${owner}, see ${12}"        ${name} and ${number} for any group
//     "costs $$5"                              $$ is a dollar sign
//
// A template is checked against its rule's regex when the configuration is read, so a reference
// to a group the regex does not have is reported there, with its line and column, and filling
// a template in never fails: a group that did not take part in a match is the empty string.

/// A `message` or `link` template with `$0`, `$1`, `${name}` references to a match's groups.
public struct MatchTemplate: Sendable, Hashable {
    /// A piece of the template: text as written, or a reference to a group by number.
    enum Part: Sendable, Hashable {
        case text(String)
        case group(Int)
    }

    /// The template as written.
    public let source: String
    let parts: [Part]

    /// Why a template is not valid, and where in it (a 0-based UTF-8 offset into the template).
    struct SyntaxError: Error, Sendable, Hashable {
        /// A sentence for people.
        public var message: String
        /// The offset of the `$` that starts the bad reference.
        var templateUTF8Offset: Int
    }

    /// Parses `source`, resolving group names with `captureNames` (index 0 is the whole match,
    /// as `CompiledRegex.captureNames` gives them; `[nil]` for a rule of words).
    init(_ source: String, captureNames: [String?]) throws(SyntaxError) {
        self.source = source
        let bytes = Array(source.utf8)
        let groupCount = max(captureNames.count, 1)
        var parts: [Part] = []
        var literal: [UInt8] = []
        var index = 0
        func flushLiteral() {
            if !literal.isEmpty { parts.append(.text(String(decoding: literal, as: UTF8.self))) }
            literal.removeAll()
        }
        while index < bytes.count {
            let byte = bytes[index]
            guard byte == UInt8(ascii: "$") else {
                literal.append(byte)
                index += 1
                continue
            }
            let start = index
            guard index + 1 < bytes.count else {
                throw SyntaxError(message: "a lone \"$\" at the end; write $$ for a dollar sign", templateUTF8Offset: start)
            }
            let next = bytes[index + 1]
            var group: Int
            var reference: String
            if next == UInt8(ascii: "$") {
                literal.append(next)
                index += 2
                continue
            } else if Self.isDigit(next) {
                group = Int(next - UInt8(ascii: "0"))
                reference = "$" + String(UnicodeScalar(next))
                index += 2
            } else if next == UInt8(ascii: "{") {
                guard let close = bytes[(index + 2)...].firstIndex(of: UInt8(ascii: "}")) else {
                    throw SyntaxError(message: "\"${\" without a closing \"}\"", templateUTF8Offset: start)
                }
                let name = String(decoding: bytes[(index + 2)..<close], as: UTF8.self)
                reference = "${\(name)}"
                index = close + 1
                if !name.isEmpty, name.utf8.allSatisfy(Self.isDigit) {
                    guard name.utf8.count <= 6, let number = Int(name) else {
                        throw SyntaxError(message: "\(reference): no such group", templateUTF8Offset: start)
                    }
                    group = number
                } else if let found = captureNames.firstIndex(where: { $0 == name }), !name.isEmpty {
                    group = found
                } else {
                    let known = captureNames.compactMap { $0 }
                    let hint = known.isEmpty ? "the regex has no named groups" : "named groups: " + known.joined(separator: ", ")
                    throw SyntaxError(message: "\(reference): no group of that name (\(hint))", templateUTF8Offset: start)
                }
            } else {
                let shown = String(decoding: bytes[index..<min(index + 2, bytes.count)], as: UTF8.self)
                throw SyntaxError(
                    message: "\"\(shown)\": write $0 to $9, ${number} or ${name} for a group, or $$ for a dollar sign",
                    templateUTF8Offset: start)
            }
            guard group < groupCount else {
                let has = groupCount == 1 ? "only $0, the whole match" : "groups 0 to \(groupCount - 1)"
                throw SyntaxError(message: "\(reference): no such group (the rule has \(has))", templateUTF8Offset: start)
            }
            flushLiteral()
            parts.append(.group(group))
        }
        flushLiteral()
        self.parts = parts
    }

    /// The highest group the template refers to (0 when it refers to none, or only to the whole match).
    public var highestGroup: Int {
        parts.reduce(0) { highest, part in
            if case .group(let group) = part { return max(highest, group) }
            return highest
        }
    }

    /// The template with each reference replaced by `groupText(group)`; `nil` (a group that did
    /// not take part) is the empty string. `encode` is applied to substituted text only.
    public func filled(groupText: (Int) -> String?, encode: (String) -> String = { $0 }) -> String {
        var result = ""
        for part in parts {
            switch part {
            case .text(let text): result += text
            case .group(let group): result += encode(groupText(group) ?? "")
            }
        }
        return result
    }

    /// Percent-encodes every byte except ASCII letters, digits and `-._~`, for text put into a link.
    public static func percentEncoded(_ text: String) -> String {
        var result = ""
        for byte in text.utf8 {
            if Self.isDigit(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) || byte == UInt8(ascii: "-")
                || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "~")
            {
                result.unicodeScalars.append(UnicodeScalar(byte))
            } else {
                result += "%" + String(byte >> 4, radix: 16, uppercase: true) + String(byte & 0x0f, radix: 16, uppercase: true)
            }
        }
        return result
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }
}

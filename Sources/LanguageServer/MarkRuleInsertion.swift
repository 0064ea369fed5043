import HighlightConfig
import JSONValue

/// Where and what to insert into a `.highlights.json` text so that it gains one rule, leaving
/// every other byte (comments, trailing commas, order, indentation) as it was.
///
/// The text is parsed with the lenient parser and its source map; the new rule goes first in
/// `rules`, on a line of its own when the existing rules are one per line:
///
///     {                              {
///       // the team's words            // the team's words
///       "rules": [          ──▶        "rules": [
///         { "name": "x", … },            { "name": "deadline", … },
///       ],                               { "name": "x", … },
///     }                                ],
///                                    }
///
/// A file without `rules` gets the key as its first member. Going first keeps the insertion point
/// at a byte the source map knows (the `[` or the `{`), so no comment or comma between the last
/// rule and the closing bracket has to be understood.
public enum MarkRuleInsertion {
    /// One insertion: `text` goes at `utf8Offset` of the original text.
    public struct Insertion: Equatable {
        public var utf8Offset: Int
        public var text: String
    }

    /// The rule written for a marked text: a readable name, the text as a literal word, and a
    /// style of its own written inline, so that the file means the same to every tool that reads it.
    static func ruleText(name: String, text: String, wholeWord: Bool, style: Style) -> String {
        var members = ["\"name\": \(JSON.string(name).jsonText)", "\"words\": [\(JSON.string(text).jsonText)]"]
        if wholeWord { members.append("\"wholeWord\": true") }
        var styleMembers: [String] = []
        if let color = style.color { styleMembers.append("\"color\": \"\(color.hexStringOmittingOpaqueAlpha)\"") }
        if let background = style.backgroundColor { styleMembers.append("\"backgroundColor\": \"\(background.hexStringOmittingOpaqueAlpha)\"") }
        if !styleMembers.isEmpty { members.append("\"style\": { \(styleMembers.joined(separator: ", ")) }") }
        return "{ " + members.joined(separator: ", ") + " }"
    }

    /// The whole text of a new `.highlights.json` holding one rule.
    static func newFileText(rule: String) -> String {
        "{\n  \"rules\": [\n    \(rule)\n  ]\n}\n"
    }

    /// The rule names a configuration text already uses; nil when it is not a JSON object.
    public static func ruleNames(in utf8: [UInt8]) -> Set<String>? {
        guard let root = try? JSONParser.parse(utf8, options: .lenient), root.objectValue != nil else { return nil }
        return Set((root["rules"]?.arrayValue ?? []).compactMap { $0["name"]?.stringValue })
    }

    /// The insertion that adds `rule` to the configuration text `utf8`; nil when the text is not
    /// a JSON object or its `rules` is not an array (the file needs a person's eye first).
    ///
    /// - Complexity: O(*n*) in the length of the text, to parse it.
    public static func insertion(ofRule rule: String, into utf8: [UInt8]) -> Insertion? {
        guard let (root, map) = try? JSONParser.parseWithLocations(utf8, options: .lenient),
              let members = root.objectValue, let rootOffset = map.utf8Offset(ofValueAt: []) else { return nil }
        if let rules = members["rules"] {
            guard let elements = rules.arrayValue, let bracket = map.utf8Offset(ofValueAt: [.key("rules")]) else { return nil }
            let keyIndent = indentation(ofLineAt: map.utf8Offset(ofKeyAt: [.key("rules")]) ?? bracket, in: utf8) ?? ""
            guard !elements.isEmpty, let first = map.utf8Offset(ofValueAt: [.key("rules"), .index(0)]) else {
                return Insertion(utf8Offset: bracket + 1, text: "\n\(keyIndent)  \(rule)\n\(keyIndent)")
            }
            if let elementIndent = indentation(ofLineAt: first, in: utf8), lineStart(of: first, in: utf8) > bracket {
                // One rule per line: the new rule gets a line of its own right after the bracket.
                return Insertion(utf8Offset: bracket + 1, text: "\n\(elementIndent)\(rule),")
            }
            return Insertion(utf8Offset: bracket + 1, text: " \(rule),")
        }
        let firstKey = members.keys.compactMap { map.utf8Offset(ofKeyAt: [.key($0)]) }.min()
        guard let firstKey else {
            return Insertion(utf8Offset: rootOffset + 1, text: "\n  \"rules\": [\n    \(rule)\n  ]\n")
        }
        if let indent = indentation(ofLineAt: firstKey, in: utf8), lineStart(of: firstKey, in: utf8) > rootOffset {
            return Insertion(utf8Offset: rootOffset + 1, text: "\n\(indent)\"rules\": [\n\(indent)  \(rule)\n\(indent)],")
        }
        return Insertion(utf8Offset: rootOffset + 1, text: " \"rules\": [ \(rule) ],")
    }

    /// A readable rule name for a marked text, unused among `taken`: the text's letters and digits
    /// in lower case, joined by `-` (`Deadline` → `deadline`, `a.b(c)` → `a-b-c`), with `-2`, `-3`…
    /// added when the name is taken.
    public static func ruleName(for text: String, taken: Set<String>) -> String {
        var slug = ""
        for scalar in text.lowercased().unicodeScalars {
            if scalar.isASCII, scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) {
                slug.unicodeScalars.append(scalar)
            } else if !slug.isEmpty, !slug.hasSuffix("-") {
                slug += "-"
            }
            if slug.count >= 40 { break }
        }
        while slug.hasSuffix("-") { slug.removeLast() }
        if slug.first.map({ !$0.isLetter }) ?? true { slug = slug.isEmpty ? "word" : "word-" + slug }
        var name = slug
        var number = 2
        while taken.contains(name) {
            name = "\(slug)-\(number)"
            number += 1
        }
        return name
    }

    /// The offset where the line holding `utf8Offset` starts.
    private static func lineStart(of utf8Offset: Int, in utf8: [UInt8]) -> Int {
        var start = min(utf8Offset, utf8.count)
        while start > 0, utf8[start - 1] != UInt8(ascii: "\n"), utf8[start - 1] != UInt8(ascii: "\r") { start -= 1 }
        return start
    }

    /// The spaces and tabs before `utf8Offset` on its line, or nil when anything else comes first.
    private static func indentation(ofLineAt utf8Offset: Int, in utf8: [UInt8]) -> String? {
        let start = lineStart(of: utf8Offset, in: utf8)
        let prefix = utf8[start..<min(utf8Offset, utf8.count)]
        guard prefix.allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }) else { return nil }
        return String(decoding: prefix, as: UTF8.self)
    }
}

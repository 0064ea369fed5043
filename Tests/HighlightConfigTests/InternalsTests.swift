import JSONValue
import Testing

@testable import HighlightConfig

/// The small pieces behind the messages: escape mapping, key suggestions, rule names, line location.
@Suite struct InternalsTests {
    /// `literal` is the string literal as written in the file (with its quotes); `expected` maps
    /// decoded offsets to offsets into `literal`.
    @Test(arguments: [
        (#""abc""#, [(0, 1), (1, 2), (2, 3), (3, 4), (9, 4)]),
        (#""\\d)""#, [(0, 1), (1, 3), (2, 4), (3, 5)]),
        (#""a\"b""#, [(0, 1), (1, 2), (2, 4)]),
        (#""\u00e9x""#, [(0, 1), (1, 1), (2, 7)]),
        (#""\u20acx""#, [(0, 1), (2, 1), (3, 7)]),
        (#""\ud83d\ude00x""#, [(0, 1), (3, 1), (4, 13)]),
        (#""\ud83dx""#, [(2, 1), (3, 7)]),
        ("\"éx\"", [(0, 1), (1, 2), (2, 3), (3, 4)]),
    ] as [(String, [(Int, Int)])])
    func mapsDecodedOffsetsThroughEscapes(_ literal: String, _ expected: [(Int, Int)]) {
        let bytes = Array(("  " + literal + " ").utf8)
        for (decoded, inLiteral) in expected {
            let offset = JSONStringLiteral.fileUTF8Offset(ofDecodedUTF8Offset: decoded, literalUTF8Offset: 2, in: bytes)
            #expect(offset == inLiteral + 2, "\(literal) decoded offset \(decoded)")
        }
    }

    @Test func offsetOutsideALiteralIsReturnedUnchanged() {
        let bytes = Array("abc".utf8)
        #expect(JSONStringLiteral.fileUTF8Offset(ofDecodedUTF8Offset: 1, literalUTF8Offset: 1, in: bytes) == 1)
        #expect(JSONStringLiteral.fileUTF8Offset(ofDecodedUTF8Offset: 1, literalUTF8Offset: 9, in: bytes) == 9)
        #expect(JSONStringLiteral.fileUTF8Offset(ofDecodedUTF8Offset: 5, literalUTF8Offset: 0, in: Array("\"ab".utf8)) == 3)
    }

    @Test(arguments: [
        ("colour", ConfigKeys.style, "color"),
        ("backgroundColour", ConfigKeys.style, "backgroundColor"),
        ("background-color", ConfigKeys.style, "backgroundColor"),
        ("strikeThrough", ConfigKeys.style, "strikethrough"),
        ("case_sensitive", ConfigKeys.rule, "caseSensitive"),
        ("regexp", ConfigKeys.rule, "regex"),
        ("word", ConfigKeys.rule, "words"),
        ("rule", ConfigKeys.topLevel, "rules"),
        ("default", ConfigKeys.topLevel, "defaults"),
        ("pattern", ConfigKeys.rule, nil),
        ("x", ConfigKeys.rule, nil),
        ("", ConfigKeys.rule, nil),
    ] as [(String, [String], String?)])
    func suggestsCloseKeys(_ key: String, _ known: [String], _ expected: String?) {
        #expect(ConfigKeys.suggestion(for: key, among: known) == expected)
    }

    @Test(arguments: [
        ("a", true), ("todo", true), ("my.rule-name_2", true), ("A9", true),
        ("", false), ("9a", false), ("_a", false), (".a", false), ("a b", false), ("é", false), ("a/b", false),
    ])
    func ruleNames(_ name: String, _ valid: Bool) {
        #expect(RuleName.isValid(name) == valid)
    }

    @Test func diagnosticDescriptions() {
        #expect(ConfigDiagnostic(severity: .error, message: "m", source: "f", line: 3, column: 14).description == "f:3:14: m")
        #expect(ConfigDiagnostic(severity: .error, message: "m", source: "f", line: 3).description == "f:3: m")
        #expect(ConfigDiagnostic(severity: .warning, message: "m", source: "settings").description == "settings: m")
    }
}

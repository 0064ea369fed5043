import JSONValue
import Testing

@testable import HighlightConfig

/// Reading one layer: valid files, every kind of mistake with its message and position, and
/// what survives each mistake.
@Suite struct ConfigLayerParsingTests {
    /// The example of the configuration reference, with comments and trailing commas.
    static let example = """
        {
          "$schema": "https://example.invalid/highlights.schema.json", // ignored
          "defaults": true,                 // include the built-in rules (default true)
          "styles": { "warning": { "color": "#000", "backgroundColor": "#ffcc00", "bold": true } },
          /* Rules, first wins ties. */
          "rules": [
            { "name": "todo",   "words": ["TODO", "FIXME"], "style": "warning" },
            { "name": "ticket", "regex": "\\\\b[A-Z]{2,}-[0-9]+\\\\b", "style": { "color": "#3b82f6", "underline": true } },
            { "name": "cafe",   "words": ["café"], "caseSensitive": false, "wholeWord": true },
          ],
        }
        """

    @Test func parsesTheExample() {
        let (layer, diagnostics) = Support.parseFile(Self.example)
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        guard let layer else {
            Issue.record("no layer")
            return
        }
        #expect(layer.defaults == true)
        #expect(layer.styles == [
            "warning": Style(
                color: RGBAColor(red: 0, green: 0, blue: 0), backgroundColor: RGBAColor(red: 0xff, green: 0xcc, blue: 0),
                bold: true)
        ])
        #expect(layer.rules.map(Support.describe) == [
            "todo: words TODO,FIXME",
            #"ticket: regex \b[A-Z]{2,}-[0-9]+\b"#,
            "cafe: words café ignoring case whole word",
        ])
        #expect(layer.rules.map(\.style) == [
            .named("warning"),
            .inline(Style(color: RGBAColor(red: 0x3b, green: 0x82, blue: 0xf6), underline: true)),
            nil,
        ])
    }

    @Test func emptyAndNullConfigurations() {
        for text in ["{}", "null", "  {  } // nothing\n", "\u{FEFF}{}"] {
            let (layer, diagnostics) = Support.parseFile(text)
            #expect(layer != nil, "\(text)")
            #expect(layer?.rules.isEmpty == true)
            #expect(layer?.defaults == nil)
            #expect(diagnostics.isEmpty, "\(diagnostics)")
        }
    }

    @Test func defaultsFalseAndDisabledRuleWithoutPattern() {
        let layer = Support.layer(#"{ "defaults": false, "rules": [ { "name": "note", "enabled": false } ] }"#)
        #expect(layer.defaults == false)
        #expect(layer.rules.map(Support.describe) == ["note: no pattern disabled"])
    }

    /// One mistake per case: the expected messages (a trailing `*` makes an expected message a
    /// prefix), and the rules and styles that survive.
    struct MistakeCase: CustomTestStringConvertible, Sendable {
        var name: String
        var text: String
        var diagnostics: [String]
        var rules: [String] = []
        var styles: [String: Style]? = nil
        var testDescription: String { name }
    }

    static let mistakes: [MistakeCase] = [
        MistakeCase(
            name: "unknown key in a style, with a suggestion",
            text: """
                {
                  "styles": {
                    "warning": { "colour": "#000", "bold": true }
                  }
                }
                """,
            diagnostics: [#".highlights.json:3:18: unknown key "colour" in style "warning" (did you mean "color"?)"#],
            styles: ["warning": Style(bold: true)]),
        MistakeCase(
            name: "unknown top-level key",
            text: """
                {
                  "rule": [],
                  "colours": {}
                }
                """,
            diagnostics: [
                #".highlights.json:2:3: unknown top-level key "rule" (did you mean "rules"?)"#,
                #".highlights.json:3:3: unknown top-level key "colours" (did you mean "colors"?)"#,
            ]),
        MistakeCase(
            name: "unknown key in a rule drops that rule only",
            text: """
                {
                  "rules": [
                    { "name": "a", "words": ["A"] },
                    { "name": "cafe", "words": ["café"], "casesensitive": false },
                    { "name": "b", "words": ["B"], "case_sensitive": false },
                    { "name": "c", "words": ["C"] },
                  ]
                }
                """,
            diagnostics: [
                #".highlights.json:4:42: rule "cafe": unknown key "casesensitive" (did you mean "caseSensitive"?)"#,
                #".highlights.json:5:36: rule "b": unknown key "case_sensitive" (did you mean "caseSensitive"?)"#,
            ],
            rules: ["a: words A", "c: words C"]),
        MistakeCase(
            name: "unknown key in an inline style drops the key, not the rule",
            text: #"{ "rules": [ { "name": "a", "words": ["A"], "style": { "bold": true, "undrline": true } } ] }"#,
            diagnostics: [#".highlights.json:1:70: unknown key "undrline" in style of rule "a" (did you mean "underline"?)"#],
            rules: ["a: words A"]),
        MistakeCase(
            name: "wrong types in a rule",
            text: """
                {
                  "rules": [
                    { "name": "a", "words": ["A"], "caseSensitive": "yes" },
                    { "name": "b", "words": ["B"], "wholeWord": 1 },
                    { "name": "c", "words": ["C"], "enabled": null },
                    { "name": "d", "words": "D" },
                    { "name": "e", "regex": ["E"] },
                    { "name": "f", "words": ["F"], "style": 3 },
                    { "name": "g", "words": ["G"], "style": "" },
                    { "name": "h", "words": ["H"] }
                  ]
                }
                """,
            diagnostics: [
                #".highlights.json:3:53: rule "a": "caseSensitive" must be true or false, not a string"#,
                #".highlights.json:4:49: rule "b": "wholeWord" must be true or false, not a number"#,
                #".highlights.json:5:47: rule "c": "enabled" must be true or false, not null"#,
                #".highlights.json:6:29: rule "d": "words" must be an array of strings, not a string"#,
                #".highlights.json:7:29: rule "e": "regex" must be a non-empty string, not an array"#,
                #".highlights.json:8:45: rule "f": "style" must be a style name or a style object, not a number"#,
                #".highlights.json:9:45: rule "g": "style" must be a style name or a style object, not an empty string"#,
            ],
            rules: ["h: words H"]),
        MistakeCase(
            name: "bad words",
            text: """
                {
                  "rules": [
                    { "name": "a", "words": [] },
                    { "name": "b", "words": ["B", ""] },
                    { "name": "c", "words": ["C", 7] },
                    { "name": "d", "words": ["D"] }
                  ]
                }
                """,
            diagnostics: [
                #".highlights.json:3:29: rule "a": "words" must not be empty"#,
                #".highlights.json:4:35: rule "b": words[1] must be a non-empty string, not an empty string"#,
                #".highlights.json:5:35: rule "c": words[1] must be a non-empty string, not a number"#,
            ],
            rules: ["d: words D"]),
        MistakeCase(
            name: "bad colours and style attributes drop only the attribute",
            text: """
                {
                  "styles": {
                    "s": { "color": "red", "backgroundColor": "#12", "borderColor": 5, "bold": "yes", "italic": true }
                  }
                }
                """,
            diagnostics: [
                ##".highlights.json:3:21: style "s": "color" must be a colour "#rgb", "#rgba", "#rrggbb" or "#rrggbbaa", not "red""##,
                ##".highlights.json:3:47: style "s": "backgroundColor" must be a colour "#rgb", "#rgba", "#rrggbb" or "#rrggbbaa", not "#12""##,
                ##".highlights.json:3:69: style "s": "borderColor" must be a colour "#rgb", "#rgba", "#rrggbb" or "#rrggbbaa", not a number"##,
                #".highlights.json:3:80: style "s": "bold" must be true or false, not a string"#,
            ],
            styles: ["s": Style(italic: true)]),
        MistakeCase(
            name: "a style that is not an object, and an empty style name",
            text: ##"{ "styles": { "s": "#fff", "": {}, "t": {} } }"##,
            diagnostics: [
                #".highlights.json:1:20: style "s" must be an object, not a string"#,
                #".highlights.json:1:28: a style name must not be empty"#,
            ],
            styles: ["t": Style()]),
        MistakeCase(
            name: "invalid regex points into the string, through escapes",
            text: """
                {
                  "rules": [
                    { "name": "ticket", "regex": "\\\\d)" },
                    { "name": "ok", "regex": "\\\\d+" }
                  ]
                }
                """,
            diagnostics: [#".highlights.json:3:38: rule "ticket": invalid regex: *"#],
            rules: [#"ok: regex \d+"#]),
        MistakeCase(
            name: "a regex over the compile budget is an error at the pattern; the other rules work",
            text: """
                {
                  "rules": [
                    { "name": "letters", "regex": "\\\\pL{280}" },
                    { "name": "ok", "regex": "\\\\d+" }
                  ]
                }
                """,
            diagnostics: [#".highlights.json:3:40: rule "letters": pattern too large: more than *"#],
            rules: [#"ok: regex \d+"#]),
        MistakeCase(
            name: "invalid regex: look-around",
            text: """
                {
                  "rules": [
                    { "name": "ticket", "regex": "\\\\d+(?=x)" },
                  ]
                }
                """,
            diagnostics: [#".highlights.json:3:39: rule "ticket": invalid regex: *"#]),
        MistakeCase(
            name: "bad rule names",
            text: """
                {
                  "rules": [
                    { "name": "my rule", "words": ["A"] },
                    { "name": "1st", "words": ["A"] },
                    { "name": "", "words": ["A"] },
                    { "name": "naïve", "words": ["A"] },
                    { "name": 5, "words": ["A"] },
                    { "words": ["A"] },
                    { "name": "a.b_c-D9", "words": ["A"] }
                  ]
                }
                """,
            diagnostics: [
                #".highlights.json:3:15: rules[0]: rule name "my rule" must be a letter followed by letters, digits, "_", "." or "-""#,
                #".highlights.json:4:15: rules[1]: rule name "1st" must be a letter followed by letters, digits, "_", "." or "-""#,
                #".highlights.json:5:15: rules[2]: rule name "" must be a letter followed by letters, digits, "_", "." or "-""#,
                #".highlights.json:6:15: rules[3]: rule name "naïve" must be a letter followed by letters, digits, "_", "." or "-""#,
                #".highlights.json:7:15: rules[4]: "name" must be a string, not a number"#,
                #".highlights.json:8:5: rules[5]: missing "name""#,
            ],
            rules: ["a.b_c-D9: words A"]),
        MistakeCase(
            name: "both and neither of words and regex",
            text: """
                {
                  "rules": [
                    { "name": "both", "words": ["A"], "regex": "a" },
                    { "name": "neither", "caseSensitive": false },
                    { "name": "off", "enabled": false }
                  ]
                }
                """,
            diagnostics: [
                #".highlights.json:3:39: rule "both": has both "words" and "regex"; a rule uses one of them (split it into two rules)"#,
                #".highlights.json:4:5: rule "neither": needs "words" (a list of literal words) or "regex" (a pattern)"#,
            ],
            rules: ["off: no pattern disabled"]),
        MistakeCase(
            name: "a broken rule that is switched off still switches its name off",
            text: #"{ "rules": [ { "name": "todo", "enabled": false, "words": [] } ] }"#,
            diagnostics: [#".highlights.json:1:59: rule "todo": "words" must not be empty"#],
            rules: ["todo: no pattern disabled"]),
        MistakeCase(
            name: "duplicate rule names: the first wins",
            text: """
                {
                  "rules": [
                    { "name": "a", "words": ["A"] },
                    { "name": "a", "words": ["B"] }
                  ]
                }
                """,
            diagnostics: [#".highlights.json:4:15: rule "a": a rule of this name is already defined above (line 3); this one is ignored"#],
            rules: ["a: words A"]),
        MistakeCase(
            name: "wrong top-level types",
            text: """
                {
                  "defaults": "no",
                  "styles": [],
                  "rules": {},
                }
                """,
            diagnostics: [
                #".highlights.json:2:15: "defaults" must be true or false, not a string"#,
                #".highlights.json:3:13: "styles" must be an object of styles by name, not an array"#,
                #".highlights.json:4:12: "rules" must be an array of rules, not an object"#,
            ],
            styles: [:]),
        MistakeCase(
            name: "a rule that is not an object",
            text: #"{ "rules": [ "TODO", { "name": "a", "words": ["A"] } ] }"#,
            diagnostics: [#".highlights.json:1:14: rules[0] must be an object, not a string"#],
            rules: ["a: words A"]),
    ]

    @Test(arguments: mistakes)
    func reportsMistakesAndKeepsTheRest(_ mistake: MistakeCase) {
        let (layer, diagnostics) = Support.parseFile(mistake.text)
        Support.checkDiagnostics(diagnostics, mistake.diagnostics)
        #expect(layer?.rules.map(Support.describe) == mistake.rules)
        if let styles = mistake.styles {
            #expect(layer?.styles == styles)
        }
    }

    @Test func severities() {
        let (_, diagnostics) = Support.parseFile("""
            { "colour": 1, "styles": { "s": { "bold": 1, "x": true } }, "rules": [ { "name": "a", "x": 1, "words": ["A"] } ] }
            """)
        #expect(diagnostics.map(\.severity) == [.warning, .error, .warning, .error])
    }

    /// A file that is not a usable configuration as a whole gives no layer and one message.
    @Test(arguments: [
        ("{ \"rules\": [ }", ".highlights.json:1:14: invalid JSON: *"),
        ("{\n  \"rules\": []\n  \"styles\": {}\n}", ".highlights.json:3:3: invalid JSON: *"),
        ("", ".highlights.json:1:1: invalid JSON: *"),
        ("[1, 2]", ".highlights.json:1:1: the configuration must be a JSON object, not an array"),
        ("\"TODO\"", ".highlights.json:1:1: the configuration must be a JSON object, not a string"),
    ])
    func unusableFiles(_ text: String, _ expected: String) {
        let (layer, diagnostics) = Support.parseFile(text)
        #expect(layer == nil)
        Support.checkDiagnostics(diagnostics, [expected])
        #expect(diagnostics.first?.severity == .error)
    }

    @Test func tooLargeContentsAreRefused() {
        let bytes = [UInt8](repeating: UInt8(ascii: " "), count: ConfigFile.maximumSizeInBytes + 1)
        let (layer, diagnostics) = ConfigLayer.parse(fileContents: bytes, source: "big.json")
        #expect(layer == nil)
        Support.checkDiagnostics(diagnostics, ["big.json: the file is 4194305 bytes, over the limit of 4194304 bytes; it is ignored"])
    }

    @Test func diagnosticsCarryTheUTF8Offset() {
        let text = "{\n  \"défaults\": 1 }"
        let (_, diagnostics) = Support.parseFile(text)
        #expect(diagnostics.count == 1)
        #expect(diagnostics.first?.utf8Offset == 4)
        #expect(diagnostics.first?.line == 2)
        #expect(diagnostics.first?.column == 3)
    }

    @Test func columnsCountCharactersNotBytes() {
        let (_, diagnostics) = Support.parseFile(#"{ "rules": [ { "name": "é", "words": ["é"], "x": 1 } ] }"#)
        Support.checkDiagnostics(diagnostics, [
            #".highlights.json:1:24: rules[0]: rule name "é" must be a letter followed by letters, digits, "_", "." or "-""#,
            #".highlights.json:1:45: rules[0]: unknown key "x""#,
        ])
    }
}

/// Configuration that arrives as JSON (client settings, `initializationOptions`).
@Suite struct ConfigLayerJSONTests {
    @Test func parsesPlainAndNestedObjects() {
        let rules: [JSON] = [["name": "a", "words": ["A"]]]
        for json: JSON in [["rules": .array(rules)], ["highlight": ["rules": .array(rules)], "other": 1]] {
            let (layer, diagnostics) = ConfigLayer.parse(json: json, source: "initializationOptions")
            #expect(diagnostics.isEmpty, "\(diagnostics)")
            #expect(layer.rules.map(Support.describe) == ["a: words A"])
        }
    }

    @Test func nullIsAnEmptyLayer() {
        let (layer, diagnostics) = ConfigLayer.parse(json: nil, source: "settings")
        #expect(layer.rules.isEmpty && layer.styles.isEmpty && layer.defaults == nil)
        #expect(diagnostics.isEmpty)
    }

    @Test func diagnosticsHaveNoPosition() {
        let json: JSON = ["rules": [["name": "a", "regex": "("]], "defaults": "x", "zzz": 1]
        let (layer, diagnostics) = ConfigLayer.parse(json: json, source: "settings")
        #expect(layer.rules.isEmpty)
        Support.checkDiagnostics(diagnostics, [
            #"settings: unknown top-level key "zzz""#,
            #"settings: "defaults" must be true or false, not a string"#,
            #"settings: rule "a": invalid regex: *"#,
        ])
        #expect(diagnostics.allSatisfy { $0.line == nil && $0.column == nil && $0.utf8Offset == nil })
    }

    @Test func notAnObject() {
        let (layer, diagnostics) = ConfigLayer.parse(json: [1], source: "settings")
        #expect(layer.rules.isEmpty)
        Support.checkDiagnostics(diagnostics, ["settings: the configuration must be a JSON object, not an array"])
    }
}

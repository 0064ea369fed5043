import Testing

@testable import HighlightConfig
@testable import PatternEngine

/// Combining layers: built-ins, `defaults`, precedence, replacement by name, `enabled: false`,
/// and style resolution.
@Suite struct HighlightConfigurationTests {
    static let builtInRules = [
        "fixme: words FIXME,BUG,XXX whole word",
        "todo: words TODO whole word",
        "hack: words HACK whole word",
        "note: words NOTE,INFO whole word",
        "review: words REVIEW,OPTIMIZE whole word",
        "deprecated: words DEPRECATED whole word",
        #"task: regex ^[ \t]*(?:[-*+]|[0-9]{1,9}[.)])[ \t]+\[ \]"#,
    ]

    /// The rules of the configuration made of `layers` (given as file texts, highest first).
    static func configuration(_ layers: [String], sourceLocation: SourceLocation = #_sourceLocation) -> HighlightConfiguration {
        HighlightConfiguration(layers: layers.map { Support.layer($0, sourceLocation: sourceLocation) })
    }

    @Test func builtInsWithNoConfiguration() {
        let configuration = HighlightConfiguration(layers: [])
        #expect(configuration.rules.map(Support.describe) == Self.builtInRules)
        #expect(configuration.styles == [
            BuiltInStyles.error, BuiltInStyles.warning, BuiltInStyles.caution, BuiltInStyles.info, BuiltInStyles.hint,
            BuiltInStyles.deprecated, BuiltInStyles.task,
        ])
        #expect(configuration.diagnostics.isEmpty)
        #expect(configuration.ruleSet.errors.isEmpty)
        #expect(HighlightConfiguration.builtInOnly.rules.count == Self.builtInRules.count)
        for name in ["error", "warning", "caution", "info", "hint", "highlight"] {
            #expect(configuration.namedStyles[name] != nil, "\(name)")
        }
        #expect(configuration.namedStyles["highlight"] == Style.neutral)
    }

    /// Each case: layers as file texts (highest first) and the final rules in order.
    @Test(arguments: [
        (
            "user rules come before the built-ins",
            [#"{ "rules": [ { "name": "mine", "words": ["MINE"] } ] }"#],
            ["mine: words MINE"] + builtInRules
        ),
        (
            "defaults false drops the built-in rules",
            [#"{ "defaults": false, "rules": [ { "name": "mine", "words": ["MINE"] } ] }"#],
            ["mine: words MINE"]
        ),
        (
            "the highest layer that sets defaults decides (true over false)",
            [#"{ "defaults": true }"#, #"{ "defaults": false }"#],
            builtInRules
        ),
        (
            "the highest layer that sets defaults decides (false from a lower layer)",
            [#"{ "rules": [] }"#, #"{ "defaults": false }"#],
            []
        ),
        (
            "a rule replaces a built-in of the same name, taking the higher layer's place",
            [#"{ "rules": [ { "name": "a", "words": ["A"] }, { "name": "todo", "words": ["TODO", "TBD"] } ] }"#],
            ["a: words A", "todo: words TODO,TBD"] + builtInRules.filter { !$0.hasPrefix("todo:") }
        ),
        (
            "enabled false switches a built-in off",
            [#"{ "rules": [ { "name": "note", "enabled": false } ] }"#],
            builtInRules.filter { !$0.hasPrefix("note:") }
        ),
        (
            "higher layers first, in file order, then the remaining lower-layer rules",
            [
                #"{ "defaults": false, "rules": [ { "name": "b", "words": ["B1"] }, { "name": "a", "words": ["A1"] } ] }"#,
                #"{ "rules": [ { "name": "a", "words": ["A2"] }, { "name": "c", "words": ["C2"] }, { "name": "b", "words": ["B2"] } ] }"#,
                #"{ "rules": [ { "name": "d", "words": ["D3"] }, { "name": "c", "words": ["C3"] } ] }"#,
            ],
            ["b: words B1", "a: words A1", "c: words C2", "d: words D3"]
        ),
        (
            "a switched-off rule hides every lower rule of its name, and a higher layer can switch it back on",
            [
                #"{ "defaults": false, "rules": [ { "name": "c", "regex": "c+" } ] }"#,
                #"{ "rules": [ { "name": "a", "enabled": false }, { "name": "c", "enabled": false } ] }"#,
                #"{ "rules": [ { "name": "a", "words": ["A3"] }, { "name": "c", "words": ["C3"] } ] }"#,
            ],
            ["c: regex c+"]
        ),
    ] as [(String, [String], [String])])
    func combinesRules(_ name: String, _ layers: [String], _ expected: [String]) {
        let configuration = Self.configuration(layers)
        #expect(configuration.rules.map(Support.describe) == expected, "\(name)")
        #expect(configuration.styles.count == configuration.rules.count)
        #expect(configuration.diagnostics.isEmpty)
    }

    @Test func stylesMergeByNameWholeStyles() {
        let configuration = Self.configuration([
            #"{ "styles": { "warning": { "bold": true }, "mine": { "italic": true } } }"#,
            ##"{ "styles": { "warning": { "color": "#fff" }, "mine": { "underline": true }, "other": { "rounded": true } } }"##,
        ])
        #expect(configuration.namedStyles["warning"] == Style(bold: true))
        #expect(configuration.namedStyles["mine"] == Style(italic: true))
        #expect(configuration.namedStyles["other"] == Style(rounded: true))
        #expect(configuration.namedStyles["error"] == BuiltInStyles.error)
    }

    @Test func resolvesEachRulesStyle() {
        let configuration = Self.configuration([
            """
            {
              "defaults": false,
              "styles": { "loud": { "bold": true }, "named": { "italic": true } },
              "rules": [
                { "name": "inline", "words": ["I"], "style": { "underline": true } },
                { "name": "byName", "words": ["N"], "style": "loud" },
                { "name": "builtIn", "words": ["B"], "style": "warning" },
                { "name": "named", "words": ["S"] },
                { "name": "todo", "words": ["T"] },
                { "name": "plain", "words": ["P"] },
                { "name": "lower", "words": ["L"], "style": "fromBelow" },
              ]
            }
            """,
            #"{ "styles": { "fromBelow": { "strikethrough": true } } }"#,
        ])
        #expect(configuration.rules.map(\.name) == ["inline", "byName", "builtIn", "named", "todo", "plain", "lower"])
        #expect(configuration.styles == [
            Style(underline: true), Style(bold: true), BuiltInStyles.warning, Style(italic: true), BuiltInStyles.warning,
            Style.neutral, Style(strikethrough: true),
        ])
        #expect(configuration.diagnostics.isEmpty)
    }

    @Test func aStyleNamedAfterABuiltInRuleRecoloursIt() {
        let configuration = Self.configuration([##"{ "styles": { "todo": { "color": "#123" } } }"##])
        let index = configuration.rules.firstIndex { $0.name == "todo" }
        #expect(index.map { configuration.styles[$0] } == Style(color: RGBAColor(hex: "#123")))
    }

    @Test func unknownStyleReferenceFallsBackToNeutral() {
        let configuration = Self.configuration([
            """
            {
              "defaults": false,
              "rules": [
                { "name": "a", "words": ["A"], "style": "warnnig" },
                { "name": "b", "words": ["B"], "style": "nothingLikeIt" }
              ]
            }
            """
        ])
        #expect(configuration.styles == [Style.neutral, Style.neutral])
        Support.checkDiagnostics(configuration.diagnostics, [
            #".highlights.json:4:45: rule "a": unknown style "warnnig" (did you mean "warning"?); using the neutral highlight"#,
            #".highlights.json:5:45: rule "b": unknown style "nothingLikeIt"; using the neutral highlight"#,
        ])
        #expect(configuration.diagnostics.allSatisfy { $0.severity == .warning })
    }

    @Test func layersBuiltInCodeWork() {
        let layer = ConfigLayer(
            defaults: false, styles: ["s": Style(bold: true)],
            rules: [
                RuleDefinition(name: "x", pattern: .words(["X"]), style: .named("s")),
                RuleDefinition(name: "x", pattern: .words(["Y"])),
                RuleDefinition(name: "y", pattern: .regex("y+"), caseSensitive: false, wholeWord: true),
            ])
        let configuration = HighlightConfiguration(layers: [layer])
        #expect(configuration.rules.map(Support.describe) == ["x: words X", "y: regex y+ ignoring case whole word"])
        #expect(configuration.styles == [Style(bold: true), Style.neutral])
    }

    @Test func rulesTheEngineRejectsAreReportedAndStayAligned() {
        let layer = ConfigLayer(
            defaults: false,
            rules: [
                RuleDefinition(name: "bad", pattern: .regex("(")),
                RuleDefinition(name: "empty", pattern: .words(["E", ""])),
                RuleDefinition(name: "good", pattern: .words(["G"]), style: .inline(Style(bold: true))),
            ])
        let configuration = HighlightConfiguration(layers: [layer])
        #expect(configuration.rules.map(\.name) == ["bad", "empty", "good"])
        #expect(configuration.styles == [Style.neutral, Style.neutral, Style(bold: true)])
        Support.checkDiagnostics(configuration.diagnostics, [
            #"configuration: rule "bad": invalid regex: *"#,
            #"configuration: rule "empty": *"#,
        ])
        #expect(configuration.diagnostics.last?.message.hasSuffix("(words[1])") == true)
        let matches = configuration.ruleSet.matches(in: Array("G E".utf8)).matches
        #expect(matches.map(\.ruleIndex) == [2, 1])
    }

    @Test func tenThousandRules() {
        var text = #"{ "defaults": false, "styles": { "s": { "bold": true } }, "rules": ["#
        for index in 0..<10_000 {
            if index % 10 == 0 {
                text += #"{ "name": "r\#(index)", "regex": "R\#(index)-[0-9]+", "style": "s" },"# + "\n"
            } else {
                text += #"{ "name": "r\#(index)", "words": ["W\#(index)", "V\#(index)"], "wholeWord": true },"# + "\n"
            }
        }
        text += "] }"
        let (layer, diagnostics) = Support.parseFile(text)
        #expect(diagnostics.isEmpty)
        #expect(layer?.rules.count == 10_000)
        let configuration = HighlightConfiguration(layers: layer.map { [$0] } ?? [])
        #expect(configuration.rules.count == 10_000)
        #expect(configuration.styles.count == 10_000)
        #expect(configuration.ruleSet.errors.isEmpty)
        #expect(configuration.rules.last?.name == "r9999")
    }
}

/// A regex is compiled once per load: the parser's compiled regex is the one the rule set searches with.
@Suite struct CompileOnceTests {
    @Test func theParsersRegexIsTheRuleSetsRegex() throws {
        let text = #"{ "rules": [ { "name": "ticket", "regex": "\\b[A-Z]{2,}-[0-9]+\\b", "wholeWord": true, "caseSensitive": false } ] }"#
        let (layer, diagnostics) = ConfigLayer.parse(fileContents: Array(text.utf8), source: ".highlights.json")
        #expect(diagnostics.isEmpty)
        let parsed = try #require(layer?.rules.first?.compiledRegex)
        #expect(parsed.wholeWord && parsed.caseInsensitive)
        let configuration = HighlightConfiguration(layers: [try #require(layer)])
        let searched = try #require(configuration.ruleSet.regexStreams.first { $0.ruleIndex == 0 }?.regex)
        #expect(searched.program === parsed.program)
        // And it finds what the pattern means, whole words only, in any case.
        let matches = Array("see ab-12 and _ab-3".utf8).withUnsafeBufferPointer { configuration.ruleSet.matches(in: $0).matches }
        #expect(matches.map(\.utf8Range) == [4..<9])
    }

    @Test func anOverBudgetRegexIsReportedAsSuch() {
        let text = #"{ "rules": [ { "name": "big", "regex": "\\pL{1000}\\pL{1000}\\pL{1000}" } ] }"#
        let (_, diagnostics) = ConfigLayer.parse(fileContents: Array(text.utf8), source: ".highlights.json")
        #expect(diagnostics.contains { $0.message.contains("pattern too large") && !$0.message.contains("invalid regex") })
    }
}

import PatternEngine
import Testing

@testable import HighlightConfig

/// `groups`, `severity`, `message`, `link` and `colors`: reading them, every mistake with its
/// line and column, and what the combined configuration makes of them.
@Suite struct RuleDetailsParsingTests {
    @Test func readsEveryKey() {
        let (layer, diagnostics) = Support.parseFile("""
            {
              "colors": true,
              "rules": [
                { "name": "owner", "regex": "TODO\\\\((?P<who>[a-z]+)\\\\)(:)",
                  "groups": { "who": { "color": "#0af", "bold": false }, "2": "error" },
                  "severity": "warning", "message": "assigned to ${who}, costs $$1", "link": "https://people.example/$1" },
                { "name": "ticket", "words": ["ABC-1"], "severity": "hint", "link": "https://tracker.example/browse/$0" },
              ],
            }
            """)
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        #expect(layer?.colors == true)
        let owner = layer?.rules.first
        #expect(owner?.groupStyles == [
            .init(group: "who", style: .inline(StylePatch(color: RGBAColor(red: 0, green: 0xaa, blue: 0xff), bold: false))),
            .init(group: "2", style: .named("error")),
        ])
        #expect(owner?.severity == .warning)
        #expect(owner?.message == "assigned to ${who}, costs $$1")
        #expect(owner?.link == "https://people.example/$1")
        #expect(layer?.rules.last?.severity == .hint)
        #expect(layer?.rules.last?.link == "https://tracker.example/browse/$0")
    }

    struct MistakeCase: CustomTestStringConvertible, Sendable {
        var name: String
        var text: String
        var diagnostics: [String]
        var rules: [String] = []
        var testDescription: String { name }
    }

    static let mistakes: [MistakeCase] = [
        MistakeCase(
            name: "colors is not a boolean",
            text: #"{ "colors": "yes" }"#,
            diagnostics: [#".highlights.json:1:13: "colors" must be true or false, not a string"#]),
        MistakeCase(
            name: "severity misspelt",
            text: #"{ "rules": [ { "name": "a", "words": ["A"], "severity": "warnign" }, { "name": "b", "words": ["B"] } ] }"#,
            diagnostics: [
                #".highlights.json:1:57: rule "a": "severity" must be one of "error", "warning", "information", "hint", not "warnign" (did you mean "warning"?)"#
            ],
            rules: ["b: words B"]),
        MistakeCase(
            name: "severity of the wrong type",
            text: #"{ "rules": [ { "name": "a", "words": ["A"], "severity": 2 } ] }"#,
            diagnostics: [#".highlights.json:1:57: rule "a": "severity" must be one of "error", "warning", "information", "hint", not a number"#]),
        MistakeCase(
            name: "message that is empty, link that is not a string",
            text: #"{ "rules": [ { "name": "a", "words": ["A"], "message": "", "link": [] } ] }"#,
            diagnostics: [
                #".highlights.json:1:56: rule "a": "message" must be a non-empty string, not an empty string"#,
                #".highlights.json:1:68: rule "a": "link" must be a non-empty string, not an array"#,
            ]),
        MistakeCase(
            name: "a template refers to a group that words do not have",
            text: #"{ "rules": [ { "name": "a", "words": ["A"], "message": "see $1" } ] }"#,
            diagnostics: [#".highlights.json:1:61: rule "a": "message": $1: no such group (the rule has only $0, the whole match)"#]),
        MistakeCase(
            name: "a template refers to an unknown group name; the column points into the string",
            text: #"{ "rules": [ { "name": "a", "regex": "(?P<id>[0-9]+)", "link": "https://x.example/${ib}" } ] }"#,
            diagnostics: [#".highlights.json:1:83: rule "a": "link": ${ib}: no group of that name (named groups: id)"#]),
        MistakeCase(
            name: "a template with a stray dollar sign",
            text: #"{ "rules": [ { "name": "a", "regex": "([0-9]+)", "message": "costs $x" } ] }"#,
            diagnostics: [
                #".highlights.json:1:68: rule "a": "message": "$x": write $0 to $9, ${number} or ${name} for a group, or $$ for a dollar sign"#
            ]),
        MistakeCase(
            name: "a template ending in a dollar sign, and an unclosed brace",
            text: #"{ "rules": [ { "name": "a", "regex": "([0-9]+)", "message": "costs $", "link": "x${1" } ] }"#,
            diagnostics: [
                #".highlights.json:1:68: rule "a": "message": a lone "$" at the end; write $$ for a dollar sign"#,
                #".highlights.json:1:82: rule "a": "link": "${" without a closing "}""#,
            ]),
        MistakeCase(
            name: "a template refers to a group number past the last",
            text: #"{ "rules": [ { "name": "a", "regex": "([0-9]+)", "message": "$2" } ] }"#,
            diagnostics: [#".highlights.json:1:62: rule "a": "message": $2: no such group (the rule has groups 0 to 1)"#]),
        MistakeCase(
            name: "groups on a rule of words",
            text: #"{ "rules": [ { "name": "a", "words": ["A"], "groups": { "1": "error" } } ] }"#,
            diagnostics: [#".highlights.json:1:57: rule "a": "groups": no group "1" (only a regex rule has groups)"#]),
        MistakeCase(
            name: "groups naming groups the regex does not have",
            text: #"{ "rules": [ { "name": "a", "regex": "(?P<x>a)(b)", "groups": { "3": "error", "y": "error", "0": "error" } } ] }"#,
            diagnostics: [
                #".highlights.json:1:65: rule "a": "groups": no group "3" in the regex (it has groups 1 to 2, named "x")"#,
                #".highlights.json:1:79: rule "a": "groups": no group "y" in the regex (it has groups 1 to 2, named "x")"#,
                #".highlights.json:1:93: rule "a": "groups": no group "0" in the regex (it has groups 1 to 2, named "x")"#,
            ]),
        MistakeCase(
            name: "a group styled twice, by number and by name",
            text: #"{ "rules": [ { "name": "a", "regex": "(?P<x>a)", "groups": { "x": "error", "1": "hint" } } ] }"#,
            diagnostics: [#".highlights.json:1:76: rule "a": "groups": "1" is group 1, already styled as "x""#]),
        MistakeCase(
            name: "groups of the wrong type, and a group style of the wrong type",
            text: #"{ "rules": [ { "name": "a", "regex": "(a)", "groups": ["error"] }, { "name": "b", "regex": "(b)", "groups": { "1": 5 } } ] }"#,
            diagnostics: [
                #".highlights.json:1:55: rule "a": "groups" must be an object of styles by group number or name, not an array"#,
                #".highlights.json:1:116: rule "b": group "1" must have a style name or a style object, not a number"#,
            ]),
        MistakeCase(
            name: "a wrong attribute in a group's inline style drops only that attribute",
            text: #"{ "rules": [ { "name": "a", "regex": "(a)", "groups": { "1": { "bold": "yes", "italic": true } } } ] }"#,
            diagnostics: [#".highlights.json:1:72: style of group "1" of rule "a": "bold" must be true or false, not a string"#],
            rules: ["a: regex (a)"]),
    ]

    @Test(arguments: mistakes)
    func reportsMistakesAndDropsTheRule(_ mistake: MistakeCase) {
        let (layer, diagnostics) = Support.parseFile(mistake.text)
        Support.checkDiagnostics(diagnostics, mistake.diagnostics)
        #expect(layer?.rules.map(Support.describe) == mistake.rules)
    }
}

@Suite struct MatchTemplateTests {
    @Test(arguments: [
        ("see $0", "see ABC-12"),
        ("$1/$2", "ABC/12"),
        ("${project}-${2}", "ABC-12"),
        ("$$$1", "$ABC"),
        ("no references", "no references"),
        ("$3", ""),
    ])
    func fillsInGroups(_ template: String, _ expected: String) throws {
        let names: [String?] = [nil, "project", nil, nil]
        let parsed = try MatchTemplate(template, captureNames: names)
        let groups = ["ABC-12", "ABC", "12", nil]
        #expect(parsed.filled { groups.indices.contains($0) ? groups[$0] : nil } == expected)
    }

    @Test func linksPercentEncodeSubstitutedTextOnly() throws {
        let parsed = try MatchTemplate("https://x.example/q?s=$0", captureNames: [nil])
        #expect(parsed.filled(groupText: { _ in "a b/ç" }, encode: MatchTemplate.percentEncoded) == "https://x.example/q?s=a%20b%2F%C3%A7")
    }

    @Test func highestGroup() throws {
        #expect(try MatchTemplate("$0 and $$1", captureNames: [nil, nil]).highestGroup == 0)
        #expect(try MatchTemplate("${1} $0", captureNames: [nil, nil]).highestGroup == 1)
    }
}

@Suite struct StylePatchTests {
    @Test func aPatchOverridesOnlyWhatItSets() {
        let base = Style(color: RGBAColor(red: 1, green: 2, blue: 3), backgroundColor: RGBAColor(red: 4, green: 5, blue: 6), bold: true, rounded: true)
        let patch = StylePatch(color: RGBAColor(red: 9, green: 9, blue: 9), bold: false, underline: true)
        #expect(patch.applied(to: base) == Style(
            color: RGBAColor(red: 9, green: 9, blue: 9), backgroundColor: RGBAColor(red: 4, green: 5, blue: 6),
            underline: true, rounded: true))
    }

    @Test func aNamedStyleSetsItsColoursAndTheAttributesItTurnsOn() {
        let named = Style(color: RGBAColor(red: 9, green: 9, blue: 9), italic: true)
        let base = Style(backgroundColor: RGBAColor(red: 4, green: 5, blue: 6), bold: true)
        #expect(StylePatch(settingAttributesOf: named).applied(to: base) == Style(
            color: RGBAColor(red: 9, green: 9, blue: 9), backgroundColor: RGBAColor(red: 4, green: 5, blue: 6), bold: true, italic: true))
    }
}

/// What `HighlightConfiguration` makes of the details: pieces, token types, colour literals.
@Suite struct RuleDetailsConfigurationTests {
    static func configuration(_ text: String) -> HighlightConfiguration {
        HighlightConfiguration(layers: [Support.layer(text)])
    }

    /// `text` as pieces: `start-end tokenType`, with the text of the piece.
    static func pieces(_ configuration: HighlightConfiguration, _ text: String) -> [String] {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBufferPointer { buffer in
            let matches = configuration.ruleSet.matches(in: buffer).matches
            return configuration.pieces(of: matches, in: buffer).map { piece in
                let kind = configuration.pieceKind(piece.piece)
                let covered = String(decoding: bytes[piece.utf8Range], as: UTF8.self)
                return "\(piece.utf8Range.lowerBound)-\(piece.utf8Range.upperBound) \(kind?.tokenType ?? "?") \(covered)"
            }
        }
    }

    @Test func groupsSplitTheirMatchAndMergeStyles() {
        let configuration = Self.configuration("""
            { "defaults": false, "styles": { "who": { "color": "#00f", "italic": true } },
              "rules": [ { "name": "owner", "regex": "TODO\\\\(((?P<who>[a-z]+)(,[a-z]+)?)\\\\):",
                           "style": { "color": "#000", "backgroundColor": "#ff0", "bold": true },
                           "groups": { "1": { "underline": true }, "who": "who", "3": { "bold": false } } } ] }
            """)
        #expect(configuration.diagnostics.isEmpty, "\(configuration.diagnostics)")
        #expect(configuration.tokenTypes == ["owner", "owner.1", "owner.who", "owner.3"])
        #expect(Self.pieces(configuration, "x TODO(ann,bob): y TODO(cy): TODO():") == [
            "2-7 owner TODO(", "7-10 owner.who ann", "10-14 owner.3 ,bob", "14-16 owner ):",
            "19-24 owner TODO(", "24-26 owner.who cy", "26-28 owner ):",
        ])
        let black = RGBAColor(red: 0, green: 0, blue: 0), yellow = RGBAColor(red: 0xff, green: 0xff, blue: 0)
        let blue = RGBAColor(red: 0, green: 0, blue: 0xff)
        #expect(configuration.pieceKind(.group(0))?.style == Style(color: black, backgroundColor: yellow, bold: true, underline: true))
        #expect(configuration.pieceKind(.group(1))?.style == Style(color: blue, backgroundColor: yellow, bold: true, italic: true))
        #expect(configuration.pieceKind(.group(2))?.style == Style(color: black, backgroundColor: yellow))
        #expect(configuration.pieceKind(.group(3)) == nil)
    }

    @Test func withoutGroupsOrColoursPiecesAreTheMatches() {
        let configuration = Self.configuration(#"{ "rules": [ { "name": "t", "regex": "T(O)DO", "message": "$1" } ] }"#)
        #expect(!configuration.splitsMatches)
        #expect(Self.pieces(configuration, "TODO FIXME") == ["0-4 t TODO", "5-10 fixme FIXME"])
    }

    @Test func templatesAreResolvedPerRule() throws {
        let configuration = Self.configuration("""
            { "defaults": false, "rules": [
              { "name": "t", "regex": "([A-Z]+)-(?P<n>[0-9]+)", "severity": "error", "message": "$1 number ${n}", "link": "https://t.example/$0" },
              { "name": "w", "words": ["W"], "message": "just $0" } ] }
            """)
        let ticket = try #require(configuration.details.first)
        #expect(ticket.severity == .error)
        #expect(ticket.needsCaptures)
        #expect(configuration.details.last?.needsCaptures == false)
        let text = Array("see AB-12".utf8)
        text.withUnsafeBufferPointer { buffer in
            let match = Match(ruleIndex: 0, utf8Range: 4..<9)
            let captures = configuration.captures(of: match, in: buffer)
            let message = ticket.message?.filled { group in
                captures.indices.contains(group) ? captures[group].map { String(decoding: text[$0], as: UTF8.self) } : nil
            }
            #expect(message == "AB number 12")
        }
    }

    @Test func colorsAddTheColorRuleLastAndOnlyWhenAsked() {
        #expect(Self.configuration("{}").colorRuleIndex == nil)
        let configuration = Self.configuration(#"{ "defaults": false, "colors": true }"#)
        #expect(configuration.rules.map(\.name) == ["color"])
        #expect(configuration.colorRuleIndex == 0)
        let withDefaults = Self.configuration(#"{ "colors": true }"#)
        #expect(withDefaults.colorRuleIndex == withDefaults.rules.count - 1)
        let switchedOff = HighlightConfiguration(layers: [
            Support.layer(#"{ "rules": [ { "name": "color", "enabled": false } ] }"#), Support.layer(#"{ "colors": true }"#),
        ])
        #expect(switchedOff.colorRuleIndex == nil)
        #expect(!switchedOff.rules.contains { $0.name == "color" })
    }

    @Test func colourLiteralsArePiecesInTheirOwnColour() {
        let configuration = Self.configuration(#"{ "defaults": false, "colors": true }"#)
        let text = "a: #F80; b: rgb(0 0 255 / 50%); c: hsl(120, 100%, 25%); not: a#fff #12345 #abcdefg xrgb(1,2,3)"
        #expect(Self.pieces(configuration, text) == [
            "3-7 color #F80", "12-30 color rgb(0 0 255 / 50%)", "35-54 color hsl(120, 100%, 25%)",
        ])
        let bytes = Array(text.utf8)
        bytes.withUnsafeBufferPointer { buffer in
            let pieces = configuration.pieces(of: configuration.ruleSet.matches(in: buffer).matches, in: buffer)
            let styles = pieces.compactMap { configuration.pieceKind($0.piece)?.style }
            #expect(styles.map { $0.backgroundColor?.hexString } == ["#ff8800ff", "#0000ff80", "#008000ff"])
            #expect(styles.map { $0.color?.hexString } == ["#000000ff", "#ffffffff", "#ffffffff"])
        }
    }
}

@Suite struct ColorLiteralTests {
    @Test(arguments: [
        ("#f80", "#ff8800ff"), ("#F808", "#ff880088"), ("#00ff0080", "#00ff0080"), ("#123456", "#123456ff"),
        ("rgb(255, 136, 0)", "#ff8800ff"), ("RGBA(255,136,0,0.5)", "#ff880080"), ("rgb(100% 0% 50% / 25%)", "#ff008040"),
        ("rgb(300, -5, 0)", "#ff0000ff"), ("hsl(0, 100%, 50%)", "#ff0000ff"), ("hsl(120deg 100% 25%)", "#008000ff"),
        ("hsla(0.5turn, 100%, 50%, .5)", "#00ffff80"), ("hsl(-120, 100%, 50%)", "#0000ffff"), ("hsl(3.14159rad, 100%, 50%)", "#00ffffff"),
    ])
    func readsLiterals(_ literal: String, _ expected: String) {
        #expect(RGBAColor(literal: Array(literal.utf8))?.hexString == expected)
    }

    @Test(arguments: ["#12345", "rgb(1, 2)", "rgb(1, 2, 3, 4, 5)", "foo(1, 2, 3)", "hsl(10%, 1%, 1%)", "rgb(1px, 2, 3)"])
    func refusesWhatIsNotAColour(_ literal: String) {
        #expect(RGBAColor(literal: Array(literal.utf8)) == nil)
    }

    @Test func presentationsPutTheOriginalNotationFirst() {
        let orange = RGBAColor(red: 255, green: 136, blue: 0)
        #expect(ColorLiteral.presentations(of: orange) == ["#ff8800", "rgb(255, 136, 0)", "hsl(32, 100%, 50%)"])
        #expect(ColorLiteral.presentations(of: orange, replacing: "RGB(1,2,3)").first == "rgb(255, 136, 0)")
        var translucent = orange
        translucent.alpha = 128
        #expect(ColorLiteral.presentations(of: translucent, replacing: "hsl(1,1%,1%)") == [
            "hsla(32, 100%, 50%, 0.502)", "#ff880080", "rgba(255, 136, 0, 0.502)",
        ])
        // A percentage alpha stays one, whatever spaces come before the closing parenthesis; printf's rounding.
        #expect(ColorLiteral.presentations(of: translucent, replacing: "rgb(1 2 3 / 40% \t)").first == "rgb(255 136 0 / 50.2%)")
        #expect(ColorLiteral.presentations(of: translucent, exactAlpha: 0.125, replacing: "rgb(1 2 3 / 0.4)").first
            == "rgb(255 136 0 / 0.125)")
        #expect(ColorLiteral.presentations(of: translucent, exactAlpha: 0.0625, replacing: "rgb(1 2 3 / 0.4)").first
            == "rgb(255 136 0 / 0.062)")
    }

    @Test func readableTextColourByContrast() {
        let white = RGBAColor(red: 255, green: 255, blue: 255), black = RGBAColor(red: 0, green: 0, blue: 0)
        #expect(ColorLiteral.readableTextColor(on: RGBAColor(red: 255, green: 255, blue: 0)) == black)
        #expect(ColorLiteral.readableTextColor(on: RGBAColor(red: 0, green: 0, blue: 128)) == white)
        #expect(ColorLiteral.readableTextColor(on: RGBAColor(red: 0x80, green: 0x80, blue: 0x80)) == black)
        #expect(ColorLiteral.readableTextColor(on: RGBAColor(red: 0xd3, green: 0x2f, blue: 0x2f)) == white)
    }
}

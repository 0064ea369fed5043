import Testing

@testable import HighlightConfig

/// The line-indicator style keys: `overviewRuler`, `gutter` and `wholeLine` — what each spelling
/// means, what is refused and where, how they layer, and the colours they resolve to.
@Suite struct LineIndicatorStyleTests {
    static let red = RGBAColor(red: 0xff, green: 0, blue: 0)
    static let blue = RGBAColor(red: 0, green: 0, blue: 0xff)
    static let amber = RGBAColor(red: 0xf9, green: 0xa8, blue: 0x25)

    /// The style `s` of a file whose only content is `"styles": { "s": <style> }`, with no diagnostics.
    static func style(_ json: String, sourceLocation: SourceLocation = #_sourceLocation) -> Style? {
        let (layer, diagnostics) = Support.parseFile(#"{ "styles": { "s": "# + json + #" } }"#)
        #expect(diagnostics.isEmpty, "\(diagnostics)", sourceLocation: sourceLocation)
        return layer?.styles["s"]
    }

    // MARK: Spellings

    @Test(arguments: [
        (#"{ "overviewRuler": true }"#, Style(overviewRuler: OverviewRulerMark())),
        (#"{ "overviewRuler": false }"#, Style()),
        (##"{ "overviewRuler": "#f00" }"##, Style(overviewRuler: OverviewRulerMark(color: LineIndicatorStyleTests.red))),
        (#"{ "overviewRuler": { "lane": "left" } }"#, Style(overviewRuler: OverviewRulerMark(lane: .left))),
        (##"{ "overviewRuler": { "color": "#0000ff", "lane": "full" } }"##, Style(overviewRuler: OverviewRulerMark(color: LineIndicatorStyleTests.blue, lane: .full))),
        (#"{ "overviewRuler": {} }"#, Style(overviewRuler: OverviewRulerMark(lane: .center))),
        (#"{ "gutter": true }"#, Style(gutter: GutterSign())),
        (#"{ "gutter": false }"#, Style()),
        (#"{ "gutter": "!" }"#, Style(gutter: GutterSign(text: "!"))),
        (#"{ "gutter": "T:" }"#, Style(gutter: GutterSign(text: "T:"))),
        (#"{ "gutter": "漢" }"#, Style(gutter: GutterSign(text: "漢"))),
        (#"{ "gutter": "🐛" }"#, Style(gutter: GutterSign(text: "🐛"))),
        (#"{ "gutter": "é" }"#, Style(gutter: GutterSign(text: "é"))),
        (##"{ "gutter": { "text": "●", "color": "#f00" } }"##, Style(gutter: GutterSign(text: "●", color: LineIndicatorStyleTests.red))),
        (##"{ "gutter": { "color": "#0000ff" } }"##, Style(gutter: GutterSign(color: LineIndicatorStyleTests.blue))),
        (##"{ "wholeLine": true, "backgroundColor": "#f00" }"##, Style(backgroundColor: LineIndicatorStyleTests.red, wholeLine: true)),
        (#"{ "wholeLine": false }"#, Style()),
        (#"{ "bold": true, "overviewRuler": true, "gutter": "!", "wholeLine": true }"#,
         Style(bold: true, overviewRuler: OverviewRulerMark(), gutter: GutterSign(text: "!"), wholeLine: true)),
    ])
    func spellings(_ json: String, _ expected: Style) {
        #expect(Self.style(json) == expected)
    }

    // MARK: Mistakes

    @Test(arguments: [
        (#"{ "overviewRuler": { "lane": "centre" } }"#,
         #".highlights.json:1:49: style "s": "overviewRuler.lane" must be "left", "center", "right" or "full", not "centre" (did you mean "center"?)"#),
        (##"{ "overviewRuler": { "lane": "middle", "color": "#f00" } }"##,
         #".highlights.json:1:49: style "s": "overviewRuler.lane" must be "left", "center", "right" or "full", not "middle""#),
        (#"{ "overviewRuler": { "lane": 2 } }"#,
         #".highlights.json:1:49: style "s": "overviewRuler.lane" must be "left", "center", "right" or "full", not a number"#),
        (#"{ "overviewRuler": "red" }"#,
         ##".highlights.json:1:39: style "s": "overviewRuler" must be a colour "#rgb", "#rgba", "#rrggbb" or "#rrggbbaa", not "red""##),
        (##"{ "overviewRuler": { "color": "#12" } }"##,
         ##".highlights.json:1:50: style "s": "overviewRuler.color" must be a colour "#rgb", "#rgba", "#rrggbb" or "#rrggbbaa", not "#12""##),
        (#"{ "overviewRuler": 1 }"#,
         #".highlights.json:1:39: style "s": "overviewRuler" must be true, false, a colour or an object with "color" and "lane", not a number"#),
        (#"{ "gutter": "TODO" }"#,
         #".highlights.json:1:32: style "s": "gutter" must be one or two cells wide (a sign column is two cells), not "TODO" (4 cells)"#),
        (#"{ "gutter": "漢字" }"#,
         #".highlights.json:1:32: style "s": "gutter" must be one or two cells wide (a sign column is two cells), not "漢字" (4 cells)"#),
        (#"{ "gutter": "!🐛" }"#,
         #".highlights.json:1:32: style "s": "gutter" must be one or two cells wide (a sign column is two cells), not "!🐛" (3 cells)"#),
        (#"{ "gutter": "" }"#,
         #".highlights.json:1:32: style "s": "gutter" must be one or two cells wide (a sign column is two cells), not an empty sign"#),
        (#"{ "gutter": "\u0301" }"#,
         #".highlights.json:1:32: style "s": "gutter" must be one or two cells wide (a sign column is two cells), not an empty sign"#),
        (#"{ "gutter": { "text": "a\tb" } }"#,
         #".highlights.json:1:42: style "s": "gutter.text" must not hold a line break, tab or other control character"#),
        (#"{ "gutter": { "text": 7 } }"#,
         #".highlights.json:1:42: style "s": "gutter.text" must be a string of one or two cells, not a number"#),
        (#"{ "gutter": { "color": "blue" } }"#,
         ##".highlights.json:1:43: style "s": "gutter.color" must be a colour "#rgb", "#rgba", "#rrggbb" or "#rrggbbaa", not "blue""##),
        (#"{ "gutter": null }"#,
         #".highlights.json:1:32: style "s": "gutter" must be true, false, a sign text or an object with "text" and "color", not null"#),
        (#"{ "wholeLine": "yes" }"#,
         #".highlights.json:1:35: style "s": "wholeLine" must be true or false, not a string"#),
        (#"{ "wholeline": true }"#,
         #".highlights.json:1:22: unknown key "wholeline" in style "s" (did you mean "wholeLine"?)"#),
    ])
    func aBadValueDropsOnlyItsAttribute(_ json: String, _ expected: String) {
        let text = #"{ "styles": { "s": "# + json + #", "t": { "bold": true } } }"#
        let (layer, diagnostics) = Support.parseFile(text)
        Support.checkDiagnostics(diagnostics, [expected])
        // The attribute is dropped; the style and the others stay.
        #expect(layer?.styles["s"] == Style())
        #expect(layer?.styles["t"] == Style(bold: true))
    }

    @Test func unknownKeysInsideAMarkAreWarningsAndTheMarkStays() {
        let text = ##"{ "styles": { "s": { "gutter": { "txt": "!", "color": "#f00" }, "overviewRuler": { "lane": "left", "colour": "#f00" } } } }"##
        let (layer, diagnostics) = Support.parseFile(text)
        Support.checkDiagnostics(diagnostics, [
            #".highlights.json:1:34: unknown key "txt" in "gutter" of style "s" (did you mean "text"?)"#,
            #".highlights.json:1:100: unknown key "colour" in "overviewRuler" of style "s" (did you mean "color"?)"#,
        ])
        #expect(diagnostics.map(\.severity) == [.warning, .warning])
        #expect(layer?.styles["s"] == Style(overviewRuler: OverviewRulerMark(lane: .left), gutter: GutterSign(color: Self.red)))
    }

    @Test func mistakesInAnInlineRuleStyleAndAGroupStyleKeepTheRule() {
        let text = """
            {
              "rules": [
                { "name": "a", "regex": "A(B)", "style": { "gutter": "ABC", "bold": true },
                  "groups": { "1": { "overviewRuler": { "lane": "up" } } } }
              ]
            }
            """
        let (layer, diagnostics) = Support.parseFile(text)
        Support.checkDiagnostics(diagnostics, [
            #".highlights.json:3:58: style of rule "a": "gutter" must be one or two cells wide (a sign column is two cells), not "ABC" (3 cells)"#,
            #".highlights.json:4:53: style of group "1" of rule "a": "overviewRuler.lane" must be "left", "center", "right" or "full", not "up""#,
        ])
        #expect(layer?.rules.map(Support.describe) == ["a: regex A(B)"])
    }

    @Test(arguments: [
        ("!", 1), ("ab", 2), ("é", 1), ("e\u{301}", 1), ("漢", 2), ("ｱ", 1), ("Ａ", 2), ("🐛", 2), ("👍🏽", 2),
        ("❤\u{fe0f}", 1), ("", 0), ("a\nb", nil), ("\u{7f}", nil), ("\u{85}", nil), ("\u{200d}", 0),
    ] as [(String, Int?)])
    func cellWidths(_ text: String, _ expected: Int?) {
        #expect(GutterSign.cellWidth(of: text) == expected, "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
    }

    // MARK: Layering

    @Test func aHigherLayersStyleReplacesTheWholeStyleMarksIncluded() {
        // The built-in `todo` style marks the ruler; a `todo` style of one's own replaces it whole.
        let configuration = HighlightConfiguration(layers: [
            Support.layer(##"{ "styles": { "todo": { "color": "#f00", "gutter": "T" } } }"##),
            Support.layer(##"{ "styles": { "todo": { "color": "#00f", "wholeLine": true } } }"##),
        ])
        #expect(configuration.namedStyles["todo"] == Style(color: Self.red, gutter: GutterSign(text: "T")))
        #expect(BuiltInStyles.warning.overviewRuler == OverviewRulerMark())
        #expect(configuration.namedStyles["fixme"]?.overviewRuler == OverviewRulerMark())
        #expect(configuration.namedStyles["deprecated"]?.drawsLineIndicators == false)
        #expect(configuration.namedStyles["highlight"]?.drawsLineIndicators == false)
    }

    @Test func groupsInheritOverrideAndTurnOffMarks() {
        let configuration = HighlightConfiguration(layers: [Support.layer("""
            {
              "defaults": false,
              "styles": { "signed": { "gutter": { "text": "@", "color": "#00f" } } },
              "rules": [
                {
                  "name": "r", "regex": "(a)(b)(c)(d)",
                  "style": { "backgroundColor": "#f9a825", "gutter": "!", "overviewRuler": "#f00", "wholeLine": true },
                  "groups": {
                    "1": { "bold": true },
                    "2": { "gutter": false, "overviewRuler": { "lane": "right" } },
                    "3": "signed",
                    "4": { "wholeLine": false, "overviewRuler": false }
                  }
                }
              ]
            }
            """)])
        #expect(configuration.diagnostics.isEmpty, "\(configuration.diagnostics)")
        let rule = Style(
            backgroundColor: Self.amber, overviewRuler: OverviewRulerMark(color: Self.red), gutter: GutterSign(text: "!"),
            wholeLine: true)
        #expect(configuration.styles == [rule])
        var inherited = rule
        inherited.bold = true
        #expect(configuration.pieceKind(.group(0))?.style == inherited)
        var noSign = rule
        noSign.gutter = nil
        noSign.overviewRuler = OverviewRulerMark(lane: .right)
        #expect(configuration.pieceKind(.group(1))?.style == noSign)
        var signed = rule
        signed.gutter = GutterSign(text: "@", color: Self.blue)
        #expect(configuration.pieceKind(.group(2))?.style == signed)
        var plain = rule
        plain.wholeLine = false
        plain.overviewRuler = nil
        #expect(configuration.pieceKind(.group(3))?.style == plain)
    }

    // MARK: Resolved colours

    @Test func resolvedColours() {
        let translucentRed = RGBAColor(red: 0xff, green: 0, blue: 0, alpha: 0x33)
        // A mark without a colour of its own takes the style's: background, text, border, grey.
        #expect(Style(color: Self.blue, backgroundColor: Self.red, overviewRuler: OverviewRulerMark()).overviewRulerColor == Self.red)
        #expect(Style(color: Self.blue, gutter: GutterSign()).gutterColor == Self.blue)
        #expect(Style(borderColor: Self.red, gutter: GutterSign()).gutterColor == Self.red)
        #expect(Style(gutter: GutterSign()).gutterColor == Style.neutralBackground)
        #expect(Style(backgroundColor: Self.red, gutter: GutterSign(color: Self.blue)).gutterColor == Self.blue)
        #expect(Style(backgroundColor: Self.red).gutterColor == nil)
        #expect(Style(backgroundColor: Self.red).overviewRulerColor == nil)
        // A whole line takes the background as it is, else a tint of the text colour.
        #expect(Style(backgroundColor: Self.red, wholeLine: true).lineBackgroundColor == Self.red)
        #expect(Style(color: Self.red, wholeLine: true).lineBackgroundColor == translucentRed)
        #expect(Style(borderColor: Self.red, wholeLine: true).lineBackgroundColor == translucentRed)
        #expect(Style(wholeLine: true).lineBackgroundColor == Style.neutralBackground)
        #expect(Style(backgroundColor: Self.red).lineBackgroundColor == nil)
    }
}

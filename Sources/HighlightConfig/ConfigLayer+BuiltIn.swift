import PatternEngine

extension ConfigLayer {
    /// The built-in rules and styles, so that highlighting is useful with no configuration at all.
    ///
    /// The rule names are stable, since users refer to them to replace or switch off a rule:
    ///
    /// | rule         | words                    | style        |
    /// |--------------|--------------------------|--------------|
    /// | `fixme`      | FIXME, BUG, XXX          | `fixme`      |
    /// | `todo`       | TODO                     | `todo`       |
    /// | `hack`       | HACK                     | `hack`       |
    /// | `note`       | NOTE, INFO               | `note`       |
    /// | `review`     | REVIEW, OPTIMIZE         | `review`     |
    /// | `deprecated` | DEPRECATED               | `deprecated` |
    ///
    /// All are whole-word and case-sensitive. Each rule uses the style of its own name (so a
    /// style named `todo` in a higher layer recolours TODO), and the generic styles `error`,
    /// `warning`, `caution`, `info`, `hint` and `highlight` are there for users' own rules.
    public static let builtIn = ConfigLayer(
        defaults: nil,
        styles: BuiltInStyles.all,
        rules: [
            builtInRule("fixme", words: ["FIXME", "BUG", "XXX"]),
            builtInRule("todo", words: ["TODO"]),
            builtInRule("hack", words: ["HACK"]),
            builtInRule("note", words: ["NOTE", "INFO"]),
            builtInRule("review", words: ["REVIEW", "OPTIMIZE"]),
            builtInRule("deprecated", words: ["DEPRECATED"]),
        ])

    /// The built-in `color` rule, which `"colors": true` adds after all other rules: it finds
    /// colour literals (`#f80`, `rgb(255 136 0)`, `hsl(32, 100%, 50%)`, see `ColorLiteral`),
    /// and each match is drawn in its own colour with black or white text, whichever reads better.
    public static let colorLiterals: ConfigLayer = {
        var definition = RuleDefinition(name: ColorLiteral.ruleName, pattern: .regex(ColorLiteral.pattern), caseSensitive: false)
        definition.findsColorLiterals = true
        definition.origin = ConfigOrigin(source: BuiltInStyles.source)
        return ConfigLayer(rules: [definition])
    }()

    private static func builtInRule(_ name: String, words: [String]) -> RuleDefinition {
        var definition = RuleDefinition(name: name, pattern: .words(words), caseSensitive: true, wholeWord: true)
        definition.origin = ConfigOrigin(source: BuiltInStyles.source)
        // The work items are what a workspace-wide list is for; notes and deprecations would drown them.
        definition.applicability.list = ["fixme", "todo", "hack"].contains(name)
        return definition
    }
}

/// The built-in styles: solid, rounded labels with a text colour chosen for contrast on the
/// label, so that they read the same on light and dark themes.
enum BuiltInStyles {
    /// The source named in messages about built-in configuration.
    static let source = "built-in defaults"

    private static func label(background: RGBAColor, text: RGBAColor) -> Style {
        Style(color: text, backgroundColor: background, bold: true, rounded: true)
    }

    private static let white = RGBAColor(red: 0xff, green: 0xff, blue: 0xff)
    private static let nearBlack = RGBAColor(red: 0x1a, green: 0x1a, blue: 0x1a)

    /// Red, for defects: FIXME, BUG, XXX.
    static let error = label(background: RGBAColor(red: 0xd3, green: 0x2f, blue: 0x2f), text: white)
    /// Amber, for work still to do: TODO.
    static let warning = label(background: RGBAColor(red: 0xf9, green: 0xa8, blue: 0x25), text: nearBlack)
    /// Orange, for known shortcuts: HACK.
    static let caution = label(background: RGBAColor(red: 0xef, green: 0x6c, blue: 0x00), text: white)
    /// Blue, for information: NOTE, INFO.
    static let info = label(background: RGBAColor(red: 0x19, green: 0x76, blue: 0xd2), text: white)
    /// Green, for suggestions: REVIEW, OPTIMIZE.
    static let hint = label(background: RGBAColor(red: 0x2e, green: 0x7d, blue: 0x32), text: white)
    /// Grey and struck through, for things on their way out: DEPRECATED.
    static let deprecated = Style(color: RGBAColor(red: 0x9e, green: 0x9e, blue: 0x9e), strikethrough: true)

    /// Every built-in style by name.
    static let all: [String: Style] = [
        "error": error, "warning": warning, "caution": caution, "info": info, "hint": hint, "highlight": Style.neutral,
        "fixme": error, "todo": warning, "hack": caution, "note": info, "review": hint, "deprecated": deprecated,
    ]
}

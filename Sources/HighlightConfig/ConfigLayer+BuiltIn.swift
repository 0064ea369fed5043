import PatternEngine

extension ConfigLayer {
    /// The built-in rules and styles, so that highlighting is useful with no configuration at all.
    ///
    /// The rule names are stable, since users refer to them to replace or switch off a rule:
    ///
    /// | rule         | matches                  | where                 | style        |
    /// |--------------|--------------------------|-----------------------|--------------|
    /// | `fixme`      | FIXME, BUG, XXX          | comments              | `fixme`      |
    /// | `todo`       | TODO                     | comments              | `todo`       |
    /// | `hack`       | HACK                     | comments              | `hack`       |
    /// | `note`       | NOTE, INFO               | comments              | `note`       |
    /// | `review`     | REVIEW, OPTIMIZE         | comments              | `review`     |
    /// | `deprecated` | DEPRECATED               | comments              | `deprecated` |
    /// | `task`       | `- [ ]`, `* [ ]` items   | Markdown              | `task`       |
    ///
    /// The words are whole-word and case-sensitive, and match in comments only, as the tools
    /// people use for this stay out of code: `level=logging.INFO` and `BUG()` are code, and a
    /// string literal (`getLevelName('INFO')`) is a value of the program. Documentation counts as
    /// comment where the language table knows it (a Python docstring, all of a Markdown file),
    /// and a language without a table entry (plain text) has no scopes, so they match anywhere
    /// there. Each rule uses the style of its own name (so a style named `todo` in a higher layer
    /// recolours TODO), and the generic styles `error`, `warning`, `caution`, `info`, `hint` and
    /// `highlight` are there for users' own rules.
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
            markdownTaskRule,
        ])

    /// The regex of the built-in `task` rule: an unchecked task item of a Markdown list, from the
    /// line start to its box (`- [ ]`, `* [ ]`, `+ [ ]`, `1. [ ]`, indented or not), as GitHub
    /// writes task lists.
    static let markdownTaskPattern = #"^[ \t]*(?:[-*+]|[0-9]{1,9}[.)])[ \t]+\[ \]"#

    /// The built-in `color` rule, which `"colors": true` adds after all other rules: it finds
    /// colour literals (`#f80`, `rgb(255 136 0)`, `hsl(32, 100%, 50%)`, see `ColorLiteral`),
    /// and each match is drawn in its own colour with black or white text, whichever reads better.
    static let colorLiterals: ConfigLayer = {
        var definition = RuleDefinition(name: ColorLiteral.ruleName, pattern: .regex(ColorLiteral.pattern), caseSensitive: false)
        definition.findsColorLiterals = true
        definition.origin = ConfigOrigin(source: BuiltInStyles.source)
        return ConfigLayer(rules: [definition])
    }()

    private static func builtInRule(_ name: String, words: [String]) -> RuleDefinition {
        var definition = RuleDefinition(name: name, pattern: .words(words), caseSensitive: true, wholeWord: true)
        definition.origin = ConfigOrigin(source: BuiltInStyles.source)
        definition.applicability.scopes = .comments
        // The work items are what a workspace-wide list is for; notes and deprecations would drown them.
        definition.applicability.list = ["fixme", "todo", "hack"].contains(name)
        // `TODO(alice, 2026-03-01)`: owners, tickets and deadlines are written with the markers.
        definition.applicability.readsFields = true
        return definition
    }

    /// The built-in `task` rule: unchecked Markdown task items, listed like TODOs.
    private static var markdownTaskRule: RuleDefinition {
        var definition = RuleDefinition(name: "task", pattern: .regex(markdownTaskPattern))
        definition.origin = ConfigOrigin(source: BuiltInStyles.source)
        definition.applicability.languages = ["markdown"]
        definition.applicability.list = true
        return definition
    }
}

/// The built-in styles: solid, rounded labels with a text colour chosen for contrast on the
/// label, so that they read the same on light and dark themes. The labels and task items also
/// mark the overview ruler, in the label's colour, so that they can be found in a long file.
enum BuiltInStyles {
    /// The source named in messages about built-in configuration.
    static let source = "built-in defaults"

    private static func label(background: RGBAColor, text: RGBAColor) -> Style {
        Style(color: text, backgroundColor: background, bold: true, rounded: true, overviewRuler: OverviewRulerMark())
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
    /// Bold orange text with no background, for task items: their match runs from the line start,
    /// so a label would paint the indentation of a nested item.
    static let task = Style(color: RGBAColor(red: 0xef, green: 0x6c, blue: 0x00), bold: true, overviewRuler: OverviewRulerMark())

    /// Every built-in style by name.
    static let all: [String: Style] = [
        "error": error, "warning": warning, "caution": caution, "info": info, "hint": hint, "highlight": Style.neutral,
        "fixme": error, "todo": warning, "hack": caution, "note": info, "review": hint, "deprecated": deprecated,
        "task": task,
    ]
}

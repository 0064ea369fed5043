import HighlightConfig
import PatternEngine

/// Words the user marked in this session: the highest configuration layer, kept in memory only.
///
/// Each mark is a rule named after its colour slot (`mark1`…`mark8`), so that distinct marks get
/// distinct semantic token types and decoration styles, and the legend can name every slot from
/// `initialize` on. A new mark takes the next slot in turn; when that slot is taken, its old mark
/// gives way, as the colours of a highlighter cycle. The newest mark is listed first, so it wins
/// ties against older marks, and every mark wins ties against the other layers' rules.
struct SessionMarks {
    /// One marked text.
    struct Mark: Equatable {
        /// The text as marked: a word under the cursor, or a literal selection.
        var text: String
        /// True for a word under the cursor: the mark matches it as a whole word only.
        var wholeWord: Bool
        /// The colour slot, 1 through `palette.count`; the rule and token type are `mark<slot>`.
        var slot: Int

        /// The rule name and token type of the mark.
        var ruleName: String { SessionMarks.ruleName(ofSlot: slot) }
    }

    /// The longest text a mark may hold, in UTF-8 bytes; longer selections offer no mark.
    static let maximumTextUTF8Count = 200

    /// The background colours of the slots, in the order marks take them. Each is a light, fairly
    /// saturated colour drawn under black text, which reads on light and on dark themes alike.
    static let palette: [Style] = [
        (0x7F, 0xC8, 0xF8), // sky blue
        (0x9B, 0xE2, 0x8B), // green
        (0xFF, 0xD8, 0x66), // amber
        (0xFF, 0x8A, 0x80), // salmon
        (0xE1, 0xA6, 0xFF), // lilac
        (0x80, 0xE0, 0xD0), // teal
        (0xFF, 0xB0, 0x7C), // orange
        (0xB8, 0xB8, 0xFF), // periwinkle
    ].map { red, green, blue in
        Style(
            color: RGBAColor(red: 0, green: 0, blue: 0, alpha: 0xFF),
            backgroundColor: RGBAColor(red: red, green: green, blue: blue, alpha: 0xFF))
    }

    /// The token types of every slot, `mark1`…`mark8`, in slot order.
    static let tokenTypes: [String] = palette.indices.map { ruleName(ofSlot: $0 + 1) }

    /// The rule name (and style name, and token type) of a slot.
    static func ruleName(ofSlot slot: Int) -> String { "mark\(slot)" }

    /// The marks, newest first.
    private(set) var marks: [Mark] = []
    /// The slot the next new mark takes.
    private var nextSlot = 1

    /// The mark of exactly this text and kind, if there is one.
    func mark(text: String, wholeWord: Bool) -> Mark? {
        marks.first { $0.text == text && $0.wholeWord == wholeWord }
    }

    /// The mark drawn with the rule `ruleName`, if there is one.
    func mark(ruleName: String) -> Mark? {
        marks.first { $0.ruleName == ruleName }
    }

    /// Adds a mark (or keeps the existing one of the same text and kind) and returns it.
    mutating func add(text: String, wholeWord: Bool) -> Mark {
        if let existing = mark(text: text, wholeWord: wholeWord) { return existing }
        let slot = nextSlot
        nextSlot = slot % Self.palette.count + 1
        marks.removeAll { $0.slot == slot }
        let mark = Mark(text: text, wholeWord: wholeWord, slot: slot)
        marks.insert(mark, at: 0)
        return mark
    }

    /// Removes the mark of this text and kind; false when there was none.
    mutating func remove(text: String, wholeWord: Bool) -> Bool {
        let before = marks.count
        marks.removeAll { $0.text == text && $0.wholeWord == wholeWord }
        return marks.count != before
    }

    /// Removes every mark; the next mark starts again at the first colour.
    mutating func removeAll() {
        marks = []
        nextSlot = 1
    }

    /// The marks as a configuration layer: one literal rule per mark, and the palette's styles,
    /// which are there even with no marks so that the legend's types always have a style.
    var layer: ConfigLayer {
        var styles: [String: Style] = [:]
        for (index, style) in Self.palette.enumerated() { styles[Self.ruleName(ofSlot: index + 1)] = style }
        let rules = marks.map { mark in
            var rule = RuleDefinition(
                name: mark.ruleName, pattern: .words([mark.text]), caseSensitive: true, wholeWord: mark.wholeWord,
                style: .named(mark.ruleName))
            // Marks are matches like any other: listed, so they show in the outline, the
            // workspace list and the plugins' next/previous commands.
            rule.applicability.list = true
            return rule
        }
        return ConfigLayer(styles: styles, rules: rules)
    }
}

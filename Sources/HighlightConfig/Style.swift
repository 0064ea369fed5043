/// How a match is drawn: colours and text attributes, named as editor decoration APIs name them.
///
/// A style from the file is complete as written: an attribute it leaves out is off (or, for a
/// colour, left to the editor's theme). Styles are not merged key by key across layers; a style
/// defined in a higher layer replaces the whole style of the same name.
public struct Style: Hashable, Sendable {
    /// The foreground (text) colour; `nil` keeps the theme's colour.
    public var color: RGBAColor?
    /// The background colour behind the match; `nil` for none.
    public var backgroundColor: RGBAColor?
    /// The colour of a border drawn around the match; `nil` for no border.
    public var borderColor: RGBAColor?
    /// Bold text.
    public var bold: Bool
    /// Italic text.
    public var italic: Bool
    /// Underlined text.
    public var underline: Bool
    /// Struck-through text.
    public var strikethrough: Bool
    /// Rounded corners on the background and border, so the match looks like a pill.
    public var rounded: Bool
    /// A mark in the overview ruler for each line of a match; `nil` for none.
    public var overviewRuler: OverviewRulerMark?
    /// A sign in the gutter of each line of a match; `nil` for none.
    public var gutter: GutterSign?
    /// Whether each line of a match gets a background across the whole line (see `lineBackgroundColor`).
    public var wholeLine: Bool

    /// A style from its attributes; everything is off by default.
    public init(
        color: RGBAColor? = nil, backgroundColor: RGBAColor? = nil, borderColor: RGBAColor? = nil,
        bold: Bool = false, italic: Bool = false, underline: Bool = false, strikethrough: Bool = false,
        rounded: Bool = false, overviewRuler: OverviewRulerMark? = nil, gutter: GutterSign? = nil,
        wholeLine: Bool = false
    ) {
        self.color = color
        self.backgroundColor = backgroundColor
        self.borderColor = borderColor
        self.bold = bold
        self.italic = italic
        self.underline = underline
        self.strikethrough = strikethrough
        self.rounded = rounded
        self.overviewRuler = overviewRuler
        self.gutter = gutter
        self.wholeLine = wholeLine
    }

    /// Whether the style draws anything per line: an overview ruler mark, a gutter sign or a whole-line background.
    var drawsLineIndicators: Bool { overviewRuler != nil || gutter != nil || wholeLine }

    /// The colour that stands for the style where only a colour can be shown (a ruler mark, a
    /// sign): its background, else its text colour, else its border, else the neutral grey.
    var ownColor: RGBAColor {
        backgroundColor ?? color ?? borderColor ?? Style.neutralBackground
    }

    /// The colour of the ruler mark, when there is one: its own colour, else the style's.
    public var overviewRulerColor: RGBAColor? {
        overviewRuler.map { $0.color ?? ownColor }
    }

    /// The colour of the gutter sign, when there is one: its own colour, else the style's.
    public var gutterColor: RGBAColor? {
        gutter.map { $0.color ?? ownColor }
    }

    /// The background of each whole line, with `wholeLine`: the style's background colour; for
    /// a style without one, its text (else border) colour at a fifth of its opacity, so that the
    /// line is tinted rather than painted over; else the neutral grey.
    public var lineBackgroundColor: RGBAColor? {
        guard wholeLine else { return nil }
        if let backgroundColor { return backgroundColor }
        guard var tint = color ?? borderColor else { return Style.neutralBackground }
        tint.alpha = UInt8(Int(tint.alpha) / 5)
        return tint
    }

    /// The translucent grey of the neutral highlight.
    public static let neutralBackground = RGBAColor(red: 0x80, green: 0x80, blue: 0x80, alpha: 0x4d)

    /// The neutral highlight used by a rule that names no style and has no style named after it:
    /// a translucent grey background that reads on light and dark themes.
    public static let neutral = Style(backgroundColor: neutralBackground)
}

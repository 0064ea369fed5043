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

    /// A style from its attributes; everything is off by default.
    public init(
        color: RGBAColor? = nil, backgroundColor: RGBAColor? = nil, borderColor: RGBAColor? = nil,
        bold: Bool = false, italic: Bool = false, underline: Bool = false, strikethrough: Bool = false,
        rounded: Bool = false
    ) {
        self.color = color
        self.backgroundColor = backgroundColor
        self.borderColor = borderColor
        self.bold = bold
        self.italic = italic
        self.underline = underline
        self.strikethrough = strikethrough
        self.rounded = rounded
    }

    /// The neutral highlight used by a rule that names no style and has no style named after it:
    /// a translucent grey background that reads on light and dark themes.
    public static let neutral = Style(backgroundColor: RGBAColor(red: 0x80, green: 0x80, blue: 0x80, alpha: 0x4d))
}

/// Style attributes that override those of another style one by one; an attribute left `nil`
/// keeps the other style's.
///
/// A capture group's style is a patch over its rule's style, so `TODO(alice):` can draw `alice`
/// in another colour while keeping the rule's background. Written inline, a patch holds exactly
/// the keys written (so `"bold": false` turns bold off); made from a named style, it holds the
/// colours that style sets and the attributes it turns on.
struct StylePatch: Hashable, Sendable {
    /// The foreground (text) colour, or `nil` to keep the base style's.
    public var color: RGBAColor?
    /// The background colour, or `nil` to keep the base style's.
    public var backgroundColor: RGBAColor?
    /// The border colour, or `nil` to keep the base style's.
    public var borderColor: RGBAColor?
    /// Bold on or off, or `nil` to keep the base style's.
    public var bold: Bool?
    /// Italic on or off, or `nil` to keep the base style's.
    public var italic: Bool?
    /// Underline on or off, or `nil` to keep the base style's.
    public var underline: Bool?
    /// Strikethrough on or off, or `nil` to keep the base style's.
    public var strikethrough: Bool?
    /// Rounded corners on or off, or `nil` to keep the base style's.
    public var rounded: Bool?
    /// A ruler mark (`.some(mark)`), none (`.some(nil)`), or `nil` to keep the base style's.
    public var overviewRuler: OverviewRulerMark??
    /// A gutter sign (`.some(sign)`), none (`.some(nil)`), or `nil` to keep the base style's.
    public var gutter: GutterSign??
    /// Whole-line background on or off, or `nil` to keep the base style's.
    public var wholeLine: Bool?

    /// A patch from its attributes; everything is left to the base style by default.
    init(
        color: RGBAColor? = nil, backgroundColor: RGBAColor? = nil, borderColor: RGBAColor? = nil,
        bold: Bool? = nil, italic: Bool? = nil, underline: Bool? = nil, strikethrough: Bool? = nil,
        rounded: Bool? = nil, overviewRuler: OverviewRulerMark?? = nil, gutter: GutterSign?? = nil,
        wholeLine: Bool? = nil
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

    /// The attributes `style` sets: its colours, and the attributes and line indicators it turns on.
    init(settingAttributesOf style: Style) {
        self.init(
            color: style.color, backgroundColor: style.backgroundColor, borderColor: style.borderColor,
            bold: style.bold ? true : nil, italic: style.italic ? true : nil, underline: style.underline ? true : nil,
            strikethrough: style.strikethrough ? true : nil, rounded: style.rounded ? true : nil,
            overviewRuler: style.overviewRuler.map { .some($0) }, gutter: style.gutter.map { .some($0) },
            wholeLine: style.wholeLine ? true : nil)
    }

    /// `base` with every attribute this patch sets replaced.
    func applied(to base: Style) -> Style {
        Style(
            color: color ?? base.color, backgroundColor: backgroundColor ?? base.backgroundColor,
            borderColor: borderColor ?? base.borderColor, bold: bold ?? base.bold, italic: italic ?? base.italic,
            underline: underline ?? base.underline, strikethrough: strikethrough ?? base.strikethrough,
            rounded: rounded ?? base.rounded, overviewRuler: overviewRuler ?? base.overviewRuler,
            gutter: gutter ?? base.gutter, wholeLine: wholeLine ?? base.wholeLine)
    }
}

// What a style can draw beside the text of a match, once per line the match is on: a mark in
// the overview ruler (the scroll bar's map of the file), a sign in the gutter, and a background
// across the whole line. Editors draw these per line, not per character, so the server sends
// them per line (see `Server+Decorations.swift`).

/// A mark in the editor's overview ruler, the map of the file beside the scroll bar.
public struct OverviewRulerMark: Hashable, Sendable {
    /// The lane of the ruler the mark is drawn in, as VS Code names them.
    public enum Lane: String, CaseIterable, Sendable {
        case left, center, right, full
    }

    /// The mark's colour; `nil` uses the style's own colour (see `Style.ownColor`).
    public var color: RGBAColor?
    /// The lane of the ruler.
    public var lane: Lane

    /// The lane a mark uses when none is written: the centre, between version control (left)
    /// and diagnostics (right).
    public static let defaultLane = Lane.center

    /// A mark in `lane`, in `color` or the style's own colour.
    public init(color: RGBAColor? = nil, lane: Lane = OverviewRulerMark.defaultLane) {
        self.color = color
        self.lane = lane
    }
}

/// A sign in the gutter (Neovim's sign column, Emacs' fringe, VS Code's glyph margin).
public struct GutterSign: Hashable, Sendable {
    /// The sign's text, one or two cells wide; `nil` leaves the sign to the editor (a dot).
    public var text: String?
    /// The sign's colour; `nil` uses the style's own colour (see `Style.ownColor`).
    public var color: RGBAColor?

    /// The widest sign, in terminal cells: Neovim's sign column is two cells wide.
    static let maximumCellWidth = 2

    /// A sign of `text` (or the editor's dot) in `color` (or the style's own colour).
    public init(text: String? = nil, color: RGBAColor? = nil) {
        self.text = text
        self.color = color
    }

    /// How many terminal cells `text` takes, as a terminal counts them; `nil` when it holds a
    /// control character (a line break, a tab), which no sign column can draw.
    ///
    /// East Asian wide and full-width characters and emoji drawn as emoji take two cells,
    /// combining marks, zero-width joiners, variation selectors and skin-tone modifiers none,
    /// everything else one.
    /// This is the rule of `wcwidth`, with the wide ranges of Unicode 15 written out.
    static func cellWidth(of text: String) -> Int? {
        var width = 0
        for scalar in text.unicodeScalars {
            let value = scalar.value
            if value < 0x20 || (0x7f..<0xa0).contains(value) { return nil }
            switch scalar.properties.generalCategory {
            case .nonspacingMark, .enclosingMark, .format:
                continue
            default:
                break
            }
            // Variation selectors and emoji skin-tone modifiers change the character before them.
            if (0xfe00...0xfe0f).contains(value) || (0x1f3fb...0x1f3ff).contains(value) { continue }
            width += isWide(scalar) ? 2 : 1
        }
        return width
    }

    /// Whether a terminal draws `scalar` two cells wide.
    private static func isWide(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.properties.isEmojiPresentation { return true }
        let wideRanges: [ClosedRange<UInt32>] = [
            0x1100...0x115f, 0x231a...0x231b, 0x2329...0x232a, 0x2e80...0x303e, 0x3041...0x33ff,
            0x3400...0x4dbf, 0x4e00...0x9fff, 0xa000...0xa4cf, 0xa960...0xa97f, 0xac00...0xd7a3,
            0xf900...0xfaff, 0xfe10...0xfe19, 0xfe30...0xfe6f, 0xff00...0xff60, 0xffe0...0xffe6,
            0x1f300...0x1f64f, 0x1f900...0x1f9ff, 0x20000...0x2fffd, 0x30000...0x3fffd,
        ]
        return wideRanges.contains { $0.contains(scalar.value) }
    }
}

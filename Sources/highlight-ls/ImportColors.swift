import HighlightConfig

// Colours as other highlighters' settings write them. VS Code extensions take CSS colours (`#f80`,
// `rgba(255, 0, 0, .2)`, `red`); Emacs takes X11 names, which agree with CSS except for a few
// (`green` is `#00ff00` in X11 and `#008000` in CSS). `.highlights.json` takes only hex, so a
// name is looked up here; a name not here, or a theme colour (`{ "id": "editorWarning.foreground" }`
// in VS Code), cannot be carried over and is named by the caller.

/// Which naming of colours a setting follows.
enum ColorNaming {
    /// CSS, as VS Code decorations read colours.
    case css
    /// X11, as Emacs reads colour names (spaces and case do not count: `dark orange` is `DarkOrange`).
    case x11
}

/// The colour a setting writes, or nil when it is not a hex colour, `rgb()`/`rgba()`/`hsl()`/`hsla()` or a
/// name this table knows.
func importedColor(_ text: String, naming: ColorNaming) -> RGBAColor? {
    let trimmed = text.trimmingSpaces()
    if let color = RGBAColor(literal: Array(trimmed.utf8)) { return color }
    let key = String(trimmed.lowercased().filter { $0 != " " })
    if naming == .x11, let hex = x11Differences[key] { return RGBAColor(literal: Array(hex.utf8)) }
    if key == "transparent" { return RGBAColor(red: 0, green: 0, blue: 0, alpha: 0) }
    return cssNames[key].flatMap { RGBAColor(literal: Array($0.utf8)) }
}

extension String {
    /// The text without spaces, tabs and line breaks at either end.
    func trimmingSpaces() -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
            let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })
        else { return "" }
        return String(scalars[first...last])
    }
}

/// CSS colour names (CSS Color Module Level 4, the names settings examples use most), by lower-case name.
private let cssNames: [String: String] = [
    "black": "#000000", "silver": "#c0c0c0", "gray": "#808080", "grey": "#808080", "white": "#ffffff",
    "maroon": "#800000", "red": "#ff0000", "purple": "#800080", "fuchsia": "#ff00ff", "magenta": "#ff00ff",
    "green": "#008000", "lime": "#00ff00", "olive": "#808000", "yellow": "#ffff00", "navy": "#000080",
    "blue": "#0000ff", "teal": "#008080", "aqua": "#00ffff", "cyan": "#00ffff", "orange": "#ffa500",
    "darkorange": "#ff8c00", "orangered": "#ff4500", "gold": "#ffd700", "pink": "#ffc0cb", "hotpink": "#ff69b4",
    "brown": "#a52a2a", "tomato": "#ff6347", "coral": "#ff7f50", "crimson": "#dc143c", "darkred": "#8b0000",
    "darkgreen": "#006400", "lightgreen": "#90ee90", "limegreen": "#32cd32", "forestgreen": "#228b22",
    "seagreen": "#2e8b57", "darkblue": "#00008b", "lightblue": "#add8e6", "skyblue": "#87ceeb",
    "dodgerblue": "#1e90ff", "royalblue": "#4169e1", "steelblue": "#4682b4", "violet": "#ee82ee",
    "darkviolet": "#9400d3", "indigo": "#4b0082", "khaki": "#f0e68c", "lightgray": "#d3d3d3",
    "lightgrey": "#d3d3d3", "darkgray": "#a9a9a9", "darkgrey": "#a9a9a9", "dimgray": "#696969", "dimgrey": "#696969",
    "salmon": "#fa8072", "turquoise": "#40e0d0", "chocolate": "#d2691e", "goldenrod": "#daa520",
    "lightyellow": "#ffffe0", "beige": "#f5f5dc", "wheat": "#f5deb3", "tan": "#d2b48c", "orchid": "#da70d6",
    "plum": "#dda0dd", "firebrick": "#b22222", "deeppink": "#ff1493", "deepskyblue": "#00bfff",
    "rebeccapurple": "#663399", "slategray": "#708090", "slategrey": "#708090",
]

/// X11 names whose colour differs from CSS's (Emacs follows X11).
private let x11Differences: [String: String] = [
    "green": "#00ff00", "gray": "#bebebe", "grey": "#bebebe", "maroon": "#b03060", "purple": "#a020f0",
]

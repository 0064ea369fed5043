import HighlightConfig
import PatternEngine
import TextIndex

// todo-comments.nvim, read from the table a Lua file passes to `require("todo-comments").setup`
// (or the `opts` table of a lazy.nvim spec naming folke/todo-comments.nvim), merged over the
// defaults its README documents, as the plugin merges them (`vim.tbl_deep_extend`):
//
//   keywords = { FIX = { icon = " ", color = "error", alt = { "FIXME", "BUG" } }, … }
//       one rule a keyword, matching it and its alternatives
//   highlight.pattern = [[.*<(KEYWORDS)\s*:]]
//       the keyword must start a word, matched with case (the plugin prefixes \v\C), followed by
//       spaces and a colon: the regex (?P<keyword>FIXME|FIXIT|ISSUE|FIX|BUG)[ \t]*:.* with wholeWord
//       (Vim's \s is a space or a tab; the alternatives longest first, as the plugin joins them)
//   highlight.keyword = "wide", after = "fg"
//       the keyword group (the keyword alone) is a label in the colour, and what follows it to the
//       line's end, the colon too, text in the colour
//   highlight.comments_only = true
//       "scope": "comments"
//   colors.error = { "DiagnosticError", "ErrorMsg", "#DC2626" }
//       error, warning, info and hint become the built-in styles of those names; other colours
//       take the first hex of their list, as the plugin does when no group before it is defined.

/// Reads todo-comments.nvim's settings from the text of a Lua file.
struct TodoCommentsImport {
    let utf8: [UInt8]
    /// The lines of `utf8`, indexed once for the places of all problems and rules.
    let lines: LineIndex
    var result = ImportResult()
    var names = ImportedRuleNames()

    /// A keyword as the plugin's defaults or the settings give it.
    struct Keyword {
        var name: String
        var icon: String?
        var color = "default"
        var alternatives: [String] = []
        var signs: Bool?
        /// Where the settings write it; nil for a default the settings leave as it is.
        var utf8Offset: Int?
    }

    /// The default keywords of todo-comments.nvim (lua/todo-comments/config.lua, and its README), in their order (the icons are Nerd Font glyphs, shown as a dot).
    static let defaultKeywords: [Keyword] = [
        Keyword(name: "FIX", color: "error", alternatives: ["FIXME", "BUG", "FIXIT", "ISSUE"]),
        Keyword(name: "TODO", color: "info"),
        Keyword(name: "HACK", color: "warning"),
        Keyword(name: "WARN", color: "warning", alternatives: ["WARNING", "XXX"]),
        Keyword(name: "PERF", alternatives: ["OPTIM", "PERFORMANCE", "OPTIMIZE"]),
        Keyword(name: "NOTE", color: "hint", alternatives: ["INFO"]),
        Keyword(name: "TEST", color: "test", alternatives: ["TESTING", "PASSED", "FAILED"]),
    ]

    /// The default `colors`: the hex each named colour falls back on when the theme defines none of its groups.
    static let defaultColors: [String: String] = [
        "error": "#DC2626", "warning": "#FBBF24", "info": "#2563EB", "hint": "#10B981", "default": "#7C3AED", "test": "#FF00FF",
    ]

    /// The named colours that are built-in styles of highlight-ls too.
    static let builtInStyleColors: Set<String> = ["error", "warning", "info", "hint"]

    /// The import of a Lua text, or why its settings table cannot be read.
    static func run(_ utf8: [UInt8]) -> Result<ImportResult, ImportFailure> {
        var importer = TodoCommentsImport(utf8: utf8, lines: LineIndex(utf8: utf8))
        guard let place = settingsPlace(in: utf8) else { return .success(importer.result) }
        importer.result.tools.append("todo-comments.nvim")
        var table = LuaTable()
        var tableOffset = 0
        switch place {
        case .table(let start):
            var reader = LuaReader(bytes: utf8, at: start)
            do {
                table = try reader.readTable()
            } catch {
                return .failure(ImportFailure(place: importer.lines.textLocation(ofUTF8Offset: error.utf8Offset), message: "cannot read the Lua table: \(error.message)"))
            }
            tableOffset = start
        case .defaults(let setup):
            tableOffset = setup
        case .expression(let start):
            importer.problem(start, "the settings", "they are computed by Lua code, and the import reads a table written out",
                nearest: "the defaults, used")
            tableOffset = start
        }
        importer.convert(table, at: tableOffset)
        return .success(importer.result)
    }

    /// Where the settings are in a Lua file.
    enum SettingsPlace: Equatable {
        /// A table constructor starts at this offset.
        case table(utf8Offset: Int)
        /// `setup()` with no table: the defaults; the offset is that of `setup`.
        case defaults(utf8Offset: Int)
        /// Something other than a table (`opts = function() … end`) starts at this offset.
        case expression(utf8Offset: Int)
    }

    /// Where the settings are: the table after `require("todo-comments").setup(`, or after `opts =` in a lazy.nvim
    /// spec of folke/todo-comments.nvim; nil when the file has neither.
    static func settingsPlace(in utf8: [UInt8]) -> SettingsPlace? {
        for start in occurrences(of: "todo-comments", in: utf8) {
            var reader = LuaReader(bytes: utf8, at: start + "todo-comments".utf8.count)
            // `"todo-comments")` then `.setup` then `(` or `{`.
            while let byte = reader.byte(), [UInt8(ascii: "\""), UInt8(ascii: "'"), UInt8(ascii: ")"), UInt8(ascii: "]")].contains(byte) {
                reader.index += 1
            }
            reader.skipTrivia()
            guard reader.byte() == UInt8(ascii: "."), reader.peekNameAfterDot() == "setup" else { continue }
            let setup = reader.index + 1
            reader.index += 1 + "setup".utf8.count
            reader.skipTrivia()
            if reader.byte() == UInt8(ascii: "{") { return .table(utf8Offset: reader.index) }
            guard reader.byte() == UInt8(ascii: "(") else { continue }
            reader.index += 1
            reader.skipTrivia()
            if reader.byte() == UInt8(ascii: ")") { return .defaults(utf8Offset: setup) }
            return reader.byte() == UInt8(ascii: "{") ? .table(utf8Offset: reader.index) : .expression(utf8Offset: reader.index)
        }
        // A lazy.nvim spec: `{ "folke/todo-comments.nvim", opts = { … } }`; the first `opts =` after the name is its own.
        for start in occurrences(of: "folke/todo-comments.nvim", in: utf8) {
            var search = LuaReader(bytes: utf8, at: start)
            while search.index < min(utf8.count, start + 4000) {
                let previous = search.index > 0 ? utf8[search.index - 1] : 0x20
                guard !search.isNameStart(previous), search.peekName() == "opts" else {
                    search.index += 1
                    continue
                }
                search.index += 4
                search.skipTrivia()
                guard search.byte() == UInt8(ascii: "=") else { continue }
                search.index += 1
                search.skipTrivia()
                return search.byte() == UInt8(ascii: "{") ? .table(utf8Offset: search.index) : .expression(utf8Offset: search.index)
            }
        }
        return nil
    }

    /// The offsets where `word` starts in `bytes`, strings and comments included (the callers check what follows).
    static func occurrences(of word: String, in bytes: [UInt8]) -> [Int] {
        let wanted = Array(word.utf8)
        guard bytes.count >= wanted.count else { return [] }
        return (0...(bytes.count - wanted.count)).filter { bytes[$0..<($0 + wanted.count)].elementsEqual(wanted) }
    }

    /// Names `construct` at `utf8Offset` of the file.
    mutating func problem(_ utf8Offset: Int, _ construct: String, _ reason: String, nearest: String) {
        result.problems.append(ImportProblem(
            place: lines.textLocation(ofUTF8Offset: utf8Offset), construct: construct, reason: reason, nearest: nearest))
    }

    /// The value of a field, or nil (named) when it is an expression the import does not evaluate.
    mutating func literal(_ node: LuaNode?, _ what: String) -> LuaNode? {
        guard let node else { return nil }
        if case .expression(let text) = node.value {
            problem(node.utf8Offset, "\(what) = \(text)", "the import reads literal values, not Lua expressions", nearest: "the default, used")
            return nil
        }
        return node
    }

    /// The rules of the settings `table` merged over the defaults; what the file leaves out is named at `tableOffset`.
    mutating func convert(_ table: LuaTable, at tableOffset: Int) {
        let highlight = literal(table["highlight"], "highlight")?.tableValue ?? LuaTable()
        let signs = literal(table["signs"], "signs")?.boolValue ?? true
        let merges = literal(table["merge_keywords"], "merge_keywords")?.boolValue ?? true
        let guiStyle = literal(table["gui_style"], "gui_style")?.tableValue ?? LuaTable()
        let keywordBold = (literal(guiStyle["bg"], "gui_style.bg")?.stringValue ?? "BOLD").uppercased().contains("BOLD")
        let afterBold = (literal(guiStyle["fg"], "gui_style.fg")?.stringValue ?? "NONE").uppercased().contains("BOLD")

        // Colours: the defaults, with each list the settings give taking the place of the default one.
        var colors = Self.defaultColors.mapValues { Optional($0) }
        var changedColors: Set<String> = []
        for field in literal(table["colors"], "colors")?.tableValue?.fields ?? [] {
            guard let name = field.key else { continue }
            changedColors.insert(name)
            let entries = field.value.tableValue?.elements.compactMap(\.stringValue) ?? field.value.stringValue.map { [$0] } ?? []
            colors[name] = entries.first { $0.hasPrefix("#") }
            if colors[name] == nil {
                problem(field.value.utf8Offset, "the colour \(name)", "it names only highlight groups, whose colours are the theme's",
                    nearest: "a hex colour at the end of its list; the neutral highlight, used")
            }
        }

        // merge_keywords = false drops the default keywords only when the settings give keywords of their own.
        let keywordsTable = literal(table["keywords"], "keywords")?.tableValue
        var keywords = merges || keywordsTable == nil ? Self.defaultKeywords : []
        for field in keywordsTable?.fields ?? [] {
            guard let name = field.key, let entry = literal(field.value, "keywords.\(name)")?.tableValue else { continue }
            var keyword = keywords.first { $0.name == name } ?? Keyword(name: name)
            keyword.utf8Offset = field.keyUTF8Offset
            if let icon = literal(entry["icon"], "icon")?.stringValue { keyword.icon = icon }
            if let color = literal(entry["color"], "color")?.stringValue { keyword.color = color }
            if let alternatives = literal(entry["alt"], "alt")?.tableValue { keyword.alternatives = alternatives.elements.compactMap(\.stringValue) }
            if let keywordSigns = literal(entry["signs"], "signs")?.boolValue { keyword.signs = keywordSigns }
            keywords.removeAll { $0.name == name }
            keywords.append(keyword)
        }

        var patternNode = literal(highlight["pattern"], "highlight.pattern")
        // A table of patterns is tried in order, line by line (highlight.lua `M.match`); a rule has one.
        if let patterns = patternNode?.tableValue?.elements, let first = patterns.first {
            if patterns.count > 1 {
                problem(patterns[1].utf8Offset, "the highlight patterns after the first", "a rule has one pattern",
                    nearest: "the first pattern, used")
            }
            patternNode = first
        }
        let pattern = patternNode?.stringValue ?? #".*<(KEYWORDS)\s*:"#
        let known: [String: String] = [#".*<(KEYWORDS)\s*:"#: "[ \t]*:", #".*<(KEYWORDS)\s*"#: "[ \t]*", #".*<(KEYWORDS)>"#: ""]
        let suffix = known[pattern] ?? "[ \t]*:"
        if known[pattern] == nil {
            problem(patternNode?.utf8Offset ?? tableOffset, "the highlight pattern \(pattern)",
                "only the default .*<(KEYWORDS)\\s*:, and .*<(KEYWORDS)\\s* and .*<(KEYWORDS)>, are read as Vim means them",
                nearest: "the default .*<(KEYWORDS)\\s*:, used")
        }
        let keywordMode = literal(highlight["keyword"], "highlight.keyword")?.stringValue ?? "wide"
        let afterMode = literal(highlight["after"], "highlight.after")?.stringValue ?? "fg"
        let beforeMode = literal(highlight["before"], "highlight.before")?.stringValue ?? ""
        let commentsOnly = literal(highlight["comments_only"], "highlight.comments_only")?.boolValue ?? true
        let multiline = literal(highlight["multiline"], "highlight.multiline")?.boolValue ?? true
        let modeOffset = { (key: String) in highlight.fields.last { $0.key == key }?.value.utf8Offset ?? tableOffset }
        if keywordMode.hasPrefix("wide") {
            problem(modeOffset("keyword"), "highlight.keyword = \"\(keywordMode)\"", "the wide highlight covers a character on "
                + "each side of the keyword, and a match covers only itself", nearest: keywordMode == "wide_fg" ? "\"fg\", used" : "\"bg\", used")
        }
        if beforeMode != "" {
            problem(modeOffset("before"), "highlight.before = \"\(beforeMode)\"", "the comment characters before the keyword "
                + "differ by language, and RE2 cannot look back for them", nearest: "nothing before the keyword")
        }
        if multiline {
            problem(modeOffset("multiline"), "highlight.multiline = true", "the lines of a comment that continue a todo are "
                + "highlighted too, and a rule matches within what its regex spans", nearest: "the first line only")
        }
        if let excluded = literal(highlight["exclude"], "highlight.exclude")?.tableValue, !excluded.elements.isEmpty {
            problem(highlight.fields.last { $0.key == "exclude" }?.value.utf8Offset ?? tableOffset, "highlight.exclude",
                "\"languages\" lists where a rule applies, not where it does not", nearest: "rules in every language")
        }

        for keyword in keywords {
            let hex = colors[keyword.color] ?? (keyword.color.hasPrefix("#") ? keyword.color : nil)
            let color = hex.flatMap { importedColor($0, naming: .css) }
            let offset = keyword.utf8Offset ?? tableOffset
            if hex == nil, colors[keyword.color] == nil, !changedColors.contains(keyword.color) {
                problem(offset, "the colour \(keyword.color) of \(keyword.name)", "it is neither a hex colour nor one of colors",
                    nearest: "the neutral highlight, used")
            }
            // Longest first, as the plugin sorts them, so that a keyword that starts another never cuts it short.
            let words = ([keyword.name] + keyword.alternatives).enumerated()
                .sorted { $0.element.count != $1.element.count ? $0.element.count > $1.element.count : $0.offset < $1.offset }
                .map { RegexEscaping.escaped($0.element) }.joined(separator: "|")
            var regex = "(?P<keyword>\(words))\(suffix)"
            if afterMode != "" { regex += ".*" }
            let keywordStyle: ImportedRule.StyleReference
            if Self.builtInStyleColors.contains(keyword.color), !changedColors.contains(keyword.color), keywordMode != "fg",
                keywordMode != "wide_fg", keywordMode != ""
            {
                keywordStyle = .named(keyword.color)
            } else {
                keywordStyle = .inline(modeStyle(keywordMode == "wide_fg" ? "fg" : keywordMode, color: color, bold: keywordBold))
            }
            var afterStyle = modeStyle(afterMode, color: color, bold: afterBold)
            if signs, keyword.signs ?? true {
                let text = keyword.icon?.trimmingSpaces()
                afterStyle.gutter = GutterSign(text: text?.isEmpty == false ? text : nil, color: color)
            }
            var rule = ImportedRule(
                name: names.name(for: keyword.name, fallback: "keyword"), pattern: .regex(regex),
                wholeWord: true, style: .inline(afterStyle),
                comment: "todo-comments.nvim keyword \(keyword.name)" + (keyword.utf8Offset == nil ? " (a default)" : ""),
                place: lines.textLocation(ofUTF8Offset: offset))
            rule.groups = [("keyword", keywordStyle)]
            if commentsOnly { rule.scopes = [.comments] }
            result.rules.append(rule)
        }
    }

    /// The style of a highlight mode: `fg` colours the text, `bg` (and `wide`) is a label in the colour, "" draws nothing.
    func modeStyle(_ mode: String, color: RGBAColor?, bold: Bool) -> Style {
        // Without a colour of its own, a mode takes the grey of the neutral highlight.
        let color = color ?? Style.neutralBackground
        switch mode {
        case "fg": return Style(color: color, bold: bold)
        case "": return Style()
        default: return Style(color: ColorLiteral.readableTextColor(on: color), backgroundColor: color, bold: bold)
        }
    }
}

extension LuaReader {
    /// The name after a `.` at `index`.
    func peekNameAfterDot() -> String? {
        var copy = self
        copy.index += 1
        return copy.peekName()
    }
}

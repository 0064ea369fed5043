import HighlightConfig
import JSONValue
import PatternEngine
import TextIndex

// The VS Code highlighters, read from a `settings.json` (JSON with comments and trailing commas):
//
//   vscode-highlight   "highlight.regexes": { SOURCE: [decoration, …] or { regexFlags, filterLanguageRegex,
//                      filterFileRegex, decorations } }; decoration i styles capture group i (the whole match
//                      when there is no group); "highlight.regexFlags" (default "gi") for every regex.
//   Todo Tree          "todo-tree.general.tags", "todo-tree.regex.regex" with its ($TAGS), regexCaseSensitive,
//                      "todo-tree.highlights.defaultHighlight" and "customHighlight" (by tag): one rule a tag.
//   TODO Highlight     "todohighlight.keywords" (strings or { text, color, … }) after its built-in TODO: and
//                      FIXME:, or "todohighlight.keywordsPattern"; isCaseSensitive; include/exclude globs.
//
// A setting is found under its dotted name, as VS Code writes it, or nested one object a part.

/// A parsed settings file and where each of its values is, to name places in problems.
struct VSCodeSettings {
    let root: JSON
    let map: JSONSourceMap
    let utf8: [UInt8]
    /// The lines of `utf8`, indexed once for the places of all problems and rules.
    let lines: LineIndex

    /// The setting `dottedName` and its path: `"todo-tree.general.tags"` flat, or nested as `todo-tree` → `general` → `tags`.
    func setting(_ dottedName: String) -> (value: JSON, path: [JSONPathComponent])? {
        if let value = root[dottedName] { return (value, [.key(dottedName)]) }
        var value = root
        var path: [JSONPathComponent] = []
        for part in dottedName.split(separator: ".") {
            guard let next = value[String(part)] else { return nil }
            value = next
            path.append(.key(String(part)))
        }
        return (value, path)
    }

    /// Whether the file sets anything of the extension whose settings are named `section.…`: then the extension is
    /// in use, and its defaults stand for what the file leaves out.
    func hasSettings(of section: String) -> Bool {
        root[section] != nil || (root.objectValue?.keys.contains { $0.hasPrefix(section + ".") } ?? false)
    }

    /// Where the value at `path` starts.
    func place(ofValueAt path: [JSONPathComponent]) -> TextLocation {
        lines.textLocation(ofUTF8Offset: map.utf8Offset(ofValueAt: path) ?? 0)
    }

    /// Where the key of the member at `path` starts (its value's place for an array element).
    func place(ofKeyAt path: [JSONPathComponent]) -> TextLocation {
        lines.textLocation(ofUTF8Offset: map.utf8Offset(ofKeyAt: path) ?? map.utf8Offset(ofValueAt: path) ?? 0)
    }

    /// Where byte `patternUTF8Offset` of a regex written as the string literal at `literalUTF8Offset` is in the file.
    func place(ofPatternUTF8Offset patternUTF8Offset: Int?, literalUTF8Offset: Int?) -> TextLocation {
        guard let literalUTF8Offset else { return lines.textLocation(ofUTF8Offset: 0) }
        guard let patternUTF8Offset else { return lines.textLocation(ofUTF8Offset: literalUTF8Offset) }
        let offset = JSONStringLiteral.fileUTF8Offset(
            ofDecodedUTF8Offset: patternUTF8Offset, literalUTF8Offset: literalUTF8Offset, in: utf8)
        return lines.textLocation(ofUTF8Offset: offset)
    }
}

/// Reads the three VS Code highlighters' settings from the text of a `settings.json`.
struct VSCodeImport {
    let settings: VSCodeSettings
    var result = ImportResult()
    var names = ImportedRuleNames()

    /// The import of `utf8`, or the JSON syntax error that stops it.
    static func run(_ utf8: [UInt8]) -> Result<ImportResult, JSONSyntaxError> {
        let root: JSON
        let map: JSONSourceMap
        do {
            (root, map) = try JSONParser.parseWithLocations(utf8, options: .lenient)
        } catch {
            return .failure(error)
        }
        var importer = VSCodeImport(settings: VSCodeSettings(root: root, map: map, utf8: utf8, lines: LineIndex(utf8: utf8)))
        importer.importHighlight()
        importer.importTodoTree()
        importer.importTodoHighlight()
        return .success(importer.result)
    }

    /// Names `construct` at `place`.
    mutating func problem(_ place: TextLocation, _ construct: String, _ reason: String, nearest: String) {
        result.problems.append(ImportProblem(place: place, construct: construct, reason: reason, nearest: nearest))
    }

    /// The translation of a JavaScript regex whose text is the string literal at `literalUTF8Offset`, with its
    /// problems named at their places; nil when the rule cannot be carried.
    mutating func translate(
        _ source: String, flags: String, literalUTF8Offset: Int?, flagsPlace: TextLocation, namesProblems: Bool = true,
        patternOffsetShift: Int = 0
    ) -> JavaScriptRegexTranslation? {
        let translation = JavaScriptRegex.translate(source, flags: flags)
        for problem in translation.problems where namesProblems {
            let place = problem.patternUTF8Offset == nil
                ? flagsPlace
                : settings.place(ofPatternUTF8Offset: problem.patternUTF8Offset.map { $0 + patternOffsetShift }, literalUTF8Offset: literalUTF8Offset)
            self.problem(place, problem.construct, problem.reason, nearest: problem.nearest)
        }
        guard translation.isUsable else { return nil }
        // What is printed is known to compile: the engine of the rules reads it here first.
        do {
            _ = try CompiledRegex(translation.pattern, caseInsensitive: !translation.caseSensitive)
        } catch {
            let place = settings.place(ofPatternUTF8Offset: nil, literalUTF8Offset: literalUTF8Offset)
            problem(place, "the regex \(source.abbreviated)", "its RE2 form \(translation.pattern.abbreviated) is rejected: \(error.message)",
                nearest: "nothing; the rule is left out")
            return nil
        }
        return translation
    }
}

extension VSCodeImport {
    /// Names each setting of `switches` that has the value given: it changes what the tool highlights in a way the
    /// rules do not carry.
    mutating func nameSwitches(_ switches: [(name: String, value: JSON, reason: String, nearest: String)]) {
        for entry in switches {
            guard let (value, path) = settings.setting(entry.name), value == entry.value else { continue }
            problem(settings.place(ofKeyAt: path), "\(entry.name): \(value.jsonText)", entry.reason, nearest: entry.nearest)
        }
    }
}

// MARK: - vscode-highlight

extension VSCodeImport {
    /// A rule for each regex of `highlight.regexes`, with a style for each capture group.
    mutating func importHighlight() {
        guard let (regexes, path) = settings.setting("highlight.regexes"), let entries = regexes.objectValue else { return }
        result.tools.append("vscode-highlight")
        nameSwitches([("highlight.enabled", .bool(false), "vscode-highlight highlights nothing", "the rules, imported all the same")])
        let globalFlags = settings.setting("highlight.regexFlags")
        // `highlight.decorations` is what every decoration inherits from (by default only a rangeBehavior).
        let inherited = settings.setting("highlight.decorations").map { decorationStyle($0.value, at: $0.path) } ?? Style()
        for key in sortedKeys(entries, at: path) {
            guard let value = entries[key] else { continue }
            let entryPath = path + [.key(key)]
            let keyPlace = settings.place(ofKeyAt: entryPath)
            // A regex of its own (`enabled: false`) is skipped by vscode-highlight: no rule is exactly that.
            if value["enabled"]?.boolValue == false { continue }
            var flags = globalFlags?.value.stringValue ?? "gi"
            var flagsPlace = globalFlags.map { settings.place(ofValueAt: $0.path) } ?? keyPlace
            // `/SOURCE/FLAGS` is a regex with its own flags, which win over every regexFlags.
            var source = key
            var sourceShift = 0
            var ownFlags = false
            if let (slashed, written) = Self.slashedRegex(key) {
                (source, flags, sourceShift, ownFlags) = (slashed, written, 1, true)
                flagsPlace = keyPlace
            }
            let decorations: JSON
            let decorationsPath: [JSONPathComponent]
            var languages: [String]?
            var files: [String]?
            if let options = value.objectValue {
                if let written = options["regexFlags"]?.stringValue, !ownFlags {
                    flags = written
                    flagsPlace = settings.place(ofValueAt: entryPath + [.key("regexFlags")])
                }
                if let theme = options["filterThemeRegex"]?.stringValue {
                    problem(settings.place(ofValueAt: entryPath + [.key("filterThemeRegex")]), "filterThemeRegex \(theme)",
                        "a rule applies under every colour theme", nearest: "the rule under every theme, used")
                }
                decorations = options["decorations"] ?? .array([])
                decorationsPath = entryPath + [.key("decorations")]
                if let filter = options["filterLanguageRegex"]?.stringValue {
                    guard let converted = languageFilter(filter, at: entryPath + [.key("filterLanguageRegex")]) else { continue }
                    languages = converted
                }
                if let filter = options["filterFileRegex"]?.stringValue {
                    guard let converted = fileFilter(filter, at: entryPath + [.key("filterFileRegex")]) else { continue }
                    files = converted
                }
            } else {
                decorations = value
                decorationsPath = entryPath
            }
            guard let translation = translate(
                source, flags: flags, literalUTF8Offset: settings.map.utf8Offset(ofKeyAt: entryPath), flagsPlace: flagsPlace,
                patternOffsetShift: sourceShift)
            else { continue }
            if !flags.contains("g") {
                problem(flagsPlace, "the flags \"\(flags)\" without g", "vscode-highlight then highlights only the first match "
                    + "in the file", nearest: "every match, highlighted")
            }
            var styles: [ImportedRule.StyleReference] = []
            for (index, decoration) in (decorations.arrayValue ?? []).enumerated() {
                styles.append(.inline(merged(inherited, with: decoration, at: decorationsPath + [.index(index)])))
            }
            var rule = ImportedRule(
                name: names.name(for: source, fallback: "highlight"), pattern: .regex(translation.pattern),
                caseSensitive: translation.caseSensitive,
                comment: "vscode-highlight \(source.abbreviated) (line \(keyPlace.line))", place: keyPlace)
            if translation.captureCount == 0 {
                rule.style = styles.first ?? .inline(Style())
            } else {
                // Each decoration styles its group; text of the match outside every group is not drawn.
                rule.style = .inline(Style())
                rule.groups = styles.prefix(translation.captureCount).enumerated().map { (String($0.offset + 1), $0.element) }
            }
            rule.languages = languages
            rule.files = files
            result.rules.append(rule)
        }
    }

    /// `/SOURCE/FLAGS`, as vscode-highlight reads a key wrapped in slashes: the source and the flags; nil otherwise.
    static func slashedRegex(_ key: String) -> (source: String, flags: String)? {
        guard key.count >= 2, key.hasPrefix("/"), let close = key.lastIndex(of: "/"), close != key.startIndex else { return nil }
        let flags = String(key[key.index(after: close)...])
        guard flags.allSatisfy({ "gimsuvyd".contains($0) }) else { return nil }
        return (String(key[key.index(after: key.startIndex)..<close]), flags)
    }

    /// The keys of `entries` in the order the file writes them.
    func sortedKeys(_ entries: [String: JSON], at path: [JSONPathComponent]) -> [String] {
        entries.keys.sorted { (settings.map.utf8Offset(ofKeyAt: path + [.key($0)]) ?? 0) < (settings.map.utf8Offset(ofKeyAt: path + [.key($1)]) ?? 0) }
    }

    /// `filterLanguageRegex` as language ids, when it is ids joined by `|` (anchored or not); nil, named, otherwise.
    mutating func languageFilter(_ filter: String, at path: [JSONPathComponent]) -> [String]? {
        var body = filter
        let anchored = body.hasPrefix("^") && body.hasSuffix("$")
        if anchored { body = String(body.dropFirst().dropLast()) }
        if body.hasPrefix("("), body.hasSuffix(")") { body = String(body.dropFirst().dropLast()) }
        // vscode-highlight compiles the filter with the flag i; VS Code's language ids are in lower case.
        let ids = body.split(separator: "|", omittingEmptySubsequences: false).map { $0.lowercased() }
        let isId: (String) -> Bool = { !$0.isEmpty && $0.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" } }
        guard ids.allSatisfy(isId) else {
            problem(settings.place(ofValueAt: path), "filterLanguageRegex \(filter)", "only language ids joined by | can be "
                + "\"languages\", so the rule is left out", nearest: "\"languages\" listing the ids it matches")
            return nil
        }
        if !anchored {
            problem(settings.place(ofValueAt: path), "filterLanguageRegex \(filter) exactly",
                "unanchored, it also matches ids that contain these (\(ids[0]) in x\(ids[0]))",
                nearest: "\"languages\": the ids themselves, used")
        }
        return ids
    }

    /// `filterFileRegex` as globs: `\.ext$`, `.*\.ext$` and `.*\.(a|b)$` exactly, and vscode-highlight's default
    /// `.*(?<!NAME)$` as the nearest; nil, named, for anything else.
    mutating func fileFilter(_ filter: String, at path: [JSONPathComponent]) -> [String]? {
        var body = filter
        if body.hasPrefix(".*") { body.removeFirst(2) }
        let place = settings.place(ofValueAt: path)
        if body.hasPrefix("(?<!"), body.hasSuffix(")$") {
            let name = String(body.dropFirst(4).dropLast(2))
            let literal = name.replacingEvery("\\.", with: ".")
            if !literal.contains("/"), !literal.contains("\\"), !literal.contains(where: { "()[]{}|*+?^$".contains($0) }) {
                let lookBehind = filter.utf8.count - body.utf8.count
                let place = settings.place(ofPatternUTF8Offset: lookBehind, literalUTF8Offset: settings.map.utf8Offset(ofValueAt: path))
                problem(place, "the negative look-behind in filterFileRegex \(filter)",
                    "RE2 has no look-around, its . matches any character, / too, and vscode-highlight matches the path without case",
                    nearest: "the glob !*\(literal) (paths whose name ends in \(literal) left out), used")
                return ["!*" + literal]
            }
        }
        if body.hasPrefix("\\."), body.hasSuffix("$") {
            let extensions = String(body.dropFirst(2).dropLast())
            var alternatives = [extensions]
            if extensions.hasPrefix("("), extensions.hasSuffix(")") {
                alternatives = extensions.dropFirst().dropLast().split(separator: "|").map(String.init)
            }
            if alternatives.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" } }) {
                let glob = alternatives.count == 1 ? "*." + alternatives[0] : "*.{" + alternatives.joined(separator: ",") + "}"
                if alternatives.contains(where: { $0.contains { $0.isLetter } }) {
                    // vscode-highlight compiles the filter with the flag i (src/utils.ts), so .MD is .md to it.
                    problem(place, "filterFileRegex \(filter) without case", "vscode-highlight matches the path without case, "
                        + "and a glob with case", nearest: "the glob \(glob), used")
                }
                return [glob]
            }
        }
        problem(place, "filterFileRegex \(filter)", "only a file name's ending (.*\\.ext$) can be a \"files\" glob, so the rule is left out",
            nearest: "\"files\" globs for the files it means")
        return nil
    }

    /// A VS Code `DecorationRenderOptions` object as a style; what it cannot carry is named.
    mutating func decorationStyle(_ decoration: JSON, at path: [JSONPathComponent]) -> Style {
        var style = Style()
        guard let members = decoration.objectValue else { return style }
        for key in sortedKeys(members, at: path) {
            guard let value = members[key] else { continue }
            let keyPath = path + [.key(key)]
            let place = settings.place(ofKeyAt: keyPath)
            switch key {
            case "color": style.color = color(value, key: key, at: keyPath)
            case "backgroundColor": style.backgroundColor = color(value, key: key, at: keyPath)
            case "borderColor", "outlineColor": style.borderColor = color(value, key: key, at: keyPath)
            case "border", "outline":
                // `1px solid red`: the colour is the word that reads as one; width and line style have no counterpart.
                let words = (value.stringValue ?? "").split(separator: " ").map(String.init)
                style.borderColor = words.lazy.compactMap { importedColor($0, naming: .css) }.first ?? style.borderColor
            case "borderRadius": style.rounded = !(value.stringValue ?? "0").hasPrefix("0")
            case "fontWeight":
                let weight = value.stringValue ?? ""
                style.bold = weight == "bold" || weight == "bolder" || (Int(weight) ?? 0) >= 600
            case "fontStyle": style.italic = value.stringValue == "italic" || value.stringValue == "oblique"
            case "textDecoration":
                let text = value.stringValue ?? ""
                style.underline = text.contains("underline")
                style.strikethrough = text.contains("line-through")
            case "overviewRulerColor":
                if let color = color(value, key: key, at: keyPath) {
                    style.overviewRuler = OverviewRulerMark(color: color, lane: style.overviewRuler?.lane ?? OverviewRulerMark.defaultLane)
                }
            case "overviewRulerLane":
                // VS Code's OverviewRulerLane: Left 1, Center 2, Right 4, Full 7.
                let lanes: [Int: OverviewRulerMark.Lane] = [1: .left, 2: .center, 4: .right, 7: .full]
                if let lane = value.integerValue.flatMap({ lanes[$0] }) {
                    style.overviewRuler = OverviewRulerMark(color: style.overviewRuler?.color, lane: lane)
                }
            case "isWholeLine":
                guard value.boolValue == true else { continue }
                style.wholeLine = true
                if members["color"] != nil {
                    problem(place, "isWholeLine with a text colour", "VS Code colours the text of the whole line; "
                        + "wholeLine paints only its background", nearest: "wholeLine, with the match's text in the colour, used")
                }
            case "rangeBehavior", "cursor":
                continue  // How a decoration grows while typing, and the mouse pointer: nothing is drawn differently.
            case "gutterIconPath", "gutterIconSize":
                style.gutter = GutterSign()
                problem(place, key, "a gutter sign is text or a dot, not an image", nearest: "\"gutter\": true (a dot in the style's colour), used")
            case "light", "dark":
                problem(place, "the \(key) theme's decoration", "a style is the same on every theme",
                    nearest: "the decoration's own attributes (move the ones you want out of \(key))")
            default:
                problem(place, "the decoration option \(key)", "a style has no such attribute",
                    nearest: "color, backgroundColor, border, fontWeight, fontStyle, textDecoration or isWholeLine")
            }
        }
        return style
    }

    /// A colour setting, or nil, named, when it is a theme colour or a name that is not known.
    mutating func color(_ value: JSON, key: String, at path: [JSONPathComponent]) -> RGBAColor? {
        if let text = value.stringValue, let color = importedColor(text, naming: .css) { return color }
        let written = value.stringValue ?? value["id"]?.stringValue.map { "{ \"id\": \"\($0)\" }" } ?? value.typeName
        problem(settings.place(ofValueAt: path), "the colour \(written) of \(key)",
            value.stringValue == nil || value.stringValue?.contains(".") == true
                ? "theme colours are the editor's, not a fixed colour" : "it is not a colour name the import knows",
            nearest: "a hex colour; left to the theme")
        return nil
    }
}

// MARK: - Todo Tree

extension VSCodeImport {
    /// Todo Tree's documented defaults (its package.json), used where the settings leave them out. Its default
    /// customHighlight gives the tags only tree icons, and its defaultHighlight is empty: no type is the tag alone.
    static let todoTreeDefaultTags = ["BUG", "HACK", "FIXME", "TODO", "XXX", "[ ]", "[x]"]
    static let todoTreeDefaultRegex = #"(//|#|<!--|;|/\*|^|^[ \t]*(-|\d+.))\s*($TAGS)"#

    /// A rule for each tag, with the tag's highlight (the default one under its custom one).
    mutating func importTodoTree() {
        let tagsSetting = settings.setting("todo-tree.general.tags")
        let regexSetting = settings.setting("todo-tree.regex.regex")
        let caseSetting = settings.setting("todo-tree.regex.regexCaseSensitive")
        let defaultSetting = settings.setting("todo-tree.highlights.defaultHighlight")
        let customSetting = settings.setting("todo-tree.highlights.customHighlight")
        guard settings.hasSettings(of: "todo-tree") else { return }
        result.tools.append("Todo Tree")
        nameSwitches([
            ("todo-tree.highlights.enabled", .bool(false), "Todo Tree highlights nothing", "the rules, imported all the same"),
            ("todo-tree.highlights.useColourScheme", .bool(true), "the colours go to the tags in turn from a scheme",
             "each tag's own highlight colours, used"),
            ("todo-tree.regex.enableMultiLine", .bool(true), "a match may run over lines", "matches within what the regex spans"),
        ])
        let tags = tagsSetting?.value.arrayValue?.compactMap(\.stringValue) ?? Self.todoTreeDefaultTags
        let source = regexSetting?.value.stringValue ?? Self.todoTreeDefaultRegex
        let caseSensitive = caseSetting?.value.boolValue ?? true
        let regexPlace = regexSetting.map { settings.place(ofValueAt: $0.path) } ?? settings.lines.textLocation(ofUTF8Offset: 0)
        let customs = customSetting?.value.objectValue ?? [:]

        // The regex's own problems are named once, at their places in the setting as written (`$TAGS` reads as an
        // anchor and four letters, so every offset is the setting's); each tag's regex is then made without naming
        // them again.
        let flags = caseSensitive ? "gm" : "gim"
        let literalOffset = regexSetting.flatMap { settings.map.utf8Offset(ofValueAt: $0.path) }
        guard translate(source, flags: flags, literalUTF8Offset: literalOffset, flagsPlace: regexPlace) != nil else { return }
        for tag in tags {
            var highlight = defaultSetting?.value.objectValue ?? [:]
            var paths: [String: [JSONPathComponent]] = [:]
            for key in highlight.keys { paths[key] = (defaultSetting?.path ?? []) + [.key(key)] }
            for (key, value) in customs[tag]?.objectValue ?? [:] {
                highlight[key] = value
                paths[key] = (customSetting?.path ?? []) + [.key(tag), .key(key)]
            }
            let type = highlight["type"]?.stringValue ?? "tag"
            let tagPlace = customs[tag] != nil ? settings.place(ofKeyAt: (customSetting?.path ?? []) + [.key(tag)])
                : tagsSetting.map { settings.place(ofValueAt: $0.path) } ?? regexPlace
            // The tag becomes a group of its own, so that its style can be the tag's alone, as Todo Tree draws it.
            let tagGroup = "(?<tag>\(RegexEscaping.escaped(tag)))"
            var tagged = source.contains("($TAGS)") ? source.replacingEvery("($TAGS)", with: tagGroup)
                : source.replacingEvery("$TAGS", with: tagGroup)
            if type == "text" || type == "text-and-comment" { tagged += "(?<text>.*)" }
            guard type != "none" else {
                problem(tagPlace, "the highlight type none of \(tag)", "Todo Tree lists the tag without highlighting it", nearest: "no rule")
                continue
            }
            guard let translation = translate(
                tagged, flags: flags, literalUTF8Offset: literalOffset, flagsPlace: regexPlace, namesProblems: false)
            else { continue }
            var style = todoTreeStyle(highlight, paths: paths, tag: tag)
            var rule = ImportedRule(
                name: names.name(for: tag, fallback: "tag"), pattern: .regex(translation.pattern),
                caseSensitive: translation.caseSensitive, comment: "Todo Tree tag \(tag), highlight type \(type)", place: tagPlace)
            let typePlace = paths["type"].map { settings.place(ofValueAt: $0) } ?? tagPlace
            switch type {
            case "tag", "text", "tag-and-subTag", "tag-and-subtag":
                rule.style = .inline(Style())
                rule.groups = [("tag", .inline(style))]
                if type == "text" { rule.groups.append(("text", .inline(style))) }
                if type.hasPrefix("tag-and-sub") {
                    problem(typePlace, "the sub tag of the highlight type \(type) of \(tag)", "the sub tag takes the "
                        + "customHighlight of its own text, which a rule cannot look up", nearest: "the tag alone, highlighted")
                }
            case "tag-and-comment", "text-and-comment":
                rule.style = .inline(style)
            case let groups where groups.hasPrefix("capture-groups:"):
                // The regex's own groups keep their numbers: ($TAGS) becomes a named group in the same place.
                let numbers = groups.dropFirst("capture-groups:".count).split(separator: ",")
                    .compactMap { Int(String($0).trimmingSpaces()) }.filter { $0 >= 1 && $0 <= translation.captureCount }
                rule.style = .inline(Style())
                rule.groups = numbers.map { (String($0), ImportedRule.StyleReference.inline(style)) }
            case "whole-line":
                style.wholeLine = true
                rule.style = .inline(style)
            default:
                if type == "line" {
                    problem(typePlace, "the highlight type line of \(tag)", "Todo Tree paints the line's text; a style paints "
                        + "the whole width of the line", nearest: "wholeLine, used")
                } else {
                    problem(typePlace, "the highlight type \(type) of \(tag)", "Todo Tree knows no such type and highlights the tag",
                        nearest: "the tag, highlighted")
                    rule.style = .inline(Style())
                    rule.groups = [("tag", .inline(style))]
                    break
                }
                style.wholeLine = true
                rule.style = .inline(style)
            }
            result.rules.append(rule)
        }
    }

    /// Todo Tree's `opacity` or `rulerOpacity` laid on a colour written as `text`, as Todo Tree applies it: a percentage
    /// (a fraction below 1), on a hex colour without an alpha of its own or on an rgb()/rgba() colour (whose alpha it
    /// replaces unless it is 100); a colour name keeps its own.
    static func todoTreeOpacity(_ opacity: Double?, on color: RGBAColor?, written text: String?) -> RGBAColor? {
        guard let opacity, var color, let text = text?.trimmingSpaces().lowercased() else { return color }
        let fraction: Double
        if text.hasPrefix("#") {
            guard text.count == 4 || text.count == 7 else { return color }
            fraction = opacity < 1 ? opacity : opacity / 100
        } else if text.hasPrefix("rgb") {
            guard opacity != 100 else { return color }
            fraction = opacity > 1 ? opacity / 100 : opacity
        } else {
            return color
        }
        color.alpha = UInt8((max(0, min(1, fraction)) * 255).rounded())
        return color
    }

    /// A Todo Tree highlight (`foreground`, `background`, `fontWeight`, …) as a style; what it cannot carry is named.
    /// What the highlight leaves out is Todo Tree's: rounded corners (borderRadius 0.2em) and a mark in the ruler's
    /// right lane in the background colour.
    mutating func todoTreeStyle(_ highlight: [String: JSON], paths: [String: [JSONPathComponent]], tag: String) -> Style {
        var style = Style(rounded: true)
        var ruler: OverviewRulerMark? = OverviewRulerMark(lane: .right)
        var rulerColorWritten = false
        let opacity = highlight["opacity"]?.doubleValue
        for key in highlight.keys.sorted() {
            guard let value = highlight[key], let path = paths[key] else { continue }
            switch key {
            case "foreground": style.color = color(value, key: key, at: path)
            case "background":
                style.backgroundColor = Self.todoTreeOpacity(opacity, on: color(value, key: key, at: path), written: value.stringValue)
            case "fontWeight":
                let weight = value.stringValue ?? ""
                style.bold = weight == "bold" || (Int(weight) ?? 0) >= 600
            case "fontStyle": style.italic = value.stringValue == "italic"
            case "textDecoration":
                style.underline = value.stringValue?.contains("underline") ?? false
                style.strikethrough = value.stringValue?.contains("line-through") ?? false
            case "borderRadius": continue  // Read at the end, over the default.
            case "rulerColour":
                rulerColorWritten = true
                ruler?.color = Self.todoTreeOpacity(
                    highlight["rulerOpacity"]?.doubleValue, on: color(value, key: key, at: path), written: value.stringValue)
            case "rulerLane":
                // A lane by name, or VS Code's number (1 left, 2 centre, 4 right, 7 full); "none" draws no mark.
                let lanes: [String: OverviewRulerMark.Lane] = ["1": .left, "2": .center, "4": .right, "7": .full]
                let text = value.stringValue?.lowercased() ?? value.integerValue.map(String.init) ?? ""
                if text == "none" {
                    ruler = nil
                } else if let lane = OverviewRulerMark.Lane(rawValue: text) ?? lanes[text] {
                    ruler?.lane = lane
                }
            case "gutterIcon":
                guard value.boolValue == true else { continue }
                let iconColor = highlight["iconColour"].flatMap { color($0, key: "iconColour", at: paths["iconColour"] ?? path) }
                style.gutter = GutterSign(color: iconColor)
                problem(settings.place(ofKeyAt: path), "the gutter icon of \(tag)", "a gutter sign is text or a dot, not an icon",
                    nearest: "\"gutter\" with a dot in the icon's colour, used")
            case "type", "opacity", "rulerOpacity", "icon", "iconColour", "hideFromTree", "hideFromStatusBar", "hideFromActivityBar":
                continue  // The type and opacities are read around; icons and hiding concern the tree, not the highlight.
            default:
                problem(settings.place(ofKeyAt: path), "the highlight setting \(key) of \(tag)", "a style has no such attribute",
                    nearest: "foreground, background, fontWeight, fontStyle, textDecoration, rulerColour or gutterIcon")
            }
        }
        if style.color == nil, style.backgroundColor == nil {
            // Todo Tree then takes its colours from the theme; the neutral highlight shows the tag all the same.
            style.backgroundColor = Style.neutralBackground
        }
        if !rulerColorWritten, highlight["background"] != nil {
            // The mark is in the background colour; without one, in the theme's, left to the style's own colour here.
            ruler?.color = style.backgroundColor
        }
        if let radius = highlight["borderRadius"]?.stringValue { style.rounded = !radius.trimmingSpaces().hasPrefix("0") }
        style.overviewRuler = ruler
        return style
    }
}

// MARK: - TODO Highlight

extension VSCodeImport {
    /// TODO Highlight's built-in keywords and its default style (its README and extension source's defaults).
    static let todoHighlightBuiltIns: [(text: String, color: String, background: String, ruler: String)] = [
        ("TODO:", "#fff", "#ffbd2a", "rgba(255,189,42,0.8)"),
        ("FIXME:", "#fff", "#f06292", "rgba(240,98,146,0.8)"),
    ]
    static let todoHighlightDefaultStyle = Style(
        color: RGBAColor(red: 0x21, green: 0x96, blue: 0xf3), backgroundColor: RGBAColor(red: 0xff, green: 0xeb, blue: 0x3b))

    /// A rule for each keyword (the settings' ones in their order, then the built-in ones they leave out), or one for
    /// `keywordsPattern`. Each keyword's style is, as TODO Highlight assembles it, its built-in style (TODO: and
    /// FIXME:) over the default style over the built-in default; every mark is in the ruler's right lane, in the
    /// keyword's background colour unless it names one. `include` and `exclude` choose the files of the command that
    /// lists annotations, not where the editor highlights, so no rule carries them.
    mutating func importTodoHighlight() {
        let keywordsSetting = settings.setting("todohighlight.keywords")
        let patternSetting = settings.setting("todohighlight.keywordsPattern")
        let caseSetting = settings.setting("todohighlight.isCaseSensitive")
        let defaultSetting = settings.setting("todohighlight.defaultStyle")
        guard settings.hasSettings(of: "todohighlight") else { return }
        result.tools.append("TODO Highlight")
        nameSwitches([("todohighlight.isEnable", .bool(false), "TODO Highlight highlights nothing", "the rules, imported all the same")])
        let caseSensitive = caseSetting?.value.boolValue ?? true
        var defaultStyle = defaultSetting.map { merged(Self.todoHighlightDefaultStyle, with: $0.value, at: $0.path) }
            ?? Self.todoHighlightDefaultStyle
        if let ruler = defaultStyle.overviewRuler { defaultStyle.overviewRuler = OverviewRulerMark(color: ruler.color, lane: .right) }

        if let (pattern, path) = patternSetting, let source = pattern.stringValue, !source.trimmingSpaces().isEmpty {
            // The pattern replaces the keywords, and every match takes the default style.
            let flags = caseSensitive ? "g" : "gi"
            let place = settings.place(ofValueAt: path)
            guard let translation = translate(
                source, flags: flags, literalUTF8Offset: settings.map.utf8Offset(ofValueAt: path), flagsPlace: place)
            else { return }
            let rule = ImportedRule(
                name: names.name(for: source, fallback: "keyword"), pattern: .regex(translation.pattern),
                caseSensitive: translation.caseSensitive, style: .inline(defaultStyle),
                comment: "TODO Highlight keywordsPattern (line \(place.line))", place: place)
            result.rules.append(rule)
            return
        }

        var keywords: [(text: String, style: Style, place: TextLocation?)] = []
        for (index, keyword) in (keywordsSetting?.value.arrayValue ?? []).enumerated() {
            let path = (keywordsSetting?.path ?? []) + [.index(index)]
            let place = settings.place(ofValueAt: path)
            var text: String
            var options: [String: JSON] = [:]
            if let word = keyword.stringValue {
                text = word
            } else if let word = keyword["text"]?.stringValue {
                text = word
                options = keyword.objectValue ?? [:]
                options["text"] = nil
                // A keyword's own `regex` (TODO Highlight 2) is not read: the text is what the import carries.
                if options["regex"] != nil {
                    problem(settings.place(ofKeyAt: path + [.key("regex")]), "the keyword regex of \(text)",
                        "the import carries a keyword's text", nearest: "the text \(text) as a word, used")
                    options["regex"] = nil
                }
            } else {
                problem(place, "the keyword \(keyword.typeName)", "a keyword is a string or an object with text", nearest: "nothing")
                continue
            }
            guard !text.isEmpty else { continue }
            // Without case, TODO Highlight keeps a keyword in capitals, so todo: takes TODO:'s built-in style.
            if !caseSensitive { text = text.uppercased() }
            var style = todoHighlightBuiltInStyle(text, over: defaultStyle)
            if !options.isEmpty { style = merged(style, with: .object(options), at: path) }
            if let existing = keywords.firstIndex(where: { $0.text == text }) {
                keywords[existing] = (text, style, place)
            } else {
                keywords.append((text, style, place))
            }
        }
        for builtIn in Self.todoHighlightBuiltIns where !keywords.contains(where: { $0.text == builtIn.text }) {
            keywords.append((builtIn.text, todoHighlightBuiltInStyle(builtIn.text, over: defaultStyle), nil))
        }
        for keyword in keywords {
            var style = keyword.style
            // The ruler's right lane, in the background colour unless a colour is given.
            style.overviewRuler = OverviewRulerMark(color: style.overviewRuler?.color ?? style.backgroundColor, lane: .right)
            let rule = ImportedRule(
                name: names.name(for: keyword.text, fallback: "keyword"), pattern: .words([keyword.text]),
                caseSensitive: caseSensitive, style: .inline(style),
                comment: "TODO Highlight keyword \(keyword.text)" + (keyword.place.map { " (line \($0.line))" } ?? " (built in)"),
                place: keyword.place ?? TextLocation(line: 1, column: 1))
            result.rules.append(rule)
        }
    }

    /// The style of `text` before its own options: its built-in style (TODO: and FIXME:) over `base`.
    func todoHighlightBuiltInStyle(_ text: String, over base: Style) -> Style {
        guard let builtIn = Self.todoHighlightBuiltIns.first(where: { $0.text == text }) else { return base }
        var style = base
        style.color = importedColor(builtIn.color, naming: .css)
        style.backgroundColor = importedColor(builtIn.background, naming: .css)
        style.overviewRuler = OverviewRulerMark(color: importedColor(builtIn.ruler, naming: .css), lane: .right)
        return style
    }

    /// `base` with the decoration options of `options` laid over it, as TODO Highlight merges a keyword's style.
    mutating func merged(_ base: Style, with options: JSON, at path: [JSONPathComponent]) -> Style {
        let own = decorationStyle(options, at: path)
        let members = options.objectValue ?? [:]
        var style = base
        if members["color"] != nil { style.color = own.color }
        if members["backgroundColor"] != nil { style.backgroundColor = own.backgroundColor }
        if members["border"] != nil || members["borderColor"] != nil || members["outline"] != nil { style.borderColor = own.borderColor }
        if members["borderRadius"] != nil { style.rounded = own.rounded }
        if members["fontWeight"] != nil { style.bold = own.bold }
        if members["fontStyle"] != nil { style.italic = own.italic }
        if members["textDecoration"] != nil {
            style.underline = own.underline
            style.strikethrough = own.strikethrough
        }
        if members["overviewRulerColor"] != nil || members["overviewRulerLane"] != nil { style.overviewRuler = own.overviewRuler }
        if members["isWholeLine"] != nil { style.wholeLine = own.wholeLine }
        if own.gutter != nil { style.gutter = own.gutter }
        return style
    }
}

import HighlightConfig
import JSONValue
import LanguageServer
import PatternEngine
import TextIndex

// What `highlight-ls import` makes of another highlighter's settings, whatever the tool: rules in
// the terms of `.highlights.json`, and the problems, each at its place in the settings file. The
// readers of each tool (ImportVSCode.swift, ImportTodoComments.swift, ImportHlTodo.swift) make
// an `ImportResult` from a text and know nothing of files; this file turns a result into the
// text of a `.highlights.json`, one rule per line, each under a comment naming its source.

/// The tools whose settings `highlight-ls import` reads, by the word `--from` takes.
enum ImportSource: String, CaseIterable {
    /// A VS Code `settings.json`: vscode-highlight, Todo Tree and TODO Highlight.
    case vscode
    /// A Neovim Lua file calling todo-comments.nvim's `setup`.
    case todoComments = "todo-comments"
    /// An Emacs init file setting hl-todo's `hl-todo-keyword-faces`.
    case hlTodo = "hl-todo"

    /// The tool a settings file belongs to, by its name: `.json`/`.jsonc` (VS Code), `.lua`, `.el` or `.emacs`.
    static func detected(fromPath path: String) -> ImportSource? {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        if name == ".emacs" || name.hasSuffix(".el") { return .hlTodo }
        if name.hasSuffix(".lua") { return .todoComments }
        if name.hasSuffix(".json") || name.hasSuffix(".jsonc") { return .vscode }
        return nil
    }
}

/// Something in the settings that is not carried over as it was: left out, or carried as the nearest thing.
struct ImportProblem: Equatable {
    /// Where, 1-based as compilers print it (columns count Unicode scalars).
    var place: TextLocation
    /// What it is, as the user wrote it or would name it: `the look-ahead (?!\w)`.
    var construct: String
    /// Why it cannot be carried over as it is.
    var reason: String
    /// What comes closest, and whether the import used it.
    var nearest: String

    /// The line for standard error: `FILE:LINE:COLUMN: cannot carry over X: reason; nearest: Y`.
    func line(file: String) -> String {
        "\(file):\(place.line):\(place.column): cannot carry over \(construct): \(reason); nearest: \(nearest)"
    }
}

/// A rule carried over, in the terms of `.highlights.json`.
struct ImportedRule {
    /// How an imported rule (or one of its groups) names its style.
    enum StyleReference: Equatable {
        /// A built-in style, such as `error` or `warning`.
        case named(String)
        /// A style written inside the rule.
        case inline(Style)
    }

    /// Where a rule matches, as `scope` says it.
    enum Scope: String {
        case comments, strings
    }

    var name: String
    var pattern: Rule.Pattern
    var caseSensitive = true
    var wholeWord = false
    var style: StyleReference?
    /// Styles of capture groups, by number or name, in the order written.
    var groups: [(group: String, style: StyleReference)] = []
    /// Empty for anywhere.
    var scopes: [Scope] = []
    var languages: [String]?
    var files: [String]?
    /// One line for the comment above the rule: where it came from, and what to know about it.
    var comment: String
    /// Where the settings wrote what the rule comes from.
    var place: TextLocation
}

/// What one settings file gave.
struct ImportResult {
    /// The tools whose settings were found, for the file's opening comment (`Todo Tree`).
    var tools: [String] = []
    var rules: [ImportedRule] = []
    var problems: [ImportProblem] = []
}

extension ImportedRule {
    /// The rule as one line of `.highlights.json`, with the keys in the order the documentation lists them.
    var jsonText: String {
        var members = ["\"name\": \(Self.string(name))"]
        switch pattern {
        case .words(let words): members.append("\"words\": [" + words.map(Self.string).joined(separator: ", ") + "]")
        case .regex(let regex): members.append("\"regex\": \(Self.string(regex))")
        }
        if !caseSensitive { members.append("\"caseSensitive\": false") }
        if wholeWord { members.append("\"wholeWord\": true") }
        if let style { members.append("\"style\": \(Self.jsonText(of: style))") }
        if !groups.isEmpty {
            members.append("\"groups\": { " + groups.map { "\(Self.string($0.group)): \(Self.jsonText(of: $0.style))" }.joined(separator: ", ") + " }")
        }
        if scopes.count == 1 { members.append("\"scope\": \(Self.string(scopes[0].rawValue))") }
        if scopes.count > 1 { members.append("\"scope\": [" + scopes.map { Self.string($0.rawValue) }.joined(separator: ", ") + "]") }
        if let languages { members.append("\"languages\": [" + languages.map(Self.string).joined(separator: ", ") + "]") }
        if let files { members.append("\"files\": [" + files.map(Self.string).joined(separator: ", ") + "]") }
        return "{ " + members.joined(separator: ", ") + " }"
    }

    /// `text` as a JSON string literal.
    private static func string(_ text: String) -> String { JSON.string(text).jsonText }

    /// `"error"`, or an inline style with every attribute that is on.
    static func jsonText(of reference: StyleReference) -> String {
        switch reference {
        case .named(let name): return string(name)
        case .inline(let style): return jsonText(of: style)
        }
    }

    /// A style written inline: each attribute that differs from its default.
    static func jsonText(of style: Style) -> String {
        var members: [String] = []
        if let color = style.color { members.append("\"color\": \"\(color.hexStringOmittingOpaqueAlpha)\"") }
        if let color = style.backgroundColor { members.append("\"backgroundColor\": \"\(color.hexStringOmittingOpaqueAlpha)\"") }
        if let color = style.borderColor { members.append("\"borderColor\": \"\(color.hexStringOmittingOpaqueAlpha)\"") }
        if style.bold { members.append("\"bold\": true") }
        if style.italic { members.append("\"italic\": true") }
        if style.underline { members.append("\"underline\": true") }
        if style.strikethrough { members.append("\"strikethrough\": true") }
        if style.rounded { members.append("\"rounded\": true") }
        if let mark = style.overviewRuler {
            var parts: [String] = []
            if let color = mark.color { parts.append("\"color\": \"\(color.hexStringOmittingOpaqueAlpha)\"") }
            if mark.lane != OverviewRulerMark.defaultLane { parts.append("\"lane\": \"\(mark.lane.rawValue)\"") }
            members.append("\"overviewRuler\": " + (parts.isEmpty ? "true" : "{ " + parts.joined(separator: ", ") + " }"))
        }
        if let sign = style.gutter {
            var parts: [String] = []
            if let text = sign.text { parts.append("\"text\": \(string(text))") }
            if let color = sign.color { parts.append("\"color\": \"\(color.hexStringOmittingOpaqueAlpha)\"") }
            members.append("\"gutter\": " + (parts.isEmpty ? "true" : "{ " + parts.joined(separator: ", ") + " }"))
        }
        if style.wholeLine { members.append("\"wholeLine\": true") }
        return members.isEmpty ? "{}" : "{ " + members.joined(separator: ", ") + " }"
    }
}

extension ImportResult {
    /// The whole `.highlights.json` text: an opening comment naming the source, `defaults`, and the rules, each under
    /// its comment.
    func configurationText(sourcePath: String) -> String {
        let tools = tools.isEmpty ? "no highlighter" : tools.joined(separator: ", ")
        var out = """
            // highlight-ls configuration imported by `highlight-ls import` from the \(tools) settings in \(Self.commentText(sourcePath)).
            // Each rule says where it came from; what could not be carried over as it was is named on standard error.
            // JSON with comments and trailing commas; every key is described in docs/CONFIGURATION.md.
            {
              // true keeps highlight-ls's built-in rules (todo, fixme, hack, note, review, deprecated, task) under these;
              // a rule below with the name of a built-in one replaces it.
              "defaults": true,

              "rules": [

            """
        for rule in rules {
            out += "    // \(Self.commentText(rule.comment))\n"
            out += "    \(rule.jsonText),\n"
        }
        out += """
              ],
            }

            """
        return out
    }

    /// `text` fit for a `//` comment: a line break in it (a regex may hold one) would end the comment and leave
    /// the rest as JSON, so line breaks are written as escapes.
    static func commentText(_ text: String) -> String {
        text.replacingEvery("\r", with: "\\r").replacingEvery("\n", with: "\\n")
            .replacingEvery("\u{2028}", with: "\\u2028").replacingEvery("\u{2029}", with: "\\u2029")
    }

    /// The configuration text `utf8` with the rules added first in its `rules`, in their order, each as the server's
    /// marks add one (`MarkRuleInsertion`), and the names left out because the text has them already; nil when the
    /// text is not a JSON object with a `rules` array (or none).
    func insertions(into utf8: [UInt8]) -> (text: [UInt8], skipped: [String])? {
        guard let taken = MarkRuleInsertion.ruleNames(in: utf8) else { return nil }
        var text = utf8
        var skipped: [String] = []
        // Each insertion goes first in `rules`, so the rules are inserted last to first to keep their order.
        for rule in rules.reversed() {
            guard !taken.contains(rule.name) else {
                skipped.insert(rule.name, at: 0)
                continue
            }
            guard let insertion = MarkRuleInsertion.insertion(ofRule: rule.jsonText, into: text) else { return nil }
            text.insert(contentsOf: Array(insertion.text.utf8), at: insertion.utf8Offset)
        }
        return (text, skipped)
    }
}

extension String {
    /// The text as a message quotes it: whole when short, else its start and "...", so that a long regex does not
    /// fill the terminal.
    var abbreviated: String {
        count > 60 ? String(prefix(57)) + "..." : self
    }
}

/// Rule names made from what a rule matches, unique within one import.
struct ImportedRuleNames {
    private var taken: Set<String> = []

    /// A name from `text` (`TODO:` → `todo`, `(//TODO)(:)` → `todo`), else `fallback`, with `-2`, `-3`… when taken.
    mutating func name(for text: String, fallback: String) -> String {
        // The letters of the text, with regex escapes (`\b`, `\d`) taken out so that they do not read as words.
        var letters = ""
        var escaped = false
        for character in text {
            if escaped {
                escaped = false
                letters.append(" ")
            } else if character == "\\" {
                escaped = true
            } else {
                letters.append(character.isLetter || character.isNumber ? character : " ")
            }
        }
        let words = letters.split(separator: Character(" ")).filter { $0.count >= 2 }.prefix(2).map(String.init).joined(separator: " ")
        let name = MarkRuleInsertion.ruleName(for: words.isEmpty ? fallback : words, taken: taken)
        taken.insert(name)
        return name
    }
}

/// The value of hex `digits` as the settings files write them (a JavaScript `\u{…}`, a Lua `\x41`); nil when there are
/// none, when one is not an ASCII hex digit (`UInt32(_:radix:)` alone would take a leading `+` or `-`), or when the
/// value does not fit.
func valueOfHexDigits(_ digits: some Collection<Unicode.Scalar>) -> UInt32? {
    guard digits.allSatisfy({ $0.isASCII && Character($0).isHexDigit }) else { return nil }
    return UInt32(String(String.UnicodeScalarView(digits)), radix: 16)
}

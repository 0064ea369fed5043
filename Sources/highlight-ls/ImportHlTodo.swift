import HighlightConfig
import PatternEngine
import TextIndex

// hl-todo, read from an Emacs init file: the value given to `hl-todo-keyword-faces` by `setq`,
// `setq-default`, `setopt`, `customize-set-variable`, `custom-set-variables` or use-package's
// `:custom`, an alist of (KEYWORD . FACE):
//
//   (setq hl-todo-keyword-faces '(("TODO" . "#FF0000") ("DEBUG" . warning) ("HACK\\|KLUDGE" . "#d0bf8f")))
//
// hl-todo (hl-todo.el 3.9) puts the keywords, which are Emacs regexps, between the delimiters of
// `hl-todo-keyword-delimiters` (by default `symbol`: \_< and \_>; `word`: \< and \>; nil: none),
// read in its own syntax table (text mode's), and matches them with case, in comments and strings
// (and anywhere in text modes): one rule a keyword, wholeWord unless the delimiters are nil, with
// "scope": ["comments", "strings"] (a language without scopes, such as plain text, matches
// anywhere). A colour is hl-todo's own face (bold, #cc9393) with that colour as its foreground, or
// as its background when `hl-todo-color-background` is t; a face by name is the built-in style of
// that name where there is one.

/// Reads hl-todo's settings from the text of an Emacs Lisp file.
struct HlTodoImport {
    let utf8: [UInt8]
    /// The lines of `utf8`, indexed once for the places of all problems and rules.
    let lines: LineIndex
    var result = ImportResult()
    var names = ImportedRuleNames()

    static let variable = "hl-todo-keyword-faces"
    /// Whether a colour is the keyword's background (`hl-todo-color-background`), not its foreground.
    var colorsBackground = false
    /// Whether the keywords have delimiters around them (`hl-todo-keyword-delimiters` not nil).
    var wholeWord = true

    /// The import of an Emacs Lisp text, or why it cannot be read.
    static func run(_ utf8: [UInt8]) -> Result<ImportResult, ImportFailure> {
        let forms: [ElispNode]
        do {
            forms = try ElispReader.forms(of: utf8)
        } catch {
            return .failure(ImportFailure(place: LineIndex(utf8: utf8).textLocation(ofUTF8Offset: error.utf8Offset), message: "cannot read the Emacs Lisp: \(error.message)"))
        }
        var importer = HlTodoImport(utf8: utf8, lines: LineIndex(utf8: utf8))
        importer.convert(forms)
        return .success(importer.result)
    }

    /// Names `construct` at `utf8Offset` of the file.
    mutating func problem(_ utf8Offset: Int, _ construct: String, _ reason: String, nearest: String) {
        result.problems.append(ImportProblem(
            place: lines.textLocation(ofUTF8Offset: utf8Offset), construct: construct, reason: reason, nearest: nearest))
    }

    /// The forms that set `variable`: the symbol's offset and the value form, in the order of the file.
    static func settings(in forms: [ElispNode], of variable: String = variable) -> [(symbolOffset: Int, value: ElispNode)] {
        var found: [(Int, ElispNode)] = []
        for form in forms {
            form.visit { node in
                guard let elements = node.listElements, let head = elements.first else { return }
                switch head.symbolName {
                case "setq", "setq-default", "setopt", "setq-local":
                    for index in stride(from: 1, to: elements.count - 1, by: 2) where elements[index].symbolName == variable {
                        found.append((elements[index].utf8Offset, elements[index + 1]))
                    }
                case "customize-set-variable", "set", "set-default", "custom-set-default":
                    if elements.count >= 3, case .quoted(.quote, let name) = elements[1].value, name.symbolName == variable {
                        found.append((name.utf8Offset, elements[2]))
                    }
                case variable?:
                    // An entry of custom-set-variables ('(VAR VALUE …)) or of use-package's :custom ((VAR VALUE "doc")).
                    if elements.count >= 2 { found.append((head.utf8Offset, elements[1])) }
                default: break
                }
            }
        }
        return found
    }

    /// The rules of the last value the file gives the variable, and the problems of every other mention of it.
    mutating func convert(_ forms: [ElispNode]) {
        let settings = Self.settings(in: forms)
        let handled = Set(settings.map(\.symbolOffset))
        // Every other mention (add-to-list, push, a let) changes the value in a way the import does not follow.
        for form in forms {
            form.visit { node in
                guard node.symbolName == Self.variable, !handled.contains(node.utf8Offset) else { return }
                result.problems.append(ImportProblem(
                    place: lines.textLocation(ofUTF8Offset: node.utf8Offset), construct: "this use of \(Self.variable)",
                    reason: "only a value given by setq, setopt, customize-set-variable, custom-set-variables or :custom is read",
                    nearest: "the keyword written into that value"))
            }
        }
        guard let (symbolOffset, value) = settings.last else { return }
        result.tools.append("hl-todo")
        colorsBackground = Self.settings(in: forms, of: "hl-todo-color-background").last.map {
            $0.value.symbolName != "nil" && !($0.value.listElements?.isEmpty ?? false)
        } ?? false
        // The delimiters: `symbol` unless the file says otherwise ('word, 'symbol or nil; anything else is none).
        var delimiters = "symbol"
        var delimitersOffset = symbolOffset
        if let (offset, node) = Self.settings(in: forms, of: "hl-todo-keyword-delimiters").last {
            let name = quotedData(node)?.symbolName ?? node.symbolName
            delimiters = name == "symbol" || name == "word" ? name! : ""
            delimitersOffset = offset
        }
        guard let alist = quotedData(value) else {
            problem(value.utf8Offset, "the value of \(Self.variable)", "it is computed, and the import reads a quoted list",
                nearest: "a quoted list '((\"TODO\" . \"#cc9393\") …)")
            return
        }
        guard let entries = alist.listElements else {
            problem(alist.utf8Offset, "the value of \(Self.variable)", "it is not a list of (KEYWORD . FACE)", nearest: "nothing")
            return
        }
        switch delimiters {
        case "symbol":
            problem(delimitersOffset, "hl-todo's \\_< and \\_> around the keywords exactly", "in hl-todo's syntax table (text "
                + "mode's) _ - + * / & | < > = are symbol characters, so a keyword touching one of them is not highlighted",
                nearest: "wholeWord (letters, digits and _ only), used")
        case "word":
            problem(delimitersOffset, "hl-todo's \\< and \\> around the keywords exactly", "in hl-todo's syntax table (text "
                + "mode's) letters and digits are word characters and _ is not", nearest: "wholeWord (which counts _ as a word character too), used")
        default: break
        }
        wholeWord = delimiters != ""
        for entry in entries {
            let keyword: ElispNode
            let face: ElispNode
            switch entry.value {
            case .list(let elements, let tail?) where elements.count == 1:
                (keyword, face) = (elements[0], tail)
            case .list(let elements, nil) where elements.count == 2:
                (keyword, face) = (elements[0], elements[1])
            default:
                problem(entry.utf8Offset, "this entry", "an entry is (KEYWORD . FACE)", nearest: "nothing")
                continue
            }
            guard let regexp = keyword.stringValue else {
                problem(keyword.utf8Offset, "the keyword", "a keyword is a string", nearest: "nothing")
                continue
            }
            convertEntry(regexp, at: keyword.utf8Offset, face: face)
        }
    }

    /// The data of a quoted form (`'x`, or `` `x `` with nothing unquoted); nil for anything computed.
    func quotedData(_ node: ElispNode) -> ElispNode? {
        guard case .quoted(let kind, let inner) = node.value, kind == .quote || kind == .backquote else { return nil }
        var unquoted = false
        inner.visit { if case .quoted(let inside, _) = $0.value, inside == .unquote || inside == .splice { unquoted = true } }
        return unquoted && kind == .backquote ? nil : inner
    }

    /// The rule of one (KEYWORD . FACE) entry, unless its keyword cannot be an RE2 pattern.
    mutating func convertEntry(_ regexp: String, at utf8Offset: Int, face: ElispNode) {
        let translation = EmacsRegex.translate(regexp)
        for problem in translation.problems {
            // An Emacs regexp problem carries no offset within the pattern, so it is named at the keyword's string.
            self.problem(utf8Offset, "\(problem.construct) in the keyword \"\(regexp)\"", problem.reason, nearest: problem.nearest)
        }
        guard let pattern = translation.pattern else { return }
        let isLiteral = RegexEscaping.escaped(regexp) == pattern
        if !isLiteral {
            do {
                _ = try CompiledRegex(pattern)
            } catch {
                problem(utf8Offset, "the keyword \"\(regexp.abbreviated)\"", "its RE2 form \(pattern.abbreviated) is rejected: \(error.message)",
                    nearest: "nothing; the rule is left out")
                return
            }
        }
        var rule = ImportedRule(
            name: names.name(for: regexp, fallback: "keyword"), pattern: isLiteral ? .words([regexp]) : .regex(pattern),
            wholeWord: wholeWord, style: faceStyle(face), comment: "hl-todo keyword \"\(regexp)\"",
            place: lines.textLocation(ofUTF8Offset: utf8Offset))
        rule.scopes = [.comments, .strings]
        result.rules.append(rule)
    }

    /// Faces that are built-in styles of the same meaning, and the nearest built-in style of some others.
    static let faceStyles: [String: String] = [
        "error": "error", "warning": "warning", "highlight": "highlight", "font-lock-warning-face": "error",
    ]
    static let nearestFaceStyles: [String: String] = [
        "success": "hint", "font-lock-keyword-face": "info", "font-lock-comment-face": "highlight", "font-lock-doc-face": "info",
        "font-lock-constant-face": "info", "font-lock-type-face": "hint", "font-lock-function-name-face": "info",
        "font-lock-string-face": "hint", "font-lock-builtin-face": "info", "font-lock-variable-name-face": "caution",
        "bold": "highlight", "italic": "highlight", "underline": "highlight",
    ]

    /// hl-todo's own face: bold, in `#cc9393` unless a colour is given (as its background when `background`).
    static func hlTodoFace(_ color: RGBAColor?, background: Bool = false) -> Style {
        let own = RGBAColor(red: 0xcc, green: 0x93, blue: 0x93)
        return background && color != nil ? Style(color: own, backgroundColor: color, bold: true) : Style(color: color ?? own, bold: true)
    }

    /// The style of a FACE: a colour, a face name or a list of face attributes.
    mutating func faceStyle(_ face: ElispNode) -> ImportedRule.StyleReference {
        if let text = face.stringValue {
            if let color = importedColor(text, naming: .x11) { return .inline(Self.hlTodoFace(color, background: colorsBackground)) }
            problem(face.utf8Offset, "the colour \"\(text)\"", "it is not a hex colour or a colour name the import knows",
                nearest: "hl-todo's own colour #cc9393, used")
            return .inline(Self.hlTodoFace(nil))
        }
        if let name = face.symbolName ?? quotedData(face)?.symbolName {
            return namedFace(name, at: face.utf8Offset)
        }
        guard let attributes = (quotedData(face) ?? face).listElements else {
            problem(face.utf8Offset, "this face", "a face is a colour, a face name or a list of attributes", nearest: "the neutral highlight, used")
            return .named("highlight")
        }
        var style = Style()
        for index in stride(from: 0, to: attributes.count - 1, by: 2) {
            let key = attributes[index].symbolName ?? ""
            let value = attributes[index + 1]
            let isOn = value.symbolName != "nil"
            switch key {
            case ":foreground": style.color = value.stringValue.flatMap { importedColor($0, naming: .x11) }
            case ":background": style.backgroundColor = value.stringValue.flatMap { importedColor($0, naming: .x11) }
            case ":weight": style.bold = ["bold", "semi-bold", "semibold", "extra-bold", "ultra-bold", "heavy", "black"].contains(value.symbolName ?? "")
            case ":slant": style.italic = ["italic", "oblique"].contains(value.symbolName ?? "")
            case ":underline": style.underline = isOn
            case ":strike-through": style.strikethrough = isOn
            case ":box":
                style.borderColor = value.stringValue.flatMap { importedColor($0, naming: .x11) }
                    ?? style.color ?? RGBAColor(red: 0x80, green: 0x80, blue: 0x80)
            case ":inherit":
                // hl-todo's face is what a colour string inherits from; another face can only be carried alone.
                if value.symbolName != "hl-todo" {
                    problem(value.utf8Offset, ":inherit in a face with attributes", "a style is a built-in style or attributes, not both",
                        nearest: "the attributes, used")
                } else {
                    style.bold = true
                }
            default:
                problem(attributes[index].utf8Offset, "the face attribute \(key)", "a style has no such attribute",
                    nearest: ":foreground, :background, :weight, :slant, :underline, :strike-through or :box")
            }
        }
        return .inline(style)
    }

    /// A face by name: the built-in style of that meaning, else the nearest one, named.
    mutating func namedFace(_ name: String, at utf8Offset: Int) -> ImportedRule.StyleReference {
        if name == "hl-todo" { return .inline(Self.hlTodoFace(nil)) }
        if let style = Self.faceStyles[name] { return .named(style) }
        let nearest = Self.nearestFaceStyles[name] ?? "highlight"
        problem(utf8Offset, "the face \(name)", "its colours are the theme's, and highlight-ls has no style of its meaning",
            nearest: "the built-in style \(nearest), used")
        return .named(nearest)
    }
}

/// An Emacs regexp (hl-todo's keywords) in RE2 syntax, or why it cannot be.
enum EmacsRegex {
    /// Something in a keyword that RE2 cannot say as Emacs means it.
    struct Problem {
        var construct: String
        var reason: String
        var nearest: String
    }

    /// The RE2 pattern (nil when something leaves the keyword out) and what is carried only as the nearest.
    ///
    /// - Complexity: O(*n*) in the length of the regexp.
    static func translate(_ regexp: String) -> (pattern: String?, problems: [Problem]) {
        let characters = Array(regexp)
        var out = ""
        var problems: [Problem] = []
        var fatal = false
        var index = 0
        // Whether a repetition operator here has something to repeat; Emacs takes it literally otherwise.
        var canRepeat = false
        while index < characters.count {
            let character = characters[index]
            index += 1
            switch character {
            case "\\":
                guard index < characters.count else {
                    out += #"\\"#
                    continue
                }
                let next = characters[index]
                index += 1
                canRepeat = true
                switch next {
                case "|":
                    out += "|"
                    canRepeat = false
                case "(":
                    if index + 1 < characters.count, characters[index] == "?" {
                        // A shy group `\(?:` or an explicitly numbered one `\(?3:`.
                        index += 1
                        while index < characters.count, characters[index].isNumber { index += 1 }
                        index += 1
                        out += "(?:"
                    } else {
                        out += "("
                    }
                    canRepeat = false
                case ")": out += ")"
                case "{":
                    var count = ""
                    while index < characters.count, characters[index] != "\\" {
                        count.append(characters[index])
                        index += 1
                    }
                    index += 2  // The closing `\}`.
                    out += "{" + (count.hasPrefix(",") ? "0" + count : count) + "}"
                case "1"..."9":
                    problems.append(Problem(construct: "the backreference \\\(next)", reason: "RE2 has no backreferences, so the keyword is left out",
                        nearest: "repeat the group's pattern in its place"))
                    fatal = true
                case "w", "W":
                    out += next == "w" ? #"[\p{L}\p{N}]"# : #"[^\p{L}\p{N}]"#
                case "<", ">", "b", "_":
                    if next == "_", index < characters.count { index += 1 }
                    problems.append(Problem(construct: "the boundary \\\(next == "_" ? "_" + String(characters[index - 1]) : String(next))",
                        reason: "Emacs's word (or symbol) characters follow the mode's syntax table", nearest: "\\b (ASCII letters, digits and _), used"))
                    out += #"\b"#
                    canRepeat = false
                case "B": out += #"\B"#
                case "`": out += #"\A"#
                case "'": out += #"\z"#
                case "s", "S", "c", "C":
                    let what = index < characters.count ? String(characters[index]) : ""
                    index += 1
                    if (next == "s" || next == "S") && (what == "-" || what == " ") {
                        problems.append(Problem(construct: "the syntax class \\\(next)\(what)", reason: "whitespace follows the mode's syntax table",
                            nearest: next == "s" ? "\\s (ASCII white space), used" : "\\S, used"))
                        out += next == "s" ? #"\s"# : #"\S"#
                    } else {
                        problems.append(Problem(construct: "the \(next == "s" || next == "S" ? "syntax class" : "category") \\\(next)\(what)",
                            reason: "it follows the mode's tables, which RE2 cannot know, so the keyword is left out", nearest: "a class of the characters meant"))
                        fatal = true
                    }
                default:
                    out += RegexEscaping.escaped(String(next))
                }
            case "[":
                var body = ""
                if index < characters.count, characters[index] == "^" {
                    body += "^"
                    index += 1
                }
                if index < characters.count, characters[index] == "]" {
                    body += #"\]"#
                    index += 1
                }
                while index < characters.count, characters[index] != "]" {
                    if characters[index] == "[", index + 1 < characters.count, characters[index + 1] == ":",
                        let close = (index + 2..<characters.count).first(where: { characters[$0] == ":" })
                    {
                        let name = String(characters[(index + 2)..<close])
                        let classes = ["alpha": #"\p{L}"#, "alnum": #"\p{L}\p{N}"#, "digit": "0-9", "upper": #"\p{Lu}"#,
                            "lower": #"\p{Ll}"#, "xdigit": "0-9A-Fa-f", "word": #"\p{L}\p{N}"#, "space": #"\s"#, "blank": #" \t"#]
                        if let mapped = classes[name] {
                            body += mapped
                        } else {
                            problems.append(Problem(construct: "the class [:\(name):]", reason: "it has no RE2 counterpart here, so the keyword is left out",
                                nearest: "the characters it means, listed"))
                            fatal = true
                        }
                        index = close + 2
                        continue
                    }
                    let member = characters[index]
                    body += member == "\\" || member == "[" ? "\\" + String(member) : String(member)
                    index += 1
                }
                index += 1
                out += "[" + body + "]"
                canRepeat = true
            case "*", "+", "?":
                if canRepeat {
                    out.append(character)
                    // `*?` is lazy in Emacs as in RE2; a `?` right after the operator belongs to it.
                    if index < characters.count, characters[index] == "?" {
                        out += "?"
                        index += 1
                    }
                    canRepeat = false
                } else {
                    out += "\\" + String(character)
                }
            case "^":
                out += out.isEmpty || out.hasSuffix("|") || out.hasSuffix("(") || out.hasSuffix("(?:") ? "^" : #"\^"#
                canRepeat = false
            case "$":
                let atEnd = index == characters.count || (index + 1 < characters.count && characters[index] == "\\"
                    && (characters[index + 1] == "|" || characters[index + 1] == ")"))
                out += atEnd ? "$" : #"\$"#
                canRepeat = !atEnd
            case ".":
                out += "."
                canRepeat = true
            default:
                out += RegexEscaping.escaped(String(character))
                canRepeat = true
            }
        }
        return (fatal ? nil : out, problems)
    }
}

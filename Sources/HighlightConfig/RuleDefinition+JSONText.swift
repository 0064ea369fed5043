import JSONValue

extension RuleDefinition {
    /// The rule as one line of `.highlights.json` that reads back as this definition, for `highlight-ls init`'s copies
    /// of the built-in rules: every key that differs from its default, in the order of `ConfigKeys.rule`.
    ///
    /// Nil for what one line of keys cannot say: a style written inline, styles of capture groups, and the `color`
    /// rule (which `"colors": true` adds). No built-in rule has them, and `init`'s test reads every line back.
    public var jsonText: String? {
        guard !findsColorLiterals, groupStyles.isEmpty else { return nil }
        func string(_ text: String) -> String { JSON.string(text).jsonText }
        func list(_ texts: [String]) -> String { "[" + texts.map(string).joined(separator: ", ") + "]" }
        var members = ["\"name\": \(string(name))"]
        switch pattern {
        case .words(let words)?: members.append("\"words\": \(list(words))")
        case .regex(let regex)?: members.append("\"regex\": \(string(regex))")
        case nil: break
        }
        if !caseSensitive { members.append("\"caseSensitive\": false") }
        if wholeWord { members.append("\"wholeWord\": true") }
        switch style {
        case .named(let styleName)?: members.append("\"style\": \(string(styleName))")
        case .inline?: return nil
        case nil: break
        }
        if !enabled { members.append("\"enabled\": false") }
        if let severity { members.append("\"severity\": \(string(severity.rawValue))") }
        if let message { members.append("\"message\": \(string(message))") }
        if let link { members.append("\"link\": \(string(link))") }
        if applicability.scopes != .anywhere {
            let names = RuleApplicability.Scopes.names.filter { $0.scopes != .anywhere && applicability.scopes.contains($0.scopes) }.map(\.name)
            members.append("\"scope\": " + (names.count == 1 ? string(names[0]) : list(names)))
        }
        if let languages = applicability.languages { members.append("\"languages\": \(list(languages))") }
        if let files = applicability.files { members.append("\"files\": \(list(files))") }
        if applicability.list { members.append("\"list\": true") }
        if applicability.blocking { members.append("\"blocking\": true") }
        if applicability.readsFields { members.append("\"fields\": true") }
        return "{ " + members.joined(separator: ", ") + " }"
    }
}

import JSONValue
import LanguageSyntax

extension LayerReader {
    /// Reads `languages`: an object of declared languages by id, each with `files` and at least one of
    /// `lineComments`, `blockComments` and `strings`. A language with an error is left out whole.
    ///
    /// ```json
    /// "languages": {
    ///   "vim": { "files": ["*.vim", ".vimrc"], "lineComments": ["\""], "strings": ["'"] },
    ///   "ada": { "files": ["*.adb", "*.ads"], "lineComments": ["--"], "strings": ["\""] }
    /// }
    /// ```
    mutating func readLanguages(_ value: JSON) -> [DeclaredLanguage] {
        let path: [JSONPathComponent] = [.key("languages")]
        guard case .object(let languages) = value else {
            report(.error, "\"languages\" must be an object of languages by id, not \(a(value.typeName))", at: origin(ofValueAt: path))
            return []
        }
        var declared: [DeclaredLanguage] = []
        for id in orderedKeys(of: languages, at: path) {
            guard let entry = languages[id] else { continue }
            let entryPath = path + [.key(id)]
            let label = "language \"\(id)\""
            guard !id.isEmpty else {
                report(.error, "a language id must not be empty", at: origin(ofKeyAt: entryPath))
                continue
            }
            guard case .object(let members) = entry else {
                report(.error, "\(label) must be an object, not \(a(entry.typeName))", at: origin(ofValueAt: entryPath))
                continue
            }
            for key in orderedKeys(of: members, at: entryPath) where !ConfigKeys.language.contains(key) {
                let suffix = ConfigKeys.suggestionSuffix(for: key, among: ConfigKeys.language)
                report(.warning, "\(label): unknown key \"\(key)\"\(suffix)", at: origin(ofKeyAt: entryPath + [.key(key)]))
            }
            var failed = false
            func list(_ key: String, what: String) -> [String] {
                guard let value = members[key] else { return [] }
                guard let list = readStringList(value, at: entryPath + [.key(key)], key: key, what: what, label: label) else {
                    failed = true
                    return []
                }
                return list
            }
            let files = members["files"] == nil ? nil : list("files", what: "globs")
            let lineComments = list("lineComments", what: "comment leaders")
            let strings = list("strings", what: "string delimiters")
            var blockComments: [(open: String, close: String)] = []
            if let value = members["blockComments"] {
                let blockPath = entryPath + [.key("blockComments")]
                let pairs = value.arrayValue ?? []
                if pairs.isEmpty {
                    report(.error, "\(label): \"blockComments\" must be a non-empty array of [open, close] pairs", at: origin(ofValueAt: blockPath))
                    failed = true
                }
                for (index, pair) in pairs.enumerated() {
                    guard let both = pair.arrayValue, both.count == 2, let open = both[0].stringValue, let close = both[1].stringValue,
                          !open.isEmpty, !close.isEmpty else {
                        report(.error, "\(label): blockComments[\(index)] must be a pair of non-empty strings, [open, close]",
                               at: origin(ofValueAt: blockPath + [.index(index)]))
                        failed = true
                        continue
                    }
                    blockComments.append((open, close))
                }
            }
            let delimiters = lineComments + strings + blockComments.flatMap { [$0.open, $0.close] }
            if let nonASCII = delimiters.first(where: { !$0.allSatisfy(\.isASCII) }) {
                report(.error, "\(label): \"\(nonASCII)\" is not ASCII; comment and string delimiters are ASCII", at: origin(ofValueAt: entryPath))
                failed = true
            }
            if !failed, lineComments.isEmpty, blockComments.isEmpty, strings.isEmpty {
                report(.error, "\(label) needs \"lineComments\", \"blockComments\" or \"strings\"", at: origin(ofValueAt: entryPath))
                failed = true
            }
            guard !failed else { continue }
            let syntax = LanguageSyntax.declared(languageID: id, lineComments: lineComments, blockComments: blockComments, strings: strings)
            declared.append(DeclaredLanguage(id: id, files: files, syntax: syntax))
        }
        return declared
    }
}

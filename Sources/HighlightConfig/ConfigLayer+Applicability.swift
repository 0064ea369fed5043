import JSONValue

extension LayerReader {
    /// Reads `scope`, `languages`, `files`, `list`, `blocking` and `fields` of the rule at `path`; `failed` when any is wrong.
    mutating func readApplicability(
        _ members: [String: JSON], at path: [JSONPathComponent], label: String
    ) -> (applicability: RuleApplicability, failed: Bool) {
        var result = RuleApplicability()
        var failed = false
        if let value = members["scope"] {
            let valuePath = path + [.key("scope")]
            let names = RuleApplicability.Scopes.names.map(\.name)
            let expected = "\"comments\", \"strings\", \"code\" or \"anywhere\", or a list of them"
            var scopes: RuleApplicability.Scopes = []
            let elements: [(JSON, [JSONPathComponent])]
            switch value {
            case .string: elements = [(value, valuePath)]
            case .array(let list) where !list.isEmpty: elements = list.enumerated().map { ($1, valuePath + [.index($0)]) }
            default: elements = []
            }
            if elements.isEmpty {
                report(.error, "\(label): \"scope\" must be \(expected), not \(describe(value))", at: origin(ofValueAt: valuePath))
                failed = true
            }
            for (element, elementPath) in elements {
                guard let text = element.stringValue, let entry = RuleApplicability.Scopes.names.first(where: { $0.name == text }) else {
                    let suffix = element.stringValue.map { ConfigKeys.suggestionSuffix(for: $0, among: names) } ?? ""
                    report(.error, "\(label): \"scope\" must be \(expected), not \(describe(element))\(suffix)", at: origin(ofValueAt: elementPath))
                    failed = true
                    continue
                }
                scopes.formUnion(entry.scopes)
            }
            if !scopes.isEmpty { result.scopes = scopes }
        }
        if let value = members["languages"] {
            if let list = readStringList(value, at: path + [.key("languages")], key: "languages", what: "language ids", label: label) {
                result.languages = list.map { $0.lowercased() }
            } else {
                failed = true
            }
        }
        if let value = members["files"] {
            if let list = readStringList(value, at: path + [.key("files")], key: "files", what: "globs", label: label) {
                result.files = list
            } else {
                failed = true
            }
        }
        for key in ["list", "blocking", "fields"] {
            guard let value = members[key] else { continue }
            guard let flag = value.boolValue else {
                report(.error, "\(label): \"\(key)\" must be true or false, not \(a(value.typeName))", at: origin(ofValueAt: path + [.key(key)]))
                failed = true
                continue
            }
            switch key {
            case "list": result.list = flag
            case "blocking": result.blocking = flag
            default: result.readsFields = flag
            }
        }
        return (result, failed)
    }

    /// A non-empty array of non-empty strings, or nil after reporting what is wrong.
    mutating func readStringList(
        _ value: JSON, at path: [JSONPathComponent], key: String, what: String, label: String
    ) -> [String]? {
        guard case .array(let elements) = value, !elements.isEmpty else {
            report(.error, "\(label): \"\(key)\" must be a non-empty array of \(what), not \(describe(value))", at: origin(ofValueAt: path))
            return nil
        }
        var list: [String] = []
        for (index, element) in elements.enumerated() {
            guard let text = element.stringValue, !text.isEmpty else {
                report(.error, "\(label): \(key)[\(index)] must be a non-empty string, not \(describe(element))", at: origin(ofValueAt: path + [.index(index)]))
                return nil
            }
            list.append(text)
        }
        return list
    }

    func describe(_ value: JSON) -> String {
        if let text = value.stringValue { return text.isEmpty ? "an empty string" : "\"\(text)\"" }
        if case .array(let list) = value, list.isEmpty { return "an empty array" }
        return a(value.typeName)
    }
}

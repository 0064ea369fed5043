import JSONValue

/// What a rule says beyond its pattern and style: `groups`, `severity`, `message` and `link`.
struct RuleDetailFields {
    var groupStyles: [RuleDefinition.GroupStyle] = []
    var severity: RuleDefinition.Severity?
    var message: String?
    var link: String?
    /// Whether a mistake was found (which drops the rule, as any mistake inside a rule does).
    var failed = false
}

extension LayerReader {
    /// Reads `groups`, `severity`, `message` and `link` of the rule at `path`.
    ///
    /// `captureNames` are the rule's groups as `CompiledRegex.captureNames` gives them (`[nil]`
    /// for words, which have only `$0`); `nil` when the regex is invalid, and references are then
    /// not checked, since the rule is dropped anyway.
    mutating func readRuleDetails(
        _ members: [String: JSON], at path: [JSONPathComponent], label: String, captureNames: [String?]?
    ) -> RuleDetailFields {
        var fields = RuleDetailFields()
        if let value = members["groups"] {
            let isRegex = members["regex"] != nil
            readGroups(value, at: path + [.key("groups")], label: label, captureNames: captureNames, isRegex: isRegex, into: &fields)
        }
        if let value = members["severity"] {
            let valuePath = path + [.key("severity")]
            let names = RuleDefinition.Severity.allCases.map(\.rawValue)
            if let text = value.stringValue, let severity = RuleDefinition.Severity(rawValue: text) {
                fields.severity = severity
            } else {
                let found = value.stringValue.map { "\"\($0)\"" } ?? a(value.typeName)
                let suffix = value.stringValue.map { ConfigKeys.suggestionSuffix(for: $0, among: names) } ?? ""
                let expected = names.map { "\"\($0)\"" }.joined(separator: ", ")
                report(.error, "\(label): \"severity\" must be one of \(expected), not \(found)\(suffix)", at: origin(ofValueAt: valuePath))
                fields.failed = true
            }
        }
        fields.message = readTemplate(members["message"], key: "message", at: path, label: label, captureNames: captureNames, failed: &fields.failed)
        fields.link = readTemplate(members["link"], key: "link", at: path, label: label, captureNames: captureNames, failed: &fields.failed)
        return fields
    }

    private mutating func readGroups(
        _ value: JSON, at path: [JSONPathComponent], label: String, captureNames: [String?]?, isRegex: Bool,
        into fields: inout RuleDetailFields
    ) {
        guard case .object(let groups) = value else {
            report(.error, "\(label): \"groups\" must be an object of styles by group number or name, not \(a(value.typeName))", at: origin(ofValueAt: path))
            fields.failed = true
            return
        }
        var seen: [Int: String] = [:]
        for key in orderedKeys(of: groups, at: path) {
            guard let styleValue = groups[key] else { continue }
            let keyPath = path + [.key(key)]
            if let captureNames {
                guard captureNames.count > 1 else {
                    let what = isRegex ? "the regex has no groups" : "only a regex rule has groups"
                    report(.error, "\(label): \"groups\": no group \"\(key)\" (\(what))", at: origin(ofKeyAt: keyPath))
                    fields.failed = true
                    continue
                }
                guard let number = RuleDetailsResolver.groupNumber(key, captureNames: captureNames) else {
                    let named = captureNames.compactMap { $0 }
                    var known = "groups 1 to \(captureNames.count - 1)"
                    if !named.isEmpty { known += ", named " + named.map { "\"\($0)\"" }.joined(separator: ", ") }
                    report(.error, "\(label): \"groups\": no group \"\(key)\" in the regex (it has \(known))", at: origin(ofKeyAt: keyPath))
                    fields.failed = true
                    continue
                }
                if let other = seen[number] {
                    report(.error, "\(label): \"groups\": \"\(key)\" is group \(number), already styled as \"\(other)\"", at: origin(ofKeyAt: keyPath))
                    fields.failed = true
                    continue
                }
                seen[number] = key
            }
            switch styleValue {
            case .string(let styleName) where !styleName.isEmpty:
                fields.groupStyles.append(RuleDefinition.GroupStyle(group: key, style: .named(styleName)))
            case .object:
                if let patch = readStylePatch(styleValue, at: keyPath, label: "style of group \"\(key)\" of \(label)") {
                    fields.groupStyles.append(RuleDefinition.GroupStyle(group: key, style: .inline(patch)))
                }
            default:
                let found = styleValue.stringValue != nil ? "an empty string" : a(styleValue.typeName)
                report(.error, "\(label): group \"\(key)\" must have a style name or a style object, not \(found)", at: origin(ofValueAt: keyPath))
                fields.failed = true
            }
        }
    }

    private mutating func readTemplate(
        _ value: JSON?, key: String, at path: [JSONPathComponent], label: String, captureNames: [String?]?, failed: inout Bool
    ) -> String? {
        guard let value else { return nil }
        let valuePath = path + [.key(key)]
        let valueOrigin = origin(ofValueAt: valuePath)
        guard let text = value.stringValue, !text.isEmpty else {
            let found = value.stringValue != nil ? "an empty string" : a(value.typeName)
            report(.error, "\(label): \"\(key)\" must be a non-empty string, not \(found)", at: valueOrigin)
            failed = true
            return nil
        }
        guard let captureNames else { return text }
        do {
            _ = try MatchTemplate(text, captureNames: captureNames)
        } catch {
            let errorOrigin = origin(ofDecodedUTF8Offset: error.templateUTF8Offset, inStringAt: valueOrigin)
            report(.error, "\(label): \"\(key)\": \(error.message)", at: errorOrigin)
            failed = true
            return nil
        }
        return text
    }
}

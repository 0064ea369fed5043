import JSONValue
import PatternEngine

extension ConfigLayer {
    /// Reads a `.highlights.json` file's bytes (JSON with comments and trailing commas).
    ///
    /// Returns `nil` for the layer when the file is unusable as a whole: invalid JSON, a top-level
    /// value that is not an object, or more than `ConfigFile.maximumSizeInBytes` bytes; the server
    /// then keeps its last good layer. Otherwise every problem drops only the rule, style or style
    /// attribute it is in, and is reported with `source` and a 1-based line and column.
    ///
    /// - Complexity: O(*n*) in the size of the file, plus compiling each `regex` once to validate it.
    public static func parse(fileContents: [UInt8], source: String) -> (layer: ConfigLayer?, diagnostics: [ConfigDiagnostic]) {
        guard fileContents.count <= ConfigFile.maximumSizeInBytes else {
            let message = "the file is \(fileContents.count) bytes, over the limit of \(ConfigFile.maximumSizeInBytes) bytes; it is ignored"
            return (nil, [ConfigDiagnostic(severity: .error, message: message, source: source)])
        }
        var bytes = fileContents
        // A UTF-8 byte order mark becomes spaces so that every offset still matches the file.
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            bytes.replaceSubrange(0..<3, with: [0x20, 0x20, 0x20])
        }
        let json: JSON
        let sourceMap: JSONSourceMap
        do {
            (json, sourceMap) = try JSONParser.parseWithLocations(bytes, options: .lenient)
        } catch {
            let diagnostic = ConfigDiagnostic(
                severity: .error, message: "invalid JSON: \(error.message)", source: source,
                line: error.line, column: error.column, utf8Offset: error.utf8Offset)
            return (nil, [diagnostic])
        }
        var reader = LayerReader(source: source, bytes: bytes, sourceMap: sourceMap)
        let layer = reader.readLayer(json)
        return (layer, reader.sortedDiagnostics)
    }

    /// Reads configuration that came as a JSON value: client settings or `initializationOptions`.
    ///
    /// `null` is an empty layer. When the value is an object with a `highlight` member that is an
    /// object, that member is read and the other members are left to whoever owns them, so that
    /// both `{"rules": [...]}` and `{"highlight": {"rules": [...]}}` work. Diagnostics carry
    /// `source` but no line or column.
    ///
    /// - Complexity: O(*n*) in the size of the value, plus compiling each `regex` once to validate it.
    public static func parse(json: JSON, source: String) -> (layer: ConfigLayer, diagnostics: [ConfigDiagnostic]) {
        var value = json
        if case .object(let nested)? = json["highlight"] {
            value = .object(nested)
        }
        var reader = LayerReader(source: source, bytes: [], sourceMap: nil)
        let layer = reader.readLayer(value) ?? ConfigLayer()
        return (layer, reader.sortedDiagnostics)
    }
}

/// Reads one layer from a JSON value, collecting diagnostics that point into the source.
struct LayerReader {
    /// A file path, `settings` or `initializationOptions`.
    let source: String
    /// The file's bytes, used to map regex error offsets through string escapes; empty without a file.
    let bytes: [UInt8]
    /// Where each value is in the file; `nil` without a file.
    let sourceMap: JSONSourceMap?
    /// The problems found so far, in the order found.
    private(set) var diagnostics: [ConfigDiagnostic] = []
    /// The compile budget of this source's regexes: one per rule, and one for the whole file.
    private var regexTracker = RegexCompileTracker()

    /// A reader for one source; `bytes` and `sourceMap` describe the file, and are empty and `nil` without one.
    init(source: String, bytes: [UInt8], sourceMap: JSONSourceMap?) {
        self.source = source
        self.bytes = bytes
        self.sourceMap = sourceMap
    }

    /// The diagnostics in file order (those without a position last, in the order found).
    var sortedDiagnostics: [ConfigDiagnostic] {
        diagnostics.enumerated()
            .sorted { ($0.element.utf8Offset ?? Int.max, $0.offset) < ($1.element.utf8Offset ?? Int.max, $1.offset) }
            .map(\.element)
    }

    // MARK: Locations

    func origin(atUTF8Offset utf8Offset: Int?) -> ConfigOrigin {
        guard let sourceMap, let utf8Offset else { return ConfigOrigin(source: source) }
        let location = sourceMap.textLocation(ofUTF8Offset: utf8Offset)
        return ConfigOrigin(source: source, line: location.line, column: location.column, utf8Offset: utf8Offset)
    }

    func origin(ofValueAt path: [JSONPathComponent]) -> ConfigOrigin {
        origin(atUTF8Offset: sourceMap?.utf8Offset(ofValueAt: path))
    }

    /// Where byte `decodedUTF8Offset` of a string value came from in the file, taking escapes
    /// into account; `valueOrigin` itself without a file.
    func origin(ofDecodedUTF8Offset decodedUTF8Offset: Int, inStringAt valueOrigin: ConfigOrigin) -> ConfigOrigin {
        guard let literalOffset = valueOrigin.utf8Offset else { return valueOrigin }
        return origin(atUTF8Offset: JSONStringLiteral.fileUTF8Offset(
            ofDecodedUTF8Offset: decodedUTF8Offset, literalUTF8Offset: literalOffset, in: bytes))
    }

    func origin(ofKeyAt path: [JSONPathComponent]) -> ConfigOrigin {
        origin(atUTF8Offset: sourceMap?.utf8Offset(ofKeyAt: path) ?? sourceMap?.utf8Offset(ofValueAt: path))
    }

    mutating func report(_ severity: ConfigDiagnostic.Severity, _ message: String, at origin: ConfigOrigin) {
        diagnostics.append(origin.diagnostic(severity, message))
    }

    /// An object's keys in file order (alphabetical without a file), so that messages come out stably.
    func orderedKeys(of members: [String: JSON], at path: [JSONPathComponent]) -> [String] {
        members.keys.sorted { left, right in
            let leftOffset = sourceMap?.utf8Offset(ofKeyAt: path + [.key(left)]) ?? Int.max
            let rightOffset = sourceMap?.utf8Offset(ofKeyAt: path + [.key(right)]) ?? Int.max
            return (leftOffset, left) < (rightOffset, right)
        }
    }

    // MARK: Layer

    /// The layer, or `nil` when the value is neither an object nor `null`.
    mutating func readLayer(_ json: JSON) -> ConfigLayer? {
        if json.isNull { return ConfigLayer() }
        guard case .object(let members) = json else {
            report(.error, "the configuration must be a JSON object, not \(a(json.typeName))", at: origin(ofValueAt: []))
            return nil
        }
        var layer = ConfigLayer()
        for key in orderedKeys(of: members, at: []) where !ConfigKeys.topLevel.contains(key) {
            let suffix = ConfigKeys.suggestionSuffix(for: key, among: ConfigKeys.topLevel)
            report(.warning, "unknown top-level key \"\(key)\"\(suffix)", at: origin(ofKeyAt: [.key(key)]))
        }
        if let value = members["defaults"] {
            if let defaults = value.boolValue {
                layer.defaults = defaults
            } else {
                report(.error, "\"defaults\" must be true or false, not \(a(value.typeName))", at: origin(ofValueAt: [.key("defaults")]))
            }
        }
        if let value = members["colors"] {
            if let colors = value.boolValue {
                layer.colors = colors
            } else {
                report(.error, "\"colors\" must be true or false, not \(a(value.typeName))", at: origin(ofValueAt: [.key("colors")]))
            }
        }
        if let value = members["outline"] {
            if let outline = value.boolValue {
                layer.outline = outline
            } else {
                report(.error, "\"outline\" must be true or false, not \(a(value.typeName))", at: origin(ofValueAt: [.key("outline")]))
            }
        }
        if let value = members["nestedConfigs"] {
            if let text = value.stringValue, let policy = NestedConfigPolicy(rawValue: text) {
                layer.nestedConfigs = policy
            } else {
                let found = value.stringValue.map { "\"\($0)\"" } ?? a(value.typeName)
                let policies = NestedConfigPolicy.allCases.map(\.rawValue)
                let suffix = value.stringValue.map { ConfigKeys.suggestionSuffix(for: $0, among: policies) } ?? ""
                let message = "\"nestedConfigs\" must be \"report\" or \"forbid\", not \(found)\(suffix)"
                report(.error, message, at: origin(ofValueAt: [.key("nestedConfigs")]))
            }
        }
        if let value = members["dueSoon"] {
            if let days = value.integerValue, (0...3650).contains(days) {
                layer.dueSoonDays = days
            } else {
                report(.error, "\"dueSoon\" must be a number of days from 0 to 3650, not \(describe(value))", at: origin(ofValueAt: [.key("dueSoon")]))
            }
        }
        if let value = members["languages"] {
            layer.languages = readLanguages(value)
        }
        if let value = members["styles"] {
            if case .object(let styles) = value {
                for name in orderedKeys(of: styles, at: [.key("styles")]) {
                    guard let styleValue = styles[name] else { continue }
                    let path: [JSONPathComponent] = [.key("styles"), .key(name)]
                    guard !name.isEmpty else {
                        report(.error, "a style name must not be empty", at: origin(ofKeyAt: path))
                        continue
                    }
                    if let style = readStyle(styleValue, at: path, label: "style \"\(name)\"") {
                        layer.styles[name] = style
                    }
                }
            } else {
                report(.error, "\"styles\" must be an object of styles by name, not \(a(value.typeName))", at: origin(ofValueAt: [.key("styles")]))
            }
        }
        if let value = members["rules"] {
            if case .array(let rules) = value {
                var firstOrigins: [String: ConfigOrigin] = [:]
                for (index, ruleValue) in rules.enumerated() {
                    guard let rule = readRule(ruleValue, index: index) else { continue }
                    if let first = firstOrigins[rule.name] {
                        let place = first.line.map { " (line \($0))" } ?? ""
                        let message = "rule \"\(rule.name)\": a rule of this name is already defined above\(place); this one is ignored"
                        report(.error, message, at: origin(ofValueAt: [.key("rules"), .index(index), .key("name")]))
                        continue
                    }
                    firstOrigins[rule.name] = rule.origin ?? ConfigOrigin(source: source)
                    layer.rules.append(rule)
                }
            } else {
                report(.error, "\"rules\" must be an array of rules, not \(a(value.typeName))", at: origin(ofValueAt: [.key("rules")]))
            }
        }
        return layer
    }

    // MARK: Style

    /// A style from an object, dropping (and reporting) only the attributes that are wrong;
    /// `nil` when the value is not an object.
    mutating func readStyle(_ json: JSON, at path: [JSONPathComponent], label: String) -> Style? {
        readStylePatch(json, at: path, label: label)?.applied(to: Style())
    }

    /// The attributes an object writes, dropping (and reporting) only those that are wrong;
    /// `nil` when the value is not an object.
    mutating func readStylePatch(_ json: JSON, at path: [JSONPathComponent], label: String) -> StylePatch? {
        guard case .object(let members) = json else {
            report(.error, "\(label) must be an object, not \(a(json.typeName))", at: origin(ofValueAt: path))
            return nil
        }
        var style = StylePatch()
        for key in orderedKeys(of: members, at: path) {
            guard let value = members[key] else { continue }
            let keyPath = path + [.key(key)]
            guard ConfigKeys.style.contains(key) else {
                let suffix = ConfigKeys.suggestionSuffix(for: key, among: ConfigKeys.style)
                report(.warning, "unknown key \"\(key)\" in \(label)\(suffix)", at: origin(ofKeyAt: keyPath))
                continue
            }
            if key == "overviewRuler" {
                if let mark = readOverviewRuler(value, at: keyPath, label: label) { style.overviewRuler = mark }
            } else if key == "gutter" {
                if let sign = readGutter(value, at: keyPath, label: label) { style.gutter = sign }
            } else if ConfigKeys.colorStyleKeys.contains(key) {
                guard let text = value.stringValue, let color = RGBAColor(hex: text) else {
                    let found = value.stringValue.map { "\"\($0)\"" } ?? a(value.typeName)
                    let message = "\(label): \"\(key)\" must be a colour \"#rgb\", \"#rgba\", \"#rrggbb\" or \"#rrggbbaa\", not \(found)"
                    report(.error, message, at: origin(ofValueAt: keyPath))
                    continue
                }
                switch key {
                case "color": style.color = color
                case "backgroundColor": style.backgroundColor = color
                default: style.borderColor = color
                }
            } else {
                guard let flag = value.boolValue else {
                    report(.error, "\(label): \"\(key)\" must be true or false, not \(a(value.typeName))", at: origin(ofValueAt: keyPath))
                    continue
                }
                switch key {
                case "bold": style.bold = flag
                case "italic": style.italic = flag
                case "underline": style.underline = flag
                case "strikethrough": style.strikethrough = flag
                case "wholeLine": style.wholeLine = flag
                default: style.rounded = flag
                }
            }
        }
        return style
    }

    /// A colour of a line indicator (`overviewRuler.color`, `gutter.color`), or `nil` after reporting why not.
    private mutating func readMarkColor(_ value: JSON, at path: [JSONPathComponent], label: String, name: String) -> RGBAColor? {
        if let text = value.stringValue, let color = RGBAColor(hex: text) { return color }
        let found = value.stringValue.map { "\"\($0)\"" } ?? a(value.typeName)
        let message = "\(label): \(name) must be a colour \"#rgb\", \"#rgba\", \"#rrggbb\" or \"#rrggbbaa\", not \(found)"
        report(.error, message, at: origin(ofValueAt: path))
        return nil
    }

    /// `overviewRuler`: `true` (the style's colour, centre lane), `false` (none), a colour, or
    /// `{ "color", "lane" }`. Returns `.some(nil)` for none, and `nil` after reporting a bad value.
    private mutating func readOverviewRuler(_ value: JSON, at path: [JSONPathComponent], label: String) -> OverviewRulerMark?? {
        switch value {
        case .bool(let on):
            return .some(on ? OverviewRulerMark() : nil)
        case .string:
            return readMarkColor(value, at: path, label: label, name: "\"overviewRuler\"").map { .some(OverviewRulerMark(color: $0)) }
        case .object(let members):
            var mark = OverviewRulerMark()
            for key in orderedKeys(of: members, at: path) {
                guard let member = members[key] else { continue }
                let memberPath = path + [.key(key)]
                switch key {
                case "color":
                    guard let color = readMarkColor(member, at: memberPath, label: label, name: "\"overviewRuler.color\"") else { return nil }
                    mark.color = color
                case "lane":
                    guard let text = member.stringValue, let lane = OverviewRulerMark.Lane(rawValue: text) else {
                        let lanes = OverviewRulerMark.Lane.allCases.map(\.rawValue)
                        let found = member.stringValue.map { "\"\($0)\"" } ?? a(member.typeName)
                        let suffix = member.stringValue.map { ConfigKeys.suggestionSuffix(for: $0, among: lanes) } ?? ""
                        let message = "\(label): \"overviewRuler.lane\" must be \"left\", \"center\", \"right\" or \"full\", not \(found)\(suffix)"
                        report(.error, message, at: origin(ofValueAt: memberPath))
                        return nil
                    }
                    mark.lane = lane
                default:
                    let suffix = ConfigKeys.suggestionSuffix(for: key, among: ConfigKeys.overviewRuler)
                    report(.warning, "unknown key \"\(key)\" in \"overviewRuler\" of \(label)\(suffix)", at: origin(ofKeyAt: memberPath))
                }
            }
            return .some(mark)
        default:
            let message = "\(label): \"overviewRuler\" must be true, false, a colour or an object with \"color\" and \"lane\", not \(a(value.typeName))"
            report(.error, message, at: origin(ofValueAt: path))
            return nil
        }
    }

    /// `gutter`: `true` (the editor's sign in the style's colour), `false` (none), a sign text,
    /// or `{ "text", "color" }`. Returns `.some(nil)` for none, and `nil` after reporting a bad value.
    private mutating func readGutter(_ value: JSON, at path: [JSONPathComponent], label: String) -> GutterSign?? {
        switch value {
        case .bool(let on):
            return .some(on ? GutterSign() : nil)
        case .string:
            return readSignText(value, at: path, label: label, name: "\"gutter\"").map { .some(GutterSign(text: $0)) }
        case .object(let members):
            var sign = GutterSign()
            for key in orderedKeys(of: members, at: path) {
                guard let member = members[key] else { continue }
                let memberPath = path + [.key(key)]
                switch key {
                case "text":
                    guard let text = readSignText(member, at: memberPath, label: label, name: "\"gutter.text\"") else { return nil }
                    sign.text = text
                case "color":
                    guard let color = readMarkColor(member, at: memberPath, label: label, name: "\"gutter.color\"") else { return nil }
                    sign.color = color
                default:
                    let suffix = ConfigKeys.suggestionSuffix(for: key, among: ConfigKeys.gutter)
                    report(.warning, "unknown key \"\(key)\" in \"gutter\" of \(label)\(suffix)", at: origin(ofKeyAt: memberPath))
                }
            }
            return .some(sign)
        default:
            let message = "\(label): \"gutter\" must be true, false, a sign text or an object with \"text\" and \"color\", not \(a(value.typeName))"
            report(.error, message, at: origin(ofValueAt: path))
            return nil
        }
    }

    /// A gutter sign's text: one or two terminal cells, no control characters; `nil` after reporting why not.
    private mutating func readSignText(_ value: JSON, at path: [JSONPathComponent], label: String, name: String) -> String? {
        guard let text = value.stringValue else {
            report(.error, "\(label): \(name) must be a string of one or two cells, not \(a(value.typeName))", at: origin(ofValueAt: path))
            return nil
        }
        guard let width = GutterSign.cellWidth(of: text) else {
            report(.error, "\(label): \(name) must not hold a line break, tab or other control character", at: origin(ofValueAt: path))
            return nil
        }
        guard (1...GutterSign.maximumCellWidth).contains(width) else {
            let found = width == 0 ? "an empty sign" : "\"\(text)\" (\(width) cells)"
            let message = "\(label): \(name) must be one or two cells wide (a sign column is two cells), not \(found)"
            report(.error, message, at: origin(ofValueAt: path))
            return nil
        }
        return text
    }

    // MARK: Rule

    /// A rule from `rules[index]`, or `nil` (after reporting why) when anything in it is wrong.
    ///
    /// A broken entry that says `"enabled": false` and has a valid name is kept as a switch-off
    /// entry without a pattern, since switching the rule off was its evident purpose.
    mutating func readRule(_ json: JSON, index: Int) -> RuleDefinition? {
        let path: [JSONPathComponent] = [.key("rules"), .index(index)]
        let ruleOrigin = origin(ofValueAt: path)
        guard case .object(let members) = json else {
            report(.error, "rules[\(index)] must be an object, not \(a(json.typeName))", at: ruleOrigin)
            return nil
        }
        var failed = false

        // The name comes first: every later message is labelled with it.
        var name: String?
        var label = "rules[\(index)]"
        switch members["name"] {
        case nil:
            report(.error, "\(label): missing \"name\"", at: ruleOrigin)
            failed = true
        case .string(let text)? where RuleName.isValid(text):
            name = text
            label = "rule \"\(text)\""
        case .string(let text)?:
            let message = "\(label): rule name \"\(text)\" must be a letter followed by letters, digits, \"_\", \".\" or \"-\""
            report(.error, message, at: origin(ofValueAt: path + [.key("name")]))
            failed = true
        case let value?:
            report(.error, "\(label): \"name\" must be a string, not \(a(value.typeName))", at: origin(ofValueAt: path + [.key("name")]))
            failed = true
        }

        for key in orderedKeys(of: members, at: path) where !ConfigKeys.rule.contains(key) {
            let suffix = ConfigKeys.suggestionSuffix(for: key, among: ConfigKeys.rule)
            report(.error, "\(label): unknown key \"\(key)\"\(suffix)", at: origin(ofKeyAt: path + [.key(key)]))
            failed = true
        }

        func flag(_ key: String, default defaultValue: Bool) -> Bool {
            guard let value = members[key] else { return defaultValue }
            if let flag = value.boolValue { return flag }
            report(.error, "\(label): \"\(key)\" must be true or false, not \(a(value.typeName))", at: origin(ofValueAt: path + [.key(key)]))
            failed = true
            return defaultValue
        }
        let enabled = flag("enabled", default: true)
        let caseSensitive = flag("caseSensitive", default: true)
        let wholeWord = flag("wholeWord", default: false)

        var pattern: Rule.Pattern?
        var patternOrigin: ConfigOrigin?
        // Group names and numbers that `groups`, `message` and `link` may refer to; `nil` when unknown.
        var captureNames: [String?]? = [nil]
        var compiledRegex: CompiledRegex?
        switch (members["words"], members["regex"]) {
        case (_?, _?):
            let message = "\(label): has both \"words\" and \"regex\"; a rule uses one of them (split it into two rules)"
            report(.error, message, at: origin(ofKeyAt: path + [.key("regex")]))
            failed = true
        case (nil, nil):
            if enabled {
                report(.error, "\(label): needs \"words\" (a list of literal words) or \"regex\" (a pattern)", at: ruleOrigin)
                failed = true
            }
        case (let value?, nil):
            patternOrigin = origin(ofValueAt: path + [.key("words")])
            if let words = readWords(value, at: path + [.key("words")], label: label) {
                pattern = .words(words)
            } else {
                failed = true
            }
        case (nil, let value?):
            patternOrigin = origin(ofValueAt: path + [.key("regex")])
            if let regex = readRegex(value, at: path + [.key("regex")], label: label, caseSensitive: caseSensitive, wholeWord: wholeWord) {
                pattern = .regex(regex.pattern)
                compiledRegex = regex
                captureNames = regex.captureNames
            } else {
                failed = true
                captureNames = nil
            }
        }

        var style: RuleDefinition.StyleReference?
        var styleOrigin: ConfigOrigin?
        if let value = members["style"] {
            let stylePath = path + [.key("style")]
            styleOrigin = origin(ofValueAt: stylePath)
            switch value {
            case .string(let styleName) where !styleName.isEmpty:
                style = .named(styleName)
            case .object:
                style = readStyle(value, at: stylePath, label: "style of \(label)").map { .inline($0) }
            default:
                let found = value.stringValue != nil ? "an empty string" : a(value.typeName)
                report(.error, "\(label): \"style\" must be a style name or a style object, not \(found)", at: styleOrigin ?? ruleOrigin)
                failed = true
            }
        }

        let details = readRuleDetails(members, at: path, label: label, captureNames: captureNames)
        failed = failed || details.failed
        let applicability = readApplicability(members, at: path, label: label)
        failed = failed || applicability.failed

        guard let name else { return nil }
        if failed {
            guard !enabled else { return nil }
            pattern = nil
        }
        var definition = RuleDefinition(
            name: name, pattern: pattern, caseSensitive: caseSensitive, wholeWord: wholeWord, style: style,
            enabled: enabled)
        definition.origin = ruleOrigin
        definition.patternOrigin = patternOrigin
        definition.compiledRegex = compiledRegex
        definition.styleOrigin = styleOrigin
        definition.groupStyles = details.groupStyles
        definition.severity = details.severity
        definition.message = details.message
        definition.link = details.link
        definition.applicability = applicability.applicability
        return definition
    }

    private mutating func readWords(_ value: JSON, at path: [JSONPathComponent], label: String) -> [String]? {
        guard case .array(let elements) = value else {
            report(.error, "\(label): \"words\" must be an array of strings, not \(a(value.typeName))", at: origin(ofValueAt: path))
            return nil
        }
        guard !elements.isEmpty else {
            report(.error, "\(label): \"words\" must not be empty", at: origin(ofValueAt: path))
            return nil
        }
        var words: [String] = []
        words.reserveCapacity(elements.count)
        var failed = false
        for (index, element) in elements.enumerated() {
            guard let word = element.stringValue, !word.isEmpty else {
                let found = element.stringValue != nil ? "an empty string" : a(element.typeName)
                report(.error, "\(label): words[\(index)] must be a non-empty string, not \(found)", at: origin(ofValueAt: path + [.index(index)]))
                failed = true
                continue
            }
            words.append(word)
        }
        return failed ? nil : words
    }

    private mutating func readRegex(
        _ value: JSON, at path: [JSONPathComponent], label: String, caseSensitive: Bool, wholeWord: Bool
    ) -> CompiledRegex? {
        let valueOrigin = origin(ofValueAt: path)
        guard let pattern = value.stringValue, !pattern.isEmpty else {
            let found = value.stringValue != nil ? "an empty string" : a(value.typeName)
            report(.error, "\(label): \"regex\" must be a non-empty string, not \(found)", at: valueOrigin)
            return nil
        }
        do {
            return try regexTracker.compile(pattern, caseInsensitive: !caseSensitive, wholeWord: wholeWord)
        } catch {
            let errorOrigin = origin(ofDecodedUTF8Offset: error.patternUTF8Offset, inStringAt: valueOrigin)
            switch error.kind {
            case .overBudget:
                // Over budget is not a syntax error: the pattern is valid but costs more than a configuration may.
                report(.error, "\(label): \(error.message)", at: errorOrigin)
            case .syntax:
                report(.error, "\(label): invalid regex: \(error.message) (at offset \(error.patternUTF8Offset))", at: errorOrigin)
            }
            return nil
        }
    }
}

/// The rule-name grammar, `[A-Za-z][A-Za-z0-9_.-]*`, which keeps names usable as LSP semantic token types.
enum RuleName {
    /// The grammar as a JSON Schema `pattern`; the schema test checks that the schema says the same.
    static let schemaPattern = "^[A-Za-z][A-Za-z0-9_.-]*$"

    /// Whether `name` is a letter followed by letters, digits, `_`, `.` or `-` (ASCII only).
    static func isValid(_ name: String) -> Bool {
        var bytes = name.utf8.makeIterator()
        guard let first = bytes.next(), isLetter(first) else { return false }
        while let byte = bytes.next() {
            guard isLetter(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-")
            else { return false }
        }
        return true
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
    }
}

/// `"a string"`, `"an object"`, `"null"`: a type name with its article, for messages.
func a(_ typeName: String) -> String {
    guard typeName != "null" else { return "null" }
    let vowels: Set<Character> = ["a", "e", "i", "o", "u"]
    guard let first = typeName.first, vowels.contains(first) else { return "a " + typeName }
    return "an " + typeName
}

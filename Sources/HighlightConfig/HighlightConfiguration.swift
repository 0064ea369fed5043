import PatternEngine

/// The effective configuration for one workspace folder: the layers combined, styles resolved,
/// and the rule set compiled once.
///
/// Combining, with layers given highest precedence first and the built-in layer after them:
///
/// * `defaults`: the highest layer that sets it decides; when none does, the built-in rules are
///   included. Built-in *styles* are always available, so `"style": "warning"` keeps working.
/// * `rules`: the highest layer's rules come first, in their written order, then each lower
///   layer's rules whose names no higher layer used. A rule with `"enabled": false` takes its
///   name out of every lower layer and adds nothing. Since the engine gives ties between equal
///   matches to the rule listed first, a higher layer also wins ties.
/// * `styles`: merged by name; a style in a higher layer replaces the whole style of that name.
/// * `colors`: the highest layer that sets it decides (default off); when on, the built-in
///   `color` rule comes after every other rule, so a rule named `color` replaces it.
/// * `outline`: the highest layer that sets it decides (default on).
/// * `nestedConfigs`: the highest layer that sets it decides (nil when none does; see `NestedConfigPolicy`).
/// * `dueSoon`: the highest layer that sets it decides (default 14 days).
/// * `languages`: every layer's, a language declared in a higher layer replacing one of the same id below.
///
/// A rule's style is its inline style, else the named style it refers to, else the style named
/// after the rule, else `Style.neutral`.
public struct HighlightConfiguration: Sendable {
    /// The engine rules, in final order.
    @inlinable public var rules: [Rule] { storage.rules }
    /// `styles[i]` is the resolved style of `rules[i]`.
    @inlinable public var styles: [Style] { storage.styles }
    /// Every style by name after merging, built-ins included.
    @inlinable var namedStyles: [String: Style] { storage.namedStyles }
    /// The rules compiled for searching; match rule indices are indices into `rules`.
    @inlinable public var ruleSet: RuleSet { storage.ruleSet }
    /// `details[i]` is what the configuration says about matches of `rules[i]` beyond their style.
    @inlinable public var details: [RuleDetails] { storage.details }
    /// `applicability[i]` says where `rules[i]` applies and whether it is listed or blocking.
    @inlinable public var applicability: [RuleApplicability] { storage.applicability }
    /// The rules' `languages` and `files`, compiled to decide per text which rules apply.
    var filters: RuleFilterSet { storage.filters }
    /// The styled capture groups of every rule, in rule order; `Piece.group(i)` is `groupPieceKinds[i]`.
    @inlinable public var groupPieceKinds: [PieceKind] { storage.groupPieceKinds }
    /// The index of the built-in `color` rule, when `"colors": true` put it in.
    @inlinable public var colorRuleIndex: Int? { storage.colorRuleIndex }
    /// Whether the document outline (`textDocument/documentSymbol`) lists the matches of rules marked `list`.
    @inlinable public var outline: Bool { storage.outline }
    /// What `check` does about a nested `.highlights.json` that narrows a blocking rule of this configuration, when
    /// a layer says (the highest that does); nil when none does.
    @inlinable public var nestedConfigs: NestedConfigPolicy? { storage.nestedConfigs }
    /// How many days before its deadline a marker is due soon: a warning in `check` and in the editor.
    public var dueSoonDays: Int { storage.dueSoonDays }
    /// Whether some rule reads the fields written after its matches (`"fields"`).
    public var readsFields: Bool { storage.applicability.contains { $0.readsFields } }
    /// Problems found while combining: unknown style references, and rules (or words) the engine
    /// could not compile, which never match. Problems inside a layer come from `ConfigLayer.parse`.
    @inlinable public var diagnostics: [ConfigDiagnostic] { storage.diagnostics }

    /// Everything above, in one object that copies share: a configuration is handed to every file a walk scans, and a
    /// copy of a dozen arrays and the rule set would retain each of them, several times a file.
    @usableFromInline
    final class Storage: Sendable {
        @usableFromInline let rules: [Rule]
        @usableFromInline let styles: [Style]
        @usableFromInline let namedStyles: [String: Style]
        @usableFromInline let ruleSet: RuleSet
        @usableFromInline let details: [RuleDetails]
        @usableFromInline let applicability: [RuleApplicability]
        let filters: RuleFilterSet
        @usableFromInline let groupPieceKinds: [PieceKind]
        @usableFromInline let colorRuleIndex: Int?
        @usableFromInline let outline: Bool
        @usableFromInline let nestedConfigs: NestedConfigPolicy?
        let dueSoonDays: Int
        /// The declared languages, highest layer first; of two with one id, the higher layer's.
        let languages: [DeclaredLanguage]
        @usableFromInline let diagnostics: [ConfigDiagnostic]

        init(
            rules: [Rule], styles: [Style], namedStyles: [String: Style], ruleSet: RuleSet, details: [RuleDetails],
            applicability: [RuleApplicability], filters: RuleFilterSet, groupPieceKinds: [PieceKind], colorRuleIndex: Int?,
            outline: Bool, nestedConfigs: NestedConfigPolicy?, dueSoonDays: Int, languages: [DeclaredLanguage],
            diagnostics: [ConfigDiagnostic]
        ) {
            self.rules = rules
            self.styles = styles
            self.namedStyles = namedStyles
            self.ruleSet = ruleSet
            self.details = details
            self.applicability = applicability
            self.filters = filters
            self.groupPieceKinds = groupPieceKinds
            self.colorRuleIndex = colorRuleIndex
            self.outline = outline
            self.nestedConfigs = nestedConfigs
            self.dueSoonDays = dueSoonDays
            self.languages = languages
            self.diagnostics = diagnostics
        }
    }

    @usableFromInline let storage: Storage

    /// The configuration with only the built-in rules and styles.
    public static let builtInOnly = HighlightConfiguration(layers: [])

    /// Combines `layers`, highest precedence first; `ConfigLayer.builtIn` is added by this initialiser.
    ///
    /// - Complexity: O(*r* + *s*) in the number of rules and styles, plus compiling the rule set.
    public init(layers: [ConfigLayer]) {
        let includesBuiltInRules = layers.lazy.compactMap(\.defaults).first ?? true
        var allLayers = layers + [includesBuiltInRules ? ConfigLayer.builtIn : ConfigLayer(styles: ConfigLayer.builtIn.styles)]
        // The colour rule comes last, so that every other rule wins ties and a rule named `color` replaces it.
        if layers.lazy.compactMap(\.colors).first ?? false { allLayers.append(ConfigLayer.colorLiterals) }

        var namedStyles: [String: Style] = [:]
        for layer in allLayers.reversed() {
            namedStyles.merge(layer.styles) { _, higher in higher }
        }

        var usedNames: Set<String> = []
        var definitions: [RuleDefinition] = []
        for layer in allLayers {
            var namesInThisLayer: Set<String> = []
            for definition in layer.rules where !usedNames.contains(definition.name) {
                // Within one layer the first rule of a name wins, as the file loader already ensures.
                guard namesInThisLayer.insert(definition.name).inserted else { continue }
                if definition.enabled, definition.pattern != nil {
                    definitions.append(definition)
                }
            }
            usedNames.formUnion(namesInThisLayer)
        }

        var diagnostics: [ConfigDiagnostic] = []
        var resolvedStyles: [Style] = []
        resolvedStyles.reserveCapacity(definitions.count)
        for definition in definitions {
            switch definition.style {
            case .inline(let style)?:
                resolvedStyles.append(style)
            case .named(let styleName)?:
                if let style = namedStyles[styleName] {
                    resolvedStyles.append(style)
                } else {
                    let suffix = ConfigKeys.suggestionSuffix(for: styleName, among: namedStyles.keys.sorted())
                    let message = "rule \"\(definition.name)\": unknown style \"\(styleName)\"\(suffix); using the neutral highlight"
                    let origin = definition.styleOrigin ?? definition.origin ?? ConfigOrigin(source: "configuration")
                    diagnostics.append(origin.diagnostic(.warning, message))
                    resolvedStyles.append(.neutral)
                }
            case nil:
                resolvedStyles.append(namedStyles[definition.name] ?? .neutral)
            }
        }

        // The engine keeps rule indices stable and leaves out only what failed to compile (a rule,
        // or one word of a rule), so the problems are reported and `rules` stays aligned with `styles`.
        let rules = definitions.compactMap(\.rule)
        let ruleSet = RuleSet(rules: rules, compiled: definitions.map { $0.compiledRegex })
        for error in ruleSet.errors where definitions.indices.contains(error.ruleIndex) {
            let definition = definitions[error.ruleIndex]
            let origin = definition.patternOrigin ?? definition.origin ?? ConfigOrigin(source: "configuration")
            var message = "rule \"\(definition.name)\": \(error.message)"
            // Over budget is not a syntax error: the pattern is valid but costs more than a configuration may.
            if error.kind == .invalidRegex, let patternUTF8Offset = error.patternUTF8Offset, case .regex? = definition.pattern {
                message = "rule \"\(definition.name)\": invalid regex: \(error.message) (at offset \(patternUTF8Offset))"
            }
            if let wordIndex = error.wordIndex { message += " (words[\(wordIndex)])" }
            diagnostics.append(origin.diagnostic(.error, message))
        }

        var resolver = RuleDetailsResolver()
        resolver.resolve(definitions, styles: resolvedStyles, namedStyles: namedStyles)
        diagnostics += resolver.diagnostics

        storage = Storage(
            rules: rules, styles: resolvedStyles, namedStyles: namedStyles, ruleSet: ruleSet, details: resolver.details,
            applicability: definitions.map(\.applicability),
            filters: RuleFilterSet(applicability: definitions.map(\.applicability), rules: rules),
            groupPieceKinds: resolver.groupPieceKinds, colorRuleIndex: definitions.firstIndex { $0.findsColorLiterals },
            outline: layers.lazy.compactMap(\.outline).first ?? true, nestedConfigs: layers.lazy.compactMap(\.nestedConfigs).first,
            dueSoonDays: layers.lazy.compactMap(\.dueSoonDays).first ?? 14, languages: Self.declaredLanguages(of: layers), diagnostics: diagnostics)
    }

    /// The languages `layers` declare, highest first, each id once (the highest layer's).
    private static func declaredLanguages(of layers: [ConfigLayer]) -> [DeclaredLanguage] {
        var seen: Set<String> = []
        return layers.flatMap(\.languages).filter { seen.insert($0.id).inserted }
    }
}

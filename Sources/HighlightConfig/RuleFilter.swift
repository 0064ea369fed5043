import LanguageSyntax
import PatternEngine

/// The compiled `languages` and `files` of every rule of a configuration, to decide per text which rules apply.
struct RuleFilterSet: Sendable {
    /// Per rule: its `files`, nil when the rule has none.
    let globs: [FileGlobs?]
    let applicability: [RuleApplicability]
    /// The filter of every text for each selection (in `RuleSelection.allCases` order) when no rule
    /// has `languages` or `files`, so that scanning many files computes it once.
    private(set) var unrestricted: [RuleFilter]?
    /// Whether some rule has `files`, so that a text's path matters.
    private let hasGlobs: Bool
    /// The rules compiled without those limited by `languages` (each left in its place, never
    /// matching), for texts in a language none of them names: the engine then does not search for
    /// rules that cannot apply (the built-in Markdown `task` regex in every other file). Nil when
    /// no rule has `languages`.
    private let ruleSetForOtherLanguages: RuleSet?

    /// Compiles the `files` globs of each rule, and `rules` (aligned with `applicability`) without
    /// the rules limited by `languages`.
    init(applicability: [RuleApplicability], rules: [Rule] = []) {
        self.applicability = applicability
        hasGlobs = applicability.contains { $0.files != nil }
        if rules.count == applicability.count, applicability.contains(where: { $0.languages != nil }) {
            ruleSetForOtherLanguages = RuleSet(rules: zip(rules, applicability).map { rule, applies in
                applies.languages == nil ? rule : Rule(name: rule.name, pattern: .words([]))
            })
        } else {
            ruleSetForOtherLanguages = nil
        }
        globs = applicability.map { $0.files.map(FileGlobs.init) }
        if !applicability.contains(where: { $0.languages != nil || $0.files != nil }) {
            unrestricted = RuleSelection.allCases.map { filter(for: TextOrigin(relativePath: nil, languageID: nil), selecting: $0) }
        }
    }

    /// Whether any rule is limited to some languages or some kinds of text, so the language matters.
    var dependsOnLanguage: Bool {
        applicability.contains { $0.languages != nil || $0.scopes != .anywhere }
    }

    /// Which rules apply to a text from `origin`, before scopes, among the rules `selection` keeps.
    ///
    /// A rule with `files` applies when the path or one of its parent directories matches an include
    /// glob (or there is none besides exclusions) and none matches an exclude glob. A text without a
    /// path passes every `files` test.
    func filter(for origin: TextOrigin, selecting selection: RuleSelection) -> RuleFilter {
        if let unrestricted, let known = RuleSelection.allCases.firstIndex(of: selection) { return unrestricted[known] }
        let segments = hasGlobs ? origin.relativePath.map(FileGlobs.segments(of:)) : nil
        let languageID = origin.languageID ?? ""
        var enabled = [Bool](repeating: true, count: applicability.count)
        var namedByLanguages = false
        for index in applicability.indices {
            let rule = applicability[index]
            switch selection {
            case .all: break
            case .listed: enabled[index] = rule.list
            case .blocking: enabled[index] = rule.blocking
            case .fieldsOrListed: enabled[index] = rule.readsFields || rule.list
            case .fields: enabled[index] = rule.readsFields
            }
            if rule.languages != nil, rule.appliesToLanguage(languageID) { namedByLanguages = true }
            guard enabled[index] else { continue }
            if !rule.appliesToLanguage(languageID) {
                enabled[index] = false
                continue
            }
            guard let files = globs[index], let segments else { continue }
            enabled[index] = files.matches(segments: segments)
        }
        var filter = RuleFilter(enabled: enabled, scopes: applicability.map(\.scopes))
        if !namedByLanguages { filter.narrowedRuleSet = ruleSetForOtherLanguages }
        return filter
    }
}

/// Which rules apply to one text, and the per-match scope test for the engine.
public struct RuleFilter: Sendable, Equatable {
    /// Per rule: whether its `languages` and `files` (and the selection) let it apply to this text.
    var enabled: [Bool]
    /// Per rule: where in the text it matches.
    public var scopes: [RuleApplicability.Scopes]
    /// The configuration's rules compiled without some rules this filter disables (with the same
    /// rule indices), to search instead of the whole rule set; nil to search the whole set. The
    /// matches are the same either way, since a disabled rule's candidates never compete.
    var narrowedRuleSet: RuleSet?
    /// The comment and string syntax of the text's language (a declared language's, else the
    /// table's), which decides scopes; nil when no syntax is known, and scoped rules match anywhere.
    public internal(set) var syntax: LanguageSyntax?
    /// Whether only candidates a group of fields follows (`MarkerFields.groupOpening`) are accepted: `check`'s search for
    /// deadlines, where a marker without a group of fields (`MarkerFields`) has nothing to say. Rejected before
    /// scopes are looked at, most files need no syntax pass at all.
    public var requiresFieldGroup = false

    /// Filters are equal when they enable and scope the same rules in the same syntax (the narrowed
    /// rule set follows from those).
    public static func == (lhs: RuleFilter, rhs: RuleFilter) -> Bool {
        lhs.enabled == rhs.enabled && lhs.scopes == rhs.scopes && lhs.syntax == rhs.syntax && lhs.requiresFieldGroup == rhs.requiresFieldGroup
    }

    /// Creates a filter from per-rule masks, for a text in `syntax`.
    public init(enabled: [Bool], scopes: [RuleApplicability.Scopes], syntax: LanguageSyntax? = nil) {
        self.enabled = enabled
        self.scopes = scopes
        self.syntax = syntax
    }

    /// Whether some enabled rule is limited to comments, strings or code, so a syntax index may be needed.
    public var needsSyntax: Bool {
        zip(enabled, scopes).contains { $0 && $1 != .anywhere }
    }

    /// Whether no rule applies at all (the text need not be searched).
    public var isEmpty: Bool { !enabled.contains(true) }

    /// Whether the rule of `ruleIndex` is enabled and limited to some scopes.
    public func isScoped(_ ruleIndex: Int) -> Bool {
        enabled.indices.contains(ruleIndex) && enabled[ruleIndex] && scopes[ruleIndex] != .anywhere
    }

    /// The predicate for `RuleSet.matches(in:startingIn:accept:)`, or nil when every candidate is acceptable.
    ///
    /// Without a syntax index (a language not in the table), scoped rules match anywhere.
    func acceptance(syntax: SyntaxIndex?, text: UnsafeBufferPointer<UInt8>) -> RuleSet.MatchFilter? {
        // A search asks for its candidates in order, so their lines are found by walking forward.
        acceptance(scopeOf: needsSyntax ? syntax.map { SyntaxIndex.Cursor($0).scope(ofUTF8Range:) } : nil, text: text)
    }

    /// The predicate for `RuleSet.matches(in:startingIn:accept:)` with the scope of each candidate from `scopeOf`
    /// (nil: scoped rules match anywhere), or nil when every candidate is acceptable.
    func acceptance(scopeOf: ((Range<Int>) -> Scope)?, text: UnsafeBufferPointer<UInt8>) -> RuleSet.MatchFilter? {
        let enabled = enabled
        let scopes = scopes
        let requiresFieldGroup = requiresFieldGroup
        guard enabled.contains(false) || scopeOf != nil || requiresFieldGroup else { return nil }
        return { ruleIndex, utf8Range in
            guard ruleIndex >= 0, ruleIndex < enabled.count, enabled[ruleIndex] else { return false }
            if requiresFieldGroup, MarkerFields.groupOpening(in: text, after: utf8Range.upperBound) == nil { return false }
            let allowed = scopes[ruleIndex]
            guard allowed != .anywhere, let scopeOf else { return true }
            return Self.allows(allowed, scopeOf(utf8Range))
        }
    }

    /// Whether a rule limited to `allowed` matches in text of `scope`.
    static func allows(_ allowed: RuleApplicability.Scopes, _ scope: Scope) -> Bool {
        switch scope {
        case .comment: return allowed.contains(.comments)
        case .string: return allowed.contains(.strings)
        case .code: return allowed.contains(.code)
        }
    }
}

extension RuleFilter {
    /// This filter with only the rules named in `names` left enabled, of `configuration`'s rules.
    func keeping(rulesNamed names: Set<String>, of configuration: HighlightConfiguration) -> RuleFilter {
        var kept = self
        for index in kept.enabled.indices where kept.enabled[index] {
            kept.enabled[index] = configuration.rules.indices.contains(index) && names.contains(configuration.rules[index].name)
        }
        return kept
    }
}

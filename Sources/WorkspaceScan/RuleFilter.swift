import HighlightConfig
import LanguageSyntax
import PatternEngine

/// The compiled `languages` and `files` of every rule of a configuration, to decide per document which rules apply.
public struct RuleFilterSet: Sendable {
    /// Per rule: the include and exclude globs, nil when the rule has no `files`.
    let globs: [(include: [Glob], exclude: [Glob])?]
    let applicability: [RuleApplicability]
    /// The filter of a document when no rule has `languages` or `files`: every rule enabled.
    let unrestricted: RuleFilter?

    /// Compiles the filters of `configuration`'s rules.
    public init(configuration: HighlightConfiguration) {
        applicability = configuration.applicability
        globs = configuration.applicability.map { rule in
            guard let files = rule.files else { return nil }
            var include: [Glob] = []
            var exclude: [Glob] = []
            for pattern in files {
                let negated = pattern.hasPrefix("!")
                let body = negated ? String(pattern.dropFirst()) : pattern
                // A glob without `/` names a file (or directory) at any depth, as in .gitignore.
                let glob = Glob(body.contains("/") ? body : "**/" + body)
                if negated { exclude.append(glob) } else { include.append(glob) }
            }
            return (include, exclude)
        }
        let everyDocument = !applicability.contains { $0.languages != nil || $0.files != nil }
        unrestricted = everyDocument
            ? RuleFilter(enabled: [Bool](repeating: true, count: applicability.count), scopes: applicability.map(\.scopes)) : nil
    }

    /// Whether any rule is limited to some languages or some kinds of text, so the language matters.
    public var dependsOnLanguage: Bool {
        applicability.contains { $0.languages != nil || $0.scopes != .anywhere }
    }

    /// Which rules apply to a document of `languageID` at `relativePath` (relative to its workspace
    /// folder, or absolute outside any folder), before scopes; nil path means "no path filter applies".
    ///
    /// A rule with `files` applies when the path or one of its parent directories matches an include
    /// glob (or there is none besides exclusions) and none matches an exclude glob.
    public func filter(languageID: String, relativePath: String?) -> RuleFilter {
        if let unrestricted { return unrestricted }
        var enabled = [Bool](repeating: true, count: applicability.count)
        let segments = relativePath.map { path in path.split(separator: "/").map { Array($0.unicodeScalars) } }
        for index in applicability.indices {
            if !applicability[index].appliesToLanguage(languageID) {
                enabled[index] = false
                continue
            }
            guard let (include, exclude) = globs[index] else { continue }
            guard let segments else { continue }
            let matches: (Glob) -> Bool = { glob in
                (1...max(segments.count, 1)).contains { glob.matches(segments: Array(segments.prefix($0))) }
            }
            let included = include.isEmpty || include.contains(where: matches)
            enabled[index] = included && !exclude.contains(where: matches)
        }
        return RuleFilter(enabled: enabled, scopes: applicability.map(\.scopes))
    }
}

/// Which rules apply to one document, and the per-match scope test for the engine.
public struct RuleFilter: Sendable, Equatable {
    /// Per rule: whether its `languages` and `files` let it apply to this document.
    public var enabled: [Bool]
    /// Per rule: where in the document it matches.
    public var scopes: [RuleApplicability.Scopes]

    /// Creates a filter from per-rule masks.
    public init(enabled: [Bool], scopes: [RuleApplicability.Scopes]) {
        self.enabled = enabled
        self.scopes = scopes
    }

    /// Only the rules for which `selected` is true stay enabled (the listed rules, the blocking rules).
    public func restricted(to selected: (Int) -> Bool) -> RuleFilter {
        var copy = self
        for index in copy.enabled.indices where !selected(index) { copy.enabled[index] = false }
        return copy
    }

    /// Whether some enabled rule is limited to comments, strings or code, so a syntax index is worth building.
    public var needsSyntax: Bool {
        zip(enabled, scopes).contains { $0 && $1 != .anywhere }
    }

    /// Whether no rule applies at all (the document need not be searched).
    public var isEmpty: Bool { !enabled.contains(true) }

    /// The predicate for `RuleSet.matches(in:startingIn:accept:)`, or nil when every candidate is acceptable.
    ///
    /// Without a syntax index (a language not in the table), scoped rules match anywhere.
    public func acceptance(syntax: SyntaxIndex?) -> RuleSet.MatchFilter? {
        let enabled = enabled
        let scopes = scopes
        let scoped = syntax != nil && needsSyntax
        guard enabled.contains(false) || scoped else { return nil }
        return { ruleIndex, utf8Range in
            guard ruleIndex >= 0, ruleIndex < enabled.count, enabled[ruleIndex] else { return false }
            let allowed = scopes[ruleIndex]
            guard scoped, allowed != .anywhere, let syntax else { return true }
            switch syntax.scope(ofUTF8Range: utf8Range) {
            case .comment: return allowed.contains(.comments)
            case .string: return allowed.contains(.strings)
            case .code: return allowed.contains(.code)
            }
        }
    }
}

import PatternEngine

// The nearest `.highlights.json` governs a file alone: an outer file is not merged into it. So a
// nested file can switch the gate off for its folder simply by leaving a blocking rule out, or by
// repeating it with `"blocking": false`. `check` compares each nested file with the one above it
// (the file that would govern its folder without it) and reports every blocking rule of the outer
// file that the nested one narrows; the outer file's `nestedConfigs` says whether that fails the run.
//
// A nested file narrows a blocking rule R of the file above it when its rule of R's name:
//
//     is missing (left out, "enabled": false, or a built-in name dropped with "defaults": false)
//     is not blocking
//     finds less: not every word of R (words), another regex, words instead of a regex or back
//     matches case where R does not ("caseSensitive": true), or whole words only where R does not
//     has a scope that leaves out one of R's (comments, strings, code)
//     has languages where R has none, or leaves out one of R's
//     has files globs where R has none, or other globs than R's, or R's globs with a `/` in one
//
// The last is strict on purpose: a glob with a `/` matches paths relative to the folder of its file,
// so the same text means other files in the nested folder; a glob without one (`*.swift`) matches
// names at any depth and means the same there. A narrowing that is in fact harmless (R's globs
// never reach the nested folder) is reported too: the nested file can repeat R as it is, or the
// outer file can say "report".

/// What `check` does about a nested `.highlights.json` that switches off or narrows a blocking rule of
/// the configuration above it (`"nestedConfigs"` in that configuration).
public enum NestedConfigPolicy: String, Sendable, Hashable, CaseIterable {
    /// A warning that names both files and the rule; the run does not fail because of it.
    case report
    /// The warning, and the run fails (exit 2). The default when no configuration above says: a gate fails closed.
    case forbid

    /// The policy that holds below a chain of configurations, innermost first, given what each says (nil: nothing):
    /// `forbid` when any says `forbid` or none says anything, since a nested file may not loosen what a file above it
    /// forbids.
    public static func inForce(_ chain: [NestedConfigPolicy?]) -> NestedConfigPolicy {
        chain.contains(.forbid) || !chain.contains(.report) ? .forbid : .report
    }
}

/// How a nested configuration narrows one blocking rule of the configuration above it.
public struct RuleNarrowing: Sendable, Hashable {
    /// What changed.
    public enum Change: Sendable, Hashable {
        /// No rule of that name: left out, turned off, or a built-in dropped with `"defaults": false`.
        case removed
        /// The rule is not blocking.
        case notBlocking
        /// Words of the outer rule that the nested one does not look for.
        case droppedWords([String])
        /// Another regex, or words instead of a regex or a regex instead of words.
        case otherPattern
        /// It matches case where the outer rule does not.
        case matchesCase
        /// It matches whole words only where the outer rule does not.
        case wholeWordsOnly
        /// Its scope leaves out part of the outer rule's.
        case narrowerScope
        /// Its languages leave out some the outer rule applies to.
        case fewerLanguages
        /// Its files globs are not the outer rule's, or mean other files in the nested folder.
        case otherFiles
    }

    /// The name of the outer configuration's blocking rule.
    public var ruleName: String
    public var change: Change

    /// What the nested configuration does to the rule, as a phrase after "it" ("makes it not blocking").
    public var description: String {
        switch change {
        case .removed: "has no rule of that name (left out, \"enabled\": false, or \"defaults\": false), so its files are not checked for it"
        case .notBlocking: "makes it not blocking"
        case .droppedWords(let words): "drops the words " + words.map { "\"\($0)\"" }.joined(separator: ", ")
        case .otherPattern: "gives it another pattern"
        case .matchesCase: "makes it match case (\"caseSensitive\": true)"
        case .wholeWordsOnly: "makes it match whole words only (\"wholeWord\": true)"
        case .narrowerScope: "limits its scope"
        case .fewerLanguages: "limits its languages"
        case .otherFiles:
            "limits its files (\"files\" other than the rule above's, or with a `/`, which matches from the nested file's folder)"
        }
    }
}

extension HighlightConfiguration {
    /// The blocking rules of `outer` that this configuration, the nearest one for a folder below `outer`'s, switches
    /// off or narrows (see the definition above), one narrowing per rule (the first found), in `outer`'s rule order.
    ///
    /// - Complexity: O(*r* + *w*) in the rules and their words of both configurations.
    public func narrowings(ofBlockingRulesOf outer: HighlightConfiguration) -> [RuleNarrowing] {
        var byName: [String: Int] = [:]
        for (index, rule) in rules.enumerated() where byName[rule.name] == nil { byName[rule.name] = index }
        var found: [RuleNarrowing] = []
        for (index, rule) in outer.rules.enumerated()
        where outer.applicability.indices.contains(index) && outer.applicability[index].blocking {
            let change: RuleNarrowing.Change?
            if let own = byName[rule.name], applicability.indices.contains(own) {
                change = Self.narrowing(of: rule, outer.applicability[index], by: rules[own], applicability[own])
            } else {
                change = .removed
            }
            if let change { found.append(RuleNarrowing(ruleName: rule.name, change: change)) }
        }
        return found
    }

    /// How `inner` (with `innerApplicability`) narrows the blocking `outer`, or nil when it finds at least as much.
    private static func narrowing(
        of outer: Rule, _ outerApplicability: RuleApplicability, by inner: Rule, _ innerApplicability: RuleApplicability
    ) -> RuleNarrowing.Change? {
        guard innerApplicability.blocking else { return .notBlocking }
        switch (outer.pattern, inner.pattern) {
        case (.words(let outerWords), .words(let innerWords)):
            let kept = Set(innerWords)
            let dropped = outerWords.filter { !kept.contains($0) }
            if !dropped.isEmpty { return .droppedWords(dropped) }
        case (.regex(let outerRegex), .regex(let innerRegex)):
            if outerRegex != innerRegex { return .otherPattern }
        case (.words, .regex), (.regex, .words):
            return .otherPattern
        }
        if inner.caseSensitive, !outer.caseSensitive { return .matchesCase }
        if inner.wholeWord, !outer.wholeWord { return .wholeWordsOnly }
        if !innerApplicability.scopes.isSuperset(of: outerApplicability.scopes) { return .narrowerScope }
        if let innerLanguages = innerApplicability.languages {
            guard let outerLanguages = outerApplicability.languages, Set(innerLanguages).isSuperset(of: outerLanguages) else {
                return .fewerLanguages
            }
        }
        if let innerFiles = innerApplicability.files {
            guard innerFiles == outerApplicability.files, !innerFiles.contains(where: { $0.contains("/") }) else { return .otherFiles }
        }
        return nil
    }
}

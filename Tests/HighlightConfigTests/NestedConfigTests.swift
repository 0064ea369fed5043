import Testing

@testable import HighlightConfig

/// What a nested `.highlights.json` does to the blocking rules of the file above it, and who decides about it.
@Suite struct NestedConfigTests {
    static func configuration(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> HighlightConfiguration {
        HighlightConfiguration(layers: [Support.layer(text, sourceLocation: sourceLocation)])
    }

    static let outer = #"""
        { "rules": [
          { "name": "dnm", "words": ["DO NOT MERGE", "NOMERGE"], "caseSensitive": false, "scope": ["comments", "strings"],
            "languages": ["python", "go"], "files": ["*.py", "*.go"], "blocking": true },
          { "name": "wip", "regex": "WIP-[0-9]+", "blocking": true },
          { "name": "ticket", "regex": "[A-Z]+-[0-9]+" },
        ] }
        """#

    /// (the nested file, what it narrows: rule name and change)
    static let cases: [(String, [String])] = [
        (outer, []),
        (#"{ "defaults": false, "rules": [ { "name": "wip", "regex": "WIP-[0-9]+", "blocking": true, "wholeWord": false },"#
            + #" { "name": "dnm", "words": ["NOMERGE", "DO NOT MERGE", "X"], "caseSensitive": false, "blocking": true } ] }"#, []),
        (#"{ "rules": [] }"#, ["dnm: removed", "wip: removed"]),
        (#"{ "rules": [ { "name": "dnm", "enabled": false }, { "name": "wip", "regex": "WIP-[0-9]+" } ] }"#, ["dnm: removed", "wip: notBlocking"]),
        (#"{ "rules": [ { "name": "dnm", "words": ["DO NOT MERGE"], "caseSensitive": false, "blocking": true },"#
            + #" { "name": "wip", "words": ["WIP-1"], "blocking": true } ] }"#, [#"dnm: droppedWords(["NOMERGE"])"#, "wip: otherPattern"]),
        (#"{ "rules": [ { "name": "dnm", "words": ["DO NOT MERGE", "NOMERGE"], "blocking": true },"#
            + #" { "name": "wip", "regex": "WIP-[0-9]+", "wholeWord": true, "blocking": true } ] }"#, ["dnm: matchesCase", "wip: wholeWordsOnly"]),
        (#"{ "rules": [ { "name": "dnm", "words": ["DO NOT MERGE", "NOMERGE"], "caseSensitive": false, "scope": "comments", "blocking": true },"#
            + #" { "name": "wip", "regex": "WIP-[0-9]+", "languages": ["go"], "blocking": true } ] }"#, ["dnm: narrowerScope", "wip: fewerLanguages"]),
        (#"{ "rules": [ { "name": "dnm", "words": ["DO NOT MERGE", "NOMERGE"], "caseSensitive": false, "languages": ["python"], "blocking": true },"#
            + #" { "name": "wip", "regex": "WIP-[0-9]+", "files": ["*.go"], "blocking": true } ] }"#, ["dnm: fewerLanguages", "wip: otherFiles"]),
        // The same `files` globs mean the same only without a `/`: `src/**` in a nested file is another folder.
        (#"{ "rules": [ { "name": "dnm", "words": ["DO NOT MERGE", "NOMERGE"], "caseSensitive": false, "files": ["*.py", "*.go"], "blocking": true },"#
            + #" { "name": "wip", "regex": "WIP-[0-9]+", "blocking": true } ] }"#, []),
        // A rule that was not blocking above is the nested file's to change.
        (#"{ "rules": [ { "name": "dnm", "words": ["DO NOT MERGE", "NOMERGE"], "caseSensitive": false, "blocking": true },"#
            + #" { "name": "wip", "regex": "WIP-[0-9]+", "blocking": true }, { "name": "ticket", "enabled": false } ] }"#, []),
    ]

    @Test(arguments: cases)
    func whatANestedFileNarrows(nested: String, expected: [String]) {
        let found = Self.configuration(nested).narrowings(ofBlockingRulesOf: Self.configuration(Self.outer))
        #expect(found.map { "\($0.ruleName): \($0.change)" } == expected)
    }

    @Test func globsWithASlashAreNeverTheSame() {
        let outer = Self.configuration(#"{ "rules": [ { "name": "dnm", "words": ["X"], "files": ["src/**"], "blocking": true } ] }"#)
        let nested = Self.configuration(#"{ "rules": [ { "name": "dnm", "words": ["X"], "files": ["src/**"], "blocking": true } ] }"#)
        #expect(nested.narrowings(ofBlockingRulesOf: outer).map(\.change) == [.otherFiles])
    }

    /// (what each file says, innermost first; the policy in force): `forbid` unless some file says `report` and none `forbid`.
    static let chains: [([NestedConfigPolicy?], NestedConfigPolicy)] = [
        ([nil], .forbid), ([.report], .report), ([nil, .report], .report), ([.report, .forbid], .forbid),
        ([.forbid, .report], .forbid), ([nil, nil], .forbid),
    ]

    @Test(arguments: chains)
    func theStrictestSettingHolds(chain: [NestedConfigPolicy?], inForce: NestedConfigPolicy) {
        #expect(NestedConfigPolicy.inForce(chain) == inForce)
    }

    @Test func theSettingIsReadAndCheckedLikeEveryKey() {
        #expect(Self.configuration(#"{ "nestedConfigs": "report" }"#).nestedConfigs == .report)
        #expect(Self.configuration("{}").nestedConfigs == nil)
        let (_, diagnostics) = Support.parseFile(#"{ "nestedConfigs": "forbidden" }"#)
        Support.checkDiagnostics(diagnostics, [#".highlights.json:1:20: "nestedConfigs" must be "report" or "forbid", not "forbidden" (did you mean "forbid"?)"#])
    }
}

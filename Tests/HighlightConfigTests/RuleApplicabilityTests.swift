import Testing

@testable import HighlightConfig

/// `scope`, `languages`, `files`, `list` and `blocking`: what loads, what is refused, and the defaults.
@Suite struct RuleApplicabilityTests {
    @Test func keysLoad() throws {
        let layer = Support.layer("""
            { "rules": [
              { "name": "a", "words": ["A"], "scope": "comments", "languages": ["Swift", "rust"], "files": ["src/**", "!**/*.min.js"],
                "list": true, "blocking": true },
              { "name": "b", "words": ["B"], "scope": ["comments", "strings"] },
              { "name": "c", "words": ["C"], "scope": "anywhere" },
            ] }
            """)
        let a = try #require(layer.rules.first).applicability
        #expect(a.scopes == .comments)
        #expect(a.languages == ["swift", "rust"])
        #expect(a.files == ["src/**", "!**/*.min.js"])
        #expect(a.list && a.blocking)
        #expect(a.appliesToLanguage("SWIFT") && !a.appliesToLanguage("go"))
        #expect(layer.rules[1].applicability.scopes == [.comments, .strings])
        #expect(layer.rules[2].applicability == RuleApplicability())
    }

    @Test func mistakesDropTheRule() {
        let table: [(String, String)] = [
            (#""scope": "comment""#, #"rule "a": "scope" must be "comments", "strings", "code" or "anywhere", or a list of them, not "comment" (did you mean "comments"?)"#),
            (#""scope": []"#, #"rule "a": "scope" must be "comments", "strings", "code" or "anywhere", or a list of them, not an empty array"#),
            (#""languages": "swift""#, #"rule "a": "languages" must be a non-empty array of language ids, not "swift""#),
            (#""files": ["src/**", ""]"#, #"rule "a": files[1] must be a non-empty string, not an empty string"#),
            (#""list": "yes""#, #"rule "a": "list" must be true or false, not a string"#),
            (#""blocking": 1"#, #"rule "a": "blocking" must be true or false, not a number"#),
        ]
        for (member, message) in table {
            let (layer, diagnostics) = Support.parseFile(#"{ "rules": [ { "name": "a", "words": ["A"], "# + member + " } ] }")
            #expect(layer?.rules.isEmpty == true, "\(member)")
            #expect(diagnostics.map(\.message) == [message], "\(member)")
        }
    }

    @Test func builtInWorkItemsAreListed() {
        let configuration = HighlightConfiguration(layers: [])
        let listed = zip(configuration.rules, configuration.applicability).filter { $0.1.list }.map { $0.0.name }
        #expect(listed == ["fixme", "todo", "hack", "task"])
        #expect(configuration.applicability.count == configuration.rules.count)
        #expect(!configuration.applicability.contains { $0.blocking })
    }
}

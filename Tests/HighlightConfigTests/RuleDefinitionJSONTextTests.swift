import Testing

@testable import HighlightConfig

/// `RuleDefinition.jsonText`: a rule written back as one line of the file reads back as the same rule, and is written
/// as a person would write it (keys in the schema's order, defaults left out).
@Suite struct RuleDefinitionJSONTextTests {
    @Test(arguments: [
        #"{ "name": "todo", "words": ["TODO"] }"#,
        #"{ "name": "todo", "words": ["TODO", "FIXME"], "caseSensitive": false, "wholeWord": true, "scope": "comments", "list": true }"#,
        #"{ "name": "ticket", "regex": "\\b[A-Z]{2,}-[0-9]+\\b", "style": "info", "severity": "warning", "message": "ticket $0", "link": "https://tracker.test/$0" }"#,
        #"{ "name": "dnm", "words": ["DO \"NOT\" MERGE"], "scope": ["comments", "strings"], "languages": ["python", "go"], "files": ["src/**", "!src/gen/**"], "blocking": true }"#,
        #"{ "name": "note", "enabled": false }"#,
    ])
    func aRuleReadsBackAsItself(line: String) throws {
        let layer = Support.layer(#"{ "rules": [ "# + line + " ] }")
        let rule = try #require(layer.rules.first)
        #expect(rule.jsonText == line)
    }

    /// What one line of keys cannot say is refused rather than left out.
    @Test func aStyleWrittenInlineIsNotWritten() throws {
        let layer = Support.layer(#"{ "rules": [ { "name": "x", "words": ["X"], "style": { "bold": true } } ] }"#)
        #expect(try #require(layer.rules.first).jsonText == nil)
    }
}

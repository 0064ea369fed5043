import Testing

@testable import HighlightConfig

/// Where the built-in rules match with no configuration: comments and documentation in the
/// languages of the scope table, anywhere in Markdown, plain text and unknown languages; and the
/// Markdown task items. Each case is a language, a text and the matches as `rule text`, in order.
@Suite struct BuiltInRulesTests {
    /// The matches of `configuration` in `text`, as `rule text`.
    static func matches(_ languageID: String?, _ text: String, configuration: HighlightConfiguration = .builtInOnly) -> [String] {
        let bytes = Array(text.utf8)
        let list = bytes.withUnsafeBufferPointer { buffer in
            configuration.matches(in: buffer, origin: TextOrigin(relativePath: nil, languageID: languageID))
        }
        return list.matches.map { match in
            configuration.rules[match.ruleIndex].name + " " + String(decoding: bytes[match.utf8Range], as: UTF8.self)
        }
    }

    @Test(arguments: [
        // Code is never matched: log levels, the kernel's BUG(), enum cases.
        ("python", "level = logging.INFO  # TODO: read it from the environment\n", ["todo TODO"]),
        ("python", "INFO = 2\nif level not in (DEBUG, INFO):\n    log.log(INFO, msg)  # XXX\n", ["fixme XXX"]),
        ("c", "BUG();\n/* BUG: x */ int INFO = 1; // XXX\n", ["fixme BUG", "fixme XXX"]),
        ("java", "log(Level.INFO); // NOTE\n/** DEPRECATED: use g */\n", ["note NOTE", "deprecated DEPRECATED"]),
        ("rust", "let l = tracing::Level::INFO; /// REVIEW this\n", ["review REVIEW"]),
        // String literals are values of the program.
        ("python", "names = {'INFO': 20, \"NOTE\": 1}\nx = f\"TODO {y}\"\n", []),
        ("c", "puts(\"TODO\"); char c = 'X'; // HACK\n", ["hack HACK"]),
        ("swift", "let s = \"TODO in a string\" // TODO: fix\n", ["todo TODO"]),
    ] as [(String, String, [String])])
    func staysOutOfCode(_ languageID: String, _ text: String, _ expected: [String]) {
        #expect(Self.matches(languageID, text) == expected, "\(languageID): \(text.debugDescription)")
    }

    @Test(arguments: [
        // Python docstrings: a string alone on its line, with or without a prefix, single or triple quoted.
        ("python", "def f():\n    \"\"\"FIXME: the summary.\n\n    NOTE more lines.\n    \"\"\"\n", ["fixme FIXME", "note NOTE"]),
        ("python", "class C:\n    r'''TODO raw'''\n    x = 1\n    \"HACK attribute docstring\"  # REVIEW\n",
         ["todo TODO", "hack HACK", "review REVIEW"]),
        ("python", "x = \"\"\"TODO assigned\"\"\"\ncall(\n    'XXX',\n    \"NOTE\": 1,\n)\n", []),
        // The test is the line: a string alone on a continuation line counts as a docstring.
        ("python", "call(\n    \"TODO\"\n)\n", ["todo TODO"]),
        // Elixir's documentation attributes, Julia docstrings, GraphQL descriptions.
        ("elixir", "@moduledoc \"\"\"\nTODO: docs\n\"\"\"\n@doc \"NOTE\"\nx = \"FIXME\"\n", ["todo TODO", "note NOTE"]),
        ("julia", "\"\"\"\n    f(x) HACK\n\"\"\"\nf(x) = \"XXX\"\n", ["hack HACK"]),
        ("graphql", "\"\"\"TODO describe\"\"\"\ntype Q { a: String @deprecated(reason: \"BUG\") }\n", ["todo TODO"]),
    ] as [(String, String, [String])])
    func matchesInDocumentation(_ languageID: String, _ text: String, _ expected: [String]) {
        #expect(Self.matches(languageID, text) == expected, "\(languageID): \(text.debugDescription)")
    }

    @Test(arguments: [
        // Markdown is prose: everywhere, fences and HTML comments included.
        ("markdown", "# TODO title\nSome NOTE text <!-- FIXME -->\n```\nHACK in a fence\n```\n",
         ["todo TODO", "note NOTE", "fixme FIXME", "hack HACK"]),
        // Plain text and languages without a table entry have no scopes.
        ("plaintext", "x = INFO\n", ["note INFO"]),
        ("restructuredtext", "level = INFO\n", ["note INFO"]),
    ] as [(String, String, [String])])
    func matchesAnywhereInProse(_ languageID: String, _ text: String, _ expected: [String]) {
        #expect(Self.matches(languageID, text) == expected, "\(languageID): \(text.debugDescription)")
    }

    @Test func unknownLanguageMatchesAnywhere() {
        #expect(Self.matches(nil, "level = INFO # TODO\n") == ["note INFO", "todo TODO"])
    }

    @Test(arguments: [
        ("markdown", "- [ ] one\n* [ ] two\n  + [ ] nested\n1. [ ] ordered\n2) [ ] also\n",
         ["task - [ ]", "task * [ ]", "task   + [ ]", "task 1. [ ]", "task 2) [ ]"]),
        // Done items, boxes not at an item's start, and the syntax written in prose are no tasks.
        ("markdown", "- [x] done\n- [X] done\nSee `- [ ]` in prose.\n-[ ] no space\n- [] no box\n", []),
        // A TODO in a task item is matched too: both are listed.
        ("markdown", "- [ ] TODO: ship it\n", ["task - [ ]", "todo TODO"]),
        // Markdown only.
        ("python", "# - [ ] not a Markdown file\n", []),
        ("plaintext", "- [ ] not a Markdown file\n", []),
    ] as [(String, String, [String])])
    func markdownTaskItems(_ languageID: String, _ text: String, _ expected: [String]) {
        #expect(Self.matches(languageID, text) == expected, "\(languageID): \(text.debugDescription)")
    }

    @Test func taskItemsAndWorkItemsAreListed() {
        let configuration = HighlightConfiguration.builtInOnly
        let listed = zip(configuration.rules, configuration.applicability).filter { $0.1.list }.map { $0.0.name }
        #expect(listed == ["fixme", "todo", "hack", "task"])
        for (rule, applicability) in zip(configuration.rules, configuration.applicability) {
            if rule.name == "task" {
                #expect(applicability.scopes == .anywhere)
                #expect(applicability.languages == ["markdown"])
            } else {
                #expect(applicability.scopes == .comments, "\(rule.name)")
                #expect(applicability.languages == nil, "\(rule.name)")
            }
        }
    }

    /// A rule of the same name with its own `scope` widens or narrows a built-in rule.
    @Test func sameNameRuleChangesTheScope() {
        let widened = HighlightConfiguration(layers: [Support.layer(#"""
            { "rules": [ { "name": "note", "words": ["NOTE", "INFO"], "wholeWord": true, "scope": "anywhere" },
                         { "name": "todo", "words": ["TODO"], "wholeWord": true, "scope": ["comments", "strings"], "list": true } ] }
            """#)])
        let text = "level = logging.INFO  # NOTE\nx = 'TODO'\n"
        #expect(Self.matches("python", text, configuration: widened) == ["note INFO", "note NOTE", "todo TODO"])
        #expect(Self.matches("python", text) == ["note NOTE"])

        let narrowed = HighlightConfiguration(layers: [Support.layer(#"""
            { "rules": [ { "name": "todo", "words": ["TODO"], "wholeWord": true, "scope": "comments", "languages": ["python"] } ] }
            """#)])
        #expect(Self.matches("markdown", "TODO in prose\n", configuration: narrowed) == [])
        #expect(Self.matches("python", "# TODO\n", configuration: narrowed) == ["todo TODO"])
    }
}

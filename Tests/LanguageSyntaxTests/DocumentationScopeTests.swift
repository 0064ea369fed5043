import Testing
@testable import LanguageSyntax

/// Documentation is in comment scope: docstrings (a string alone on its line) and the documentation
/// attributes of the languages that have them, and all of the text of Markdown.
@Suite struct DocumentationScopeTests {
    typealias Expected = LanguageSyntaxTests.Expected

    func check(_ languageID: String, _ text: String, _ expected: [Expected], sourceLocation: SourceLocation = #_sourceLocation) {
        let actual = LanguageSyntaxTests.regions(languageID, text)
        #expect(actual == expected, "\(languageID): \(text.debugDescription)", sourceLocation: sourceLocation)
    }

    @Test func pythonDocStrings() {
        check("python", "def f():\n    \"\"\"Doc\n    more\"\"\"\n", [.c("\"\"\"Doc"), .c("    more\"\"\"")])
        check("python", "    r'''raw'''  # c\n", [.c("'''raw'''"), .c("# c")])
        check("python", "\"one line\"\n'also'   \n", [.c("\"one line\""), .c("'also'")])
        // Not alone on the line: a value.
        check("python", "x = \"\"\"a\"\"\"\n", [.s("\"\"\"a\"\"\"")])
        check("python", "    'key': 1,\n    \"item\",\n", [.s("'key'"), .s("\"item\"")])
        check("python", "\"a\" \"b\"\n", [.s("\"a\""), .s("\"b\"")])
        check("python", "rb'x' + y\n", [.s("'x'")])
        check("python", "xr'x'\n", [.s("'x'")])
        // An escaped quote does not close the docstring early; an unclosed one runs on (a docstring).
        check("python", "\"a \\\" b\"\n'''open\n", [.c("\"a \\\" b\""), .c("'''open")])
    }

    @Test func otherDocumentation() {
        check("elixir", "@moduledoc \"\"\"\nText\n\"\"\"\n@doc ~S\"\"\"\nx\n\"\"\"\n@doc \"one\"\nx = \"s\"",
              [.c("@moduledoc \"\"\""), .c("Text"), .c("\"\"\""), .c("@doc ~S\"\"\""), .c("x"), .c("\"\"\""), .c("@doc \"one\""), .s("\"s\"")])
        check("julia", "\"\"\"\n    f(x)\n\"\"\"\nf(x) = \"s\"", [.c("\"\"\""), .c("    f(x)"), .c("\"\"\""), .s("\"s\"")])
        check("graphql", "\"Describes Q\"\ntype Q { a(x: String = \"d\"): Int }", [.c("\"Describes Q\""), .s("\"d\"")])
    }

    @Test func markdownTextIsDocumentation() throws {
        let syntax = try #require(LanguageSyntax.forLanguageID("markdown"))
        #expect(syntax.textScope == .comment)
        let text = Array("Text <!-- c -->\n```\ncode\n```\n".utf8)
        let index = SyntaxIndex(syntax: syntax, text: text)
        #expect((0..<text.count).allSatisfy { index.scope(atUTF8Offset: $0) == .comment })
        #expect(LanguageSyntax.forLanguageID("html")?.textScope == .code)
        #expect(LanguageSyntax.forLanguageID("python")?.textScope == .code)
    }
}

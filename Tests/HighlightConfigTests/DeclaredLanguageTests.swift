import LanguageSyntax
import Testing

@testable import HighlightConfig

/// Languages a configuration declares: how they are read, which texts are in them, and that scoped
/// rules follow their comments and strings. Vim script, Ada and Nix are not in the built-in table.
@Suite struct DeclaredLanguageTests {
    static let file = #"""
        {
          "defaults": false,
          "languages": {
            "vim": { "files": ["*.vim", ".vimrc"], "lineComments": ["\""], "strings": ["'"] },
            "ada": { "files": ["*.adb", "*.ads", "!generated/**"], "lineComments": ["--"], "strings": ["\""] },
            "nix": { "lineComments": ["#"], "blockComments": [["/*", "*/"]], "strings": ["\"", "''"] },
          },
          "rules": [
            { "name": "todo", "words": ["TODO"], "scope": "comments" },
            { "name": "ada-only", "words": ["pragma"], "languages": ["ada"] },
          ],
        }
        """#

    /// (relative path, the client's language id, the text, the matches as `rule@offset`)
    static let cases: [(path: String?, languageID: String?, text: String, expected: [String])] = [
        ("plugin.vim", "vim", "\" TODO map\nlet s = 'TODO'\n", ["todo@2"]),
        ("plugin.vim", nil, "\" TODO map\nlet s = 'TODO'\n", ["todo@2"]),
        ("src/.vimrc", "plaintext", "let s = 'TODO' \" TODO\n", ["todo@17"]),
        ("main.adb", nil, "-- TODO\nPut (\"TODO\"); pragma Inline;\n", ["todo@3", "ada-only@22"]),
        // Excluded by `!generated/**`: no language, so no scopes, and `languages: ["ada"]` does not apply.
        ("generated/main.adb", nil, "-- TODO\nPut (\"TODO\"); pragma\n", ["todo@3", "todo@14"]),
        // By the client's id alone: `nix` has no `files`.
        ("default.nix", "nix", "# TODO\nx = ''TODO''; /* TODO */ y = \"TODO\";\n", ["todo@2", "todo@24"]),
        ("default.nix", nil, "# TODO\nx = ''TODO'';\n", ["todo@2", "todo@13"]),
    ]

    @Test(arguments: cases.indices)
    func scopesFollowTheDeclaredSyntax(_ index: Int) {
        let (path, languageID, text, expected) = Self.cases[index]
        let configuration = HighlightConfiguration(layers: [Support.layer(Self.file)])
        let bytes = Array(text.utf8)
        let list = bytes.withUnsafeBufferPointer {
            configuration.matches(in: $0, origin: TextOrigin(relativePath: path, languageID: languageID))
        }
        let found = list.matches.map { "\(configuration.rules[$0.ruleIndex].name)@\($0.utf8Range.lowerBound)" }
        #expect(found == expected, "\(path ?? "-") as \(languageID ?? "-")")
    }

    @Test func aHigherLayerReplacesALanguageOfTheSameIDAndTheFilesWin() {
        let lower = Support.layer(#"{ "languages": { "vim": { "files": ["*.vim"], "lineComments": ["\""] } } }"#)
        let higher = Support.layer(##"{ "languages": { "VIM": { "files": ["*.vimscript"], "lineComments": ["#"] } } }"##)
        let configuration = HighlightConfiguration(layers: [higher, lower])
        #expect(configuration.resolvingDeclaredLanguage(of: TextOrigin(relativePath: "a.vim", languageID: "plaintext")).languageID == "plaintext")
        #expect(configuration.resolvingDeclaredLanguage(of: TextOrigin(relativePath: "a.vimscript", languageID: nil)).languageID == "vim")
        #expect(configuration.ruleFilter(for: TextOrigin(relativePath: nil, languageID: "vim")).syntax
                == LanguageSyntax.declared(languageID: "vim", lineComments: ["#"], blockComments: [], strings: []))
        #expect(configuration.dependsOnPath)
        #expect(!HighlightConfiguration(layers: []).dependsOnPath)
    }

    /// (the `languages` value, the message expected)
    static let errors: [(json: String, message: String)] = [
        (#"[]"#, #""languages" must be an object of languages by id, not an array"#),
        (#"{ "x": 3 }"#, #"language "x" must be an object, not a number"#),
        (#"{ "x": { "files": ["*.x"] } }"#, #"language "x" needs "lineComments", "blockComments" or "strings""#),
        (#"{ "x": { "lineComments": [] } }"#, #"language "x": "lineComments" must be a non-empty array of comment leaders, not an empty array"#),
        (#"{ "x": { "blockComments": [["/*"]] } }"#, #"language "x": blockComments[0] must be a pair of non-empty strings, [open, close]"#),
        (#"{ "x": { "lineComments": ["«"] } }"#, #"language "x": "«" is not ASCII; comment and string delimiters are ASCII"#),
        (##"{ "x": { "lineComments": ["#"], "lineComment": ["//"] } }"##, #"language "x": unknown key "lineComment" (did you mean "lineComments"?)"#),
    ]

    @Test(arguments: errors.indices)
    func mistakesAreReportedWhereTheyAre(_ index: Int) {
        let (json, message) = Self.errors[index]
        let (layer, diagnostics) = Support.parseFile(#"{ "languages": "# + json + " }")
        #expect(diagnostics.map(\.message).contains(message), "\(diagnostics)")
        #expect(diagnostics.allSatisfy { $0.line != nil })
        if diagnostics.contains(where: { $0.severity == .error }) { #expect(layer?.languages.isEmpty ?? true) }
    }
}

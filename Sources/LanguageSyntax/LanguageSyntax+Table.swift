// The table of languages: comment and string openers per LSP language id, and
// the file extensions the command line maps to those ids. docs/CONFIGURATION.md lists the
// languages and what each entry does not handle.

extension LanguageSyntax {
    /// The syntax for an LSP language id (case-insensitive), or nil for a language not in the table.
    public static func forLanguageID(_ languageID: String) -> LanguageSyntax? {
        byLanguageID[languageID.lowercased()]
    }

    /// Every language in the table.
    static let all: [LanguageSyntax] = table

    static let byLanguageID: [String: LanguageSyntax] = {
        var map: [String: LanguageSyntax] = [:]
        for syntax in table {
            for id in syntax.languageIDs where map[id] == nil { map[id] = syntax }
        }
        return map
    }()

    // MARK: Building blocks

    private static let slashComments: [Opener] = [
        Opener("//", .lineComment),
        Opener("/*", .blockComment(close: "*/", nests: false)),
    ]
    private static let nestedSlashComments: [Opener] = [
        Opener("//", .lineComment),
        Opener("/*", .blockComment(close: "*/", nests: true)),
    ]
    private static let backslash = UInt8(ascii: "\\")

    private static func quoted(_ quote: String, escape: UInt8? = UInt8(ascii: "\\"), multiline: Bool = false,
                               _ condition: Condition = .anywhere) -> Opener {
        Opener(quote, .string(close: quote, escape: escape, multiline: multiline), condition)
    }

    /// A character literal: `'` that closes within a few bytes, so that `'a` (a lifetime, a type variable) is code.
    private static let characterLiteral = Opener("'", .characterLiteral(escape: UInt8(ascii: "\\")), .notAfterWordCharacter)

    private static let cStrings: [Opener] = [quoted("\""), characterLiteral]
    private static let htmlComment = Opener("<!--", .blockComment(close: "-->", nests: false))

    /// Docstrings: a string that stands alone on its line (after a prefix such as `r` or `u`) is a
    /// statement of its own, as module, class, function and attribute docstrings are. The test is
    /// the line, not the statement, so a multi-line string that starts a continuation line inside
    /// brackets counts too; docs/CONFIGURATION.md says so.
    private static func docStrings(quotes: [String], prefixLetters: String = "") -> [Opener] {
        let standalone = Condition.standaloneString(prefixLetters: Array(prefixLetters.utf8))
        return quotes.map { quote in
            Opener(quote, .string(close: quote, escape: backslash, multiline: quote.count == 3), standalone, documentation: true)
        }
    }
    private static let pythonDocStrings = docStrings(quotes: ["\"\"\"", "'''", "\"", "'"], prefixLetters: "rRuUbBfF")

    /// Elixir's documentation attributes: `@moduledoc`, `@doc` and `@typedoc` with a string or heredoc.
    private static let elixirDocAttributes: [Opener] = ["moduledoc", "doc", "typedoc"].flatMap { attribute in
        [("\"\"\"", "\"\"\""), ("~S\"\"\"", "\"\"\""), ("~s\"\"\"", "\"\"\""), ("\"", "\"")].map { open, close in
            Opener("@\(attribute) \(open)", .string(close: close, escape: backslash, multiline: true), documentation: true)
        }
    }
    private static let hashComment = Opener("#", .lineComment)

    // MARK: The table

    static let table: [LanguageSyntax] = [
        LanguageSyntax(languageIDs: ["c", "objective-c", "cuda", "hlsl", "glsl"], openers: slashComments + cStrings),
        LanguageSyntax(
            languageIDs: ["cpp", "objective-cpp", "cuda-cpp"],
            openers: slashComments + [
                Opener("R\"", .cppRawString, .notAfterWordCharacter), Opener("u8R\"", .cppRawString, .notAfterWordCharacter),
                Opener("LR\"", .cppRawString, .notAfterWordCharacter), Opener("uR\"", .cppRawString, .notAfterWordCharacter),
                Opener("UR\"", .cppRawString, .notAfterWordCharacter),
            ] + cStrings),
        LanguageSyntax(
            languageIDs: ["csharp"],
            openers: slashComments + [
                quoted("\"\"\"", escape: nil, multiline: true),
                // `@"` closes with a lone `"`; a doubled `""` closes and reopens at once, which keeps the scope.
                Opener("@\"", .string(close: "\"", escape: nil, multiline: true)),
            ] + cStrings),
        LanguageSyntax(languageIDs: ["java"], openers: slashComments + [quoted("\"\"\"", multiline: true)] + cStrings),
        LanguageSyntax(
            languageIDs: ["javascript", "javascriptreact", "typescript", "typescriptreact", "json5"],
            openers: slashComments + [quoted("\""), quoted("'"), quoted("`", multiline: true)]),
        LanguageSyntax(languageIDs: ["jsonc"], openers: slashComments + [quoted("\"")]),
        LanguageSyntax(languageIDs: ["json"], openers: [quoted("\"")]),
        LanguageSyntax(languageIDs: ["go"], openers: slashComments + [quoted("\""), quoted("`", escape: nil, multiline: true), characterLiteral]),
        LanguageSyntax(
            languageIDs: ["rust"],
            openers: nestedSlashComments + [
                Opener("br", .hashedRawString, .notAfterWordCharacter), Opener("r", .hashedRawString, .notAfterWordCharacter),
                quoted("\"", multiline: true), characterLiteral,
            ]),
        LanguageSyntax(
            languageIDs: ["swift"],
            openers: nestedSlashComments + [
                Opener("#", .swiftRawString), quoted("\"\"\"", multiline: true), quoted("\""),
            ]),
        LanguageSyntax(
            languageIDs: ["kotlin", "scala"],
            openers: nestedSlashComments + [quoted("\"\"\"", escape: nil, multiline: true)] + cStrings),
        LanguageSyntax(
            languageIDs: ["groovy", "solidity", "proto", "proto3", "protobuf"],
            openers: slashComments + [
                quoted("\"\"\"", multiline: true), quoted("'''", multiline: true), quoted("\""), quoted("'"),
            ]),
        LanguageSyntax(languageIDs: ["hcl", "terraform"], openers: [hashComment] + slashComments + [quoted("\"")]),
        LanguageSyntax(
            languageIDs: ["dart"],
            openers: nestedSlashComments + [
                Opener("r'''", .string(close: "'''", escape: nil, multiline: true), .notAfterWordCharacter),
                Opener("r\"\"\"", .string(close: "\"\"\"", escape: nil, multiline: true), .notAfterWordCharacter),
                Opener("r'", .string(close: "'", escape: nil, multiline: false), .notAfterWordCharacter),
                Opener("r\"", .string(close: "\"", escape: nil, multiline: false), .notAfterWordCharacter),
                quoted("'''", multiline: true), quoted("\"\"\"", multiline: true), quoted("'"), quoted("\""),
            ]),
        LanguageSyntax(
            languageIDs: ["php"],
            openers: slashComments + [hashComment, quoted("'", multiline: true), quoted("\"", multiline: true)]),
        LanguageSyntax(
            languageIDs: ["python"],
            openers: [hashComment] + pythonDocStrings + [
                quoted("'''", multiline: true), quoted("\"\"\"", multiline: true), quoted("'"), quoted("\""),
            ]),
        LanguageSyntax(
            languageIDs: ["ruby"],
            openers: [
                Opener("=begin", .blockComment(close: "=end", nests: false), .lineStart), hashComment,
                quoted("'", multiline: true), quoted("\"", multiline: true), quoted("`", multiline: true),
            ]),
        LanguageSyntax(
            languageIDs: ["perl", "perl6", "raku"],
            openers: [
                Opener("=pod", .blockComment(close: "=cut", nests: false), .lineStart),
                Opener("=head", .blockComment(close: "=cut", nests: false), .lineStart),
                hashComment, quoted("'", multiline: true), quoted("\"", multiline: true),
            ]),
        LanguageSyntax(
            languageIDs: ["lua"],
            openers: [
                Opener("--", .longBracket(.comment)), Opener("--", .lineComment), Opener("[", .longBracket(.string)),
                quoted("\""), quoted("'"),
            ]),
        LanguageSyntax(
            languageIDs: ["shellscript", "sh", "bash", "zsh", "fish"],
            openers: [
                Opener("#", .lineComment, .afterSpace), quoted("'", escape: nil, multiline: true), quoted("\"", multiline: true),
            ],
            codeEscape: backslash),
        LanguageSyntax(
            languageIDs: ["powershell"],
            openers: [
                Opener("<#", .blockComment(close: "#>", nests: false)), hashComment,
                quoted("'", escape: nil, multiline: true), quoted("\"", escape: UInt8(ascii: "`"), multiline: true),
            ]),
        LanguageSyntax(
            languageIDs: ["sql", "plsql", "mysql", "postgres", "pgsql"],
            openers: [
                Opener("--", .lineComment), Opener("/*", .blockComment(close: "*/", nests: false)),
                quoted("'", escape: nil, multiline: true),
            ]),
        LanguageSyntax(
            languageIDs: ["html", "xml", "xsl", "svg", "vue", "svelte", "astro", "razor", "django-html"],
            openers: [htmlComment]),
        // Markdown is prose: all of its text is documentation, in comment scope like its `<!-- -->`.
        LanguageSyntax(languageIDs: ["markdown"], openers: [htmlComment], textScope: .comment),
        LanguageSyntax(languageIDs: ["css"], openers: [Opener("/*", .blockComment(close: "*/", nests: false)), quoted("\""), quoted("'")]),
        LanguageSyntax(languageIDs: ["scss", "less", "sass"], openers: slashComments + [quoted("\""), quoted("'")]),
        LanguageSyntax(
            languageIDs: ["haskell", "purescript", "elm"],
            openers: [
                Opener("{-", .blockComment(close: "-}", nests: true)), Opener("--", .lineComment), quoted("\""), characterLiteral,
            ]),
        LanguageSyntax(
            languageIDs: ["ocaml", "reason", "coq"],
            openers: [
                Opener("(*", .blockComment(close: "*)", nests: true)), Opener("{|", .string(close: "|}", escape: nil, multiline: true)),
                quoted("\"", multiline: true), characterLiteral,
            ]),
        LanguageSyntax(
            languageIDs: ["fsharp"],
            openers: [
                Opener("//", .lineComment), Opener("(*)", .lineComment), Opener("(*", .blockComment(close: "*)", nests: true)),
                quoted("\"\"\"", escape: nil, multiline: true),
                Opener("@\"", .string(close: "\"", escape: nil, multiline: true)), quoted("\"", multiline: true), characterLiteral,
            ]),
        LanguageSyntax(
            languageIDs: ["elixir"],
            openers: elixirDocAttributes + [
                hashComment, quoted("\"\"\"", multiline: true), quoted("'''", multiline: true),
                quoted("\"", multiline: true), quoted("'", multiline: true),
            ]),
        LanguageSyntax(languageIDs: ["erlang"], openers: [Opener("%", .lineComment), quoted("\"", multiline: true)]),
        LanguageSyntax(
            languageIDs: ["clojure", "scheme", "racket", "lisp", "commonlisp", "elisp", "emacs-lisp"],
            openers: [Opener("#|", .blockComment(close: "|#", nests: true)), Opener(";", .lineComment), quoted("\"", multiline: true)]),
        LanguageSyntax(languageIDs: ["r"], openers: [hashComment, quoted("\"", multiline: true), quoted("'", multiline: true)]),
        LanguageSyntax(
            languageIDs: ["julia"],
            openers: [
                Opener("#=", .blockComment(close: "=#", nests: true)), hashComment,
            ] + docStrings(quotes: ["\"\"\"", "\""]) + [
                quoted("\"\"\"", multiline: true), quoted("\"", multiline: true), characterLiteral,
            ]),
        LanguageSyntax(
            languageIDs: ["yaml", "dockercompose"],
            openers: [
                Opener("#", .lineComment, .afterSpace),
                quoted("\"", multiline: false, .notAfterWordCharacter),
                Opener("'", .string(close: "'", escape: nil, multiline: false), .notAfterWordCharacter),
            ]),
        LanguageSyntax(
            languageIDs: ["toml"],
            openers: [
                hashComment, quoted("\"\"\"", multiline: true), quoted("'''", escape: nil, multiline: true),
                quoted("\""), quoted("'", escape: nil),
            ]),
        LanguageSyntax(
            languageIDs: ["ini", "properties", "gitconfig", "editorconfig"],
            openers: [Opener(";", .lineComment, .lineStart), Opener("#", .lineComment, .lineStart)]),
        LanguageSyntax(languageIDs: ["makefile", "cmake", "dockerfile", "gitignore", "ignore", "nix-shell"], openers: [Opener("#", .lineComment, .afterSpace), quoted("\""), quoted("'", escape: nil, .afterSpace)], codeEscape: backslash),
        LanguageSyntax(languageIDs: ["vb", "vba", "vbscript"], openers: [Opener("'", .lineComment), quoted("\"", escape: nil)]),
        LanguageSyntax(
            languageIDs: ["zig"],
            openers: [Opener("//", .lineComment), Opener("\\\\", .lineString), quoted("\""), characterLiteral]),
        LanguageSyntax(languageIDs: ["latex", "tex", "bibtex", "context"], openers: [Opener("%", .lineComment)], codeEscape: backslash),
        LanguageSyntax(
            languageIDs: ["graphql"],
            // Descriptions are strings that stand alone before what they describe.
            openers: [hashComment] + docStrings(quotes: ["\"\"\"", "\""]) + [quoted("\"\"\"", multiline: true), quoted("\"")]),
        LanguageSyntax(
            languageIDs: ["coffeescript"],
            openers: [
                Opener("###", .blockComment(close: "###", nests: false)), hashComment,
                quoted("\"\"\"", multiline: true), quoted("'''", multiline: true), quoted("\"", multiline: true), quoted("'", multiline: true),
            ]),
        LanguageSyntax(
            languageIDs: ["d"],
            openers: slashComments + [Opener("/+", .blockComment(close: "+/", nests: true)), quoted("`", escape: nil, multiline: true),
                                      quoted("\"", multiline: true), characterLiteral]),
        LanguageSyntax(
            languageIDs: ["nim"],
            openers: [Opener("#[", .blockComment(close: "]#", nests: true)), hashComment, quoted("\"\"\"", escape: nil, multiline: true), quoted("\"")]),
        LanguageSyntax(languageIDs: ["fortran", "fortran-modern", "fortran_free-form"], openers: [Opener("!", .lineComment), quoted("\"", escape: nil), quoted("'", escape: nil)]),
        LanguageSyntax(
            languageIDs: ["pascal", "objectpascal", "delphi"],
            openers: [Opener("//", .lineComment), Opener("(*", .blockComment(close: "*)", nests: false)),
                      Opener("{", .blockComment(close: "}", nests: false)), quoted("'", escape: nil)]),
        LanguageSyntax(
            languageIDs: ["matlab", "octave"],
            openers: [Opener("%{", .blockComment(close: "%}", nests: false), .lineStart), Opener("%", .lineComment), quoted("\"")]),
    ]
}

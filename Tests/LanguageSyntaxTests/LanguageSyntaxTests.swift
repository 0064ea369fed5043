import Testing
@testable import LanguageSyntax

/// Per language, tricky texts and the comment (`c`) and string (`s`) regions expected in them, in order.
@Suite struct LanguageSyntaxTests {
    /// One expected region: its scope and its exact text.
    enum Expected: Equatable, CustomStringConvertible {
        case c(String)
        case s(String)
        var description: String {
            switch self {
            case .c(let text): return "comment \(text.debugDescription)"
            case .s(let text): return "string \(text.debugDescription)"
            }
        }
    }

    static func regions(_ languageID: String, _ text: String) -> [Expected]? {
        guard let syntax = LanguageSyntax.forLanguageID(languageID) else { return nil }
        let bytes = Array(text.utf8)
        let index = SyntaxIndex(syntax: syntax, text: bytes)
        return index.regions.map { region in
            let piece = String(decoding: bytes[region.utf8Range], as: UTF8.self)
            return region.scope == .comment ? .c(piece) : .s(piece)
        }
    }

    func check(_ languageID: String, _ text: String, _ expected: [Expected], sourceLocation: SourceLocation = #_sourceLocation) {
        let actual = Self.regions(languageID, text)
        #expect(actual == expected, "\(languageID): \(text.debugDescription)", sourceLocation: sourceLocation)
    }

    @Test func cFamily() {
        check("c", "int a = 1; // TODO x\n/* multi\nline */ b", [.c("// TODO x"), .c("/* multi"), .c("line */")])
        check("c", #"puts("// not a comment"); // yes"#, [.s(#""// not a comment""#), .c("// yes")])
        check("c", #"x = "esc \" quote" + 'a' + '\''; /* c */"#, [.s(#""esc \" quote""#), .s("'a'"), .s(#"'\''"#), .c("/* c */")])
        check("c", "/* /* not nested */ code */", [.c("/* /* not nested */")])
        check("c", "s = \"unterminated\nnext // c", [.s("\"unterminated"), .c("// c")])
        check("c", "s = \"continued \\\nline\" // c", [.s("\"continued \\"), .s("line\""), .c("// c")])
        check("cpp", #"auto r = R"xy(a )" b // no)xy"; // yes"#, [.s(#"R"xy(a )" b // no)xy""#), .c("// yes")])
        check("cpp", "auto r = R\"(multi\nline)\"; // c", [.s("R\"(multi"), .s("line)\""), .c("// c")])
        check("cpp", #"FOOR"x" // c"#, [.s(#""x""#), .c("// c")])
        check("java", "String s = \"\"\"\n  text // no\n  \"\"\"; // yes", [.s("\"\"\""), .s("  text // no"), .s("  \"\"\""), .c("// yes")])
        check("csharp", #"var p = @"C:\dir\" + "a\"b"; // c"#, [.s(#"@"C:\dir\""#), .s(#""a\"b""#), .c("// c")])
    }

    @Test func scriptLanguages() {
        check("javascript", "const t = `line ${x}\n// inside`; // out", [.s("`line ${x}"), .s("// inside`"), .c("// out")])
        check("typescript", #"let a = 'it\'s' /* c */"#, [.s(#"'it\'s'"#), .c("/* c */")])
        check("python", "s = '''a\n# not\n''' # yes", [.s("'''a"), .s("# not"), .s("'''"), .c("# yes")])
        check("python", #"x = "a # b" # c"#, [.s(#""a # b""#), .c("# c")])
        check("ruby", "=begin\nTODO doc\n=end\nx = 1 # c", [.c("=begin"), .c("TODO doc"), .c("=end"), .c("# c")])
        check("ruby", "x = 2 =begin", [])
        check("lua", "--[==[ long\n]] still ]==] x -- c", [.c("--[==[ long"), .c("]] still ]==]"), .c("-- c")])
        check("lua", "s = [[a -- b]] -- c", [.s("[[a -- b]]"), .c("-- c")])
        check("lua", "t[1] = 2 -- c", [.c("-- c")])
        check("shellscript", "echo $# ${#x} a#b # real", [.c("# real")])
        check("shellscript", ##"echo 'a # b' "c \" # d" \# e # f"##, [.s("'a # b'"), .s(#""c \" # d""#), .c("# f")])
        check("powershell", "<# block\n#> $a = 'x' # c", [.c("<# block"), .c("#>"), .s("'x'"), .c("# c")])
        check("perl", "=pod\nTODO\n=cut\nmy $x; # c", [.c("=pod"), .c("TODO"), .c("=cut"), .c("# c")])
        check("php", "$a = 'x'; # one\n// two\n/* three */", [.s("'x'"), .c("# one"), .c("// two"), .c("/* three */")])
    }

    @Test func systemsLanguages() {
        check("rust", "/* a /* nested */ still */ x", [.c("/* a /* nested */ still */")])
        check("rust", ##"let s = r#"a "quote" // no"#; // yes"##, [.s(##"r#"a "quote" // no"#"##), .c("// yes")])
        check("rust", #"let b = br"raw\"; let c = 'x'; // c"#, [.s(#"br"raw\""#), .s("'x'"), .c("// c")])
        check("rust", "fn f<'a>(x: &'a str) -> char { '\\'' } // c", [.s("'\\''"), .c("// c")])
        check("rust", "let s = \"multi\nline\"; // c", [.s("\"multi"), .s("line\""), .c("// c")])
        check("rust", "for r in x { } // c", [.c("// c")])
        check("rust", "let c = '🔥'; let u = '\\u{1F525}'; // c", [.s("'🔥'"), .s("'\\u{1F525}'"), .c("// c")])
        check("swift", ##"let s = #"a "b" \(no)"# // c"##, [.s(##"#"a "b" \(no)"#"##), .c("// c")])
        check("swift", "let s = \"\"\"\n  // not\n  \"\"\" /* a /* b */ */", [.s("\"\"\""), .s("  // not"), .s("  \"\"\""), .c("/* a /* b */ */")])
        check("swift", "#if DEBUG // c", [.c("// c")])
        check("go", "s := `raw \\` // c", [.s("`raw \\`"), .c("// c")])
        check("zig", "const s =\n    \\\\ line // no\n; // c", [.s("\\\\ line // no"), .c("// c")])
        check("d", "/+ a /+ b +/ c +/ x", [.c("/+ a /+ b +/ c +/")])
        check("kotlin", "val s = \"\"\"a\\\"\"\" // c", [.s("\"\"\"a\\\"\"\""), .c("// c")])
    }

    @Test func functionalLanguages() {
        check("haskell", "f x' = x' {- a {- b -} c -} -- d", [.c("{- a {- b -} c -}"), .c("-- d")])
        check("ocaml", "let f 'a = (* a (* b *) c *) {|raw \"|}", [.c("(* a (* b *) c *)"), .s("{|raw \"|}")])
        check("ocaml", "let c = '\\n' and d = 'x' (* e *)", [.s("'\\n'"), .s("'x'"), .c("(* e *)")])
        check("fsharp", "let x = 1 (*) not a block\n(* block *)", [.c("(*) not a block"), .c("(* block *)")])
        check("elixir", "x = \"\"\"\n# no\n\"\"\" # yes", [.s("\"\"\""), .s("# no"), .s("\"\"\""), .c("# yes")])
        check("erlang", "X = \"a % b\", % c", [.s("\"a % b\""), .c("% c")])
        check("clojure", "(def x \"; no\") ; yes #| a |#", [.s("\"; no\""), .c("; yes #| a |#")])
        check("julia", "#= a #= b =# c =# x # d", [.c("#= a #= b =# c =#"), .c("# d")])
        check("scheme", "#| a #| b |# c |# x", [.c("#| a #| b |# c |#")])
    }

    @Test func dataAndMarkupLanguages() {
        check("html", "<p title=\"it's\">a</p><!-- TODO\nmore -->", [.c("<!-- TODO"), .c("more -->")])
        check("markdown", "Don't <!-- hidden --> it's", [.c("<!-- hidden -->")])
        check("yaml", "key: it's fine # c\nurl: http://x#y", [.c("# c")])
        check("yaml", "a: 'q # no' # yes", [.s("'q # no'"), .c("# yes")])
        check("toml", "a = '''x\n# no\n''' # yes", [.s("'''x"), .s("# no"), .s("'''"), .c("# yes")])
        check("sql", "SELECT 'it''s -- no' -- yes\n/* b */", [.s("'it'"), .s("'s -- no'"), .c("-- yes"), .c("/* b */")])
        check("css", "a { content: \"/* no */\" } /* yes */", [.s("\"/* no */\""), .c("/* yes */")])
        check("scss", "$x: 1; // c", [.c("// c")])
        check("ini", "; c\nkey = a ; not", [.c("; c")])
        check("latex", "50\\% off % c", [.c("% c")])
        check("jsonc", "{\"a//\": 1 // c\n}", [.s("\"a//\""), .c("// c")])
        check("json", "{\"a\": \"// no\"}", [.s("\"a\""), .s("\"// no\"")])
        check("dockerfile", "RUN echo a#b # no\n# yes", [.c("# no"), .c("# yes")])
        check("makefile", "x := $(y) # c", [.c("# c")])
    }

    @Test func unknownLanguagesHaveNoSyntax() {
        #expect(LanguageSyntax.forLanguageID("plaintext") == nil)
        #expect(LanguageSyntax.forLanguageID("no-such-language") == nil)
        #expect(LanguageSyntax.forLanguageID("Rust") != nil)
    }

    @Test func atLeastThirtyLanguages() {
        #expect(LanguageSyntax.all.count >= 30)
        let ids = LanguageSyntax.all.flatMap(\.languageIDs)
        #expect(Set(ids).count == ids.count, "a language id is listed twice")
    }

    @Test func fileNamesMapToLanguageIDs() {
        let table: [(String, String?)] = [
            ("src/main.rs", "rust"), ("a/b/File.SWIFT", "swift"), ("Makefile", "makefile"), ("x/Dockerfile.dev", "dockerfile"),
            ("app.tsx", "typescriptreact"), ("README.md", "markdown"), ("notes", nil), (".bashrc", "shellscript"),
            ("archive.tar.gz", nil), ("x.h", "c"), ("x.hpp", "cpp"), ("config.yml", "yaml"), (".hidden", nil),
        ]
        for (name, expected) in table {
            #expect(LanguageSyntax.languageID(forFileName: name) == expected, "\(name)")
        }
        // Every id the extension table produces is either in the syntax table or deliberately plain.
        let plain: Set<String> = ["plaintext", "log"]
        for id in Set(LanguageSyntax.languageIDByExtension.values) where !plain.contains(id) {
            #expect(LanguageSyntax.forLanguageID(id) != nil, "no syntax for \(id)")
        }
    }

    /// The byte-level answer for ASCII names equals the general one, for every name and extension of
    /// the tables in three spellings, in folders, and for names the tables do not hold.
    @Test func asciiFileNamesAgreeWithTheGeneralLookup() {
        var names = ["", "/", "a/", ".", "..", "a.", ".b", "x/.c", "dockerfile", "DockerFile.prod", "x/dockerfilex.y",
                     "a/very-long-file-name-with-no-dot", "Dockerfile-with-a-long-suffix.txt", "a.b.c.PY", "ns/.highlights.json"]
        for key in LanguageSyntax.languageIDByFileName.keys {
            names += [key, key.uppercased(), "dir/sub/" + key, "dir/" + key.prefix(1).uppercased() + key.dropFirst(), "x" + key]
        }
        for key in LanguageSyntax.languageIDByExtension.keys {
            names += ["f." + key, "f." + key.uppercased(), "d.x/f." + key, "." + key, "f" + key]
        }
        for name in names {
            #expect(LanguageSyntax.asciiLanguageID(forFileName: name) == .some(LanguageSyntax.unicodeLanguageID(forFileName: name)), "\(name)")
        }
        #expect(LanguageSyntax.asciiLanguageID(forFileName: "café.py") == nil, "not ASCII: the general path decides")
        #expect(LanguageSyntax.languageID(forFileName: "café.py") == "python")
    }

    @Test func scopeOfOffsets() throws {
        let syntax = try #require(LanguageSyntax.forLanguageID("c"))
        let text = Array("a /* b */ \"c\"\r\nd // e".utf8)
        let index = SyntaxIndex(syntax: syntax, text: text)
        let scopes = (0..<text.count).map { index.scope(atUTF8Offset: $0) }
        let letters = scopes.map { $0 == .code ? "." : $0 == .comment ? "c" : "s" }.joined()
        #expect(letters == "..ccccccc.sss.." + "..cccc")
        #expect(index.lineStarts.values == [0, 15])
    }
}

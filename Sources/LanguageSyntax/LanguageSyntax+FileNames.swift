extension LanguageSyntax {
    /// The LSP language id for a file, from its name or extension (case-insensitive), as an editor would
    /// pick it; nil when the name says nothing. The command line and the workspace scan use it.
    public static func languageID(forFileName fileName: String) -> String? {
        if let known = asciiLanguageID(forFileName: fileName) { return known }
        return unicodeLanguageID(forFileName: fileName)
    }

    /// `languageID(forFileName:)` for any name, lowercased as Unicode lowercases it.
    static func unicodeLanguageID(forFileName fileName: String) -> String? {
        let name = (fileName.lastIndex(of: "/").map { String(fileName[fileName.index(after: $0)...]) } ?? fileName).lowercased()
        if let id = languageIDByFileName[name] { return id }
        if name.hasPrefix("dockerfile") { return "dockerfile" }
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
        return languageIDByExtension[String(name[name.index(after: dot)...])]
    }

    /// The answer of `languageID(forFileName:)` for an ASCII file name, from its bytes (a scan for
    /// the last `/` and `.`, and one or two lookups of strings short enough to need no allocation);
    /// nil when the name is not ASCII, whose lowercasing is Unicode's.
    static func asciiLanguageID(forFileName fileName: String) -> String?? {
        var fileName = fileName
        return fileName.withUTF8 { bytes -> String?? in
            var start = bytes.count
            while start > 0, bytes[start - 1] != UInt8(ascii: "/") { start -= 1 }
            var dot: Int?
            for index in start..<bytes.count {
                let byte = bytes[index]
                guard byte < 0x80 else { return nil }
                if byte == UInt8(ascii: ".") { dot = index }
            }
            let name = UnsafeBufferPointer(rebasing: bytes[start...])
            func lowercased(_ part: UnsafeBufferPointer<UInt8>) -> String {
                String(unsafeUninitializedCapacity: part.count) { out in
                    for (index, byte) in part.enumerated() {
                        out[index] = byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
                    }
                    return part.count
                }
            }
            if name.count <= longestFileName {
                let lowered = lowercased(name)
                if let id = languageIDByFileName[lowered] { return id }
                if lowered.hasPrefix("dockerfile") { return "dockerfile" }
            } else if lowercased(UnsafeBufferPointer(rebasing: name.prefix(10))) == "dockerfile" {
                return "dockerfile"
            }
            guard let dot, dot != start else { return .some(nil) }
            return languageIDByExtension[lowercased(UnsafeBufferPointer(rebasing: bytes[(dot + 1)...]))]
        }
    }

    /// The length in bytes of the longest name in `languageIDByFileName`.
    static let longestFileName = languageIDByFileName.keys.map(\.utf8.count).max() ?? 0

    /// Whole file names (lowercased) with a language of their own.
    static let languageIDByFileName: [String: String] = [
        "makefile": "makefile", "gnumakefile": "makefile", "cmakelists.txt": "cmake", "dockerfile": "dockerfile",
        "containerfile": "dockerfile", ".gitignore": "ignore", ".ignore": "ignore", ".dockerignore": "ignore",
        ".gitconfig": "gitconfig", ".editorconfig": "editorconfig", ".bashrc": "shellscript", ".zshrc": "shellscript",
        ".profile": "shellscript", "gemfile": "ruby", "rakefile": "ruby", "podfile": "ruby", "vagrantfile": "ruby",
        "jenkinsfile": "groovy", ".highlights.json": "jsonc",
    ]

    /// Extensions (lowercased, without the dot) and their language ids.
    static let languageIDByExtension: [String: String] = [
        "c": "c", "h": "c", "cc": "cpp", "cpp": "cpp", "cxx": "cpp", "c++": "cpp", "hh": "cpp", "hpp": "cpp", "hxx": "cpp",
        "ipp": "cpp", "inl": "cpp", "m": "objective-c", "mm": "objective-cpp", "cu": "cuda-cpp", "cuh": "cuda-cpp",
        "cs": "csharp", "csx": "csharp", "java": "java", "js": "javascript", "mjs": "javascript", "cjs": "javascript",
        "jsx": "javascriptreact", "ts": "typescript", "mts": "typescript", "cts": "typescript", "tsx": "typescriptreact",
        "json": "json", "jsonc": "jsonc", "json5": "json5", "go": "go", "rs": "rust", "swift": "swift", "kt": "kotlin",
        "kts": "kotlin", "scala": "scala", "sc": "scala", "sbt": "scala", "groovy": "groovy", "gradle": "groovy",
        "sol": "solidity", "proto": "proto", "tf": "terraform", "tfvars": "terraform", "hcl": "hcl", "dart": "dart",
        "php": "php", "py": "python", "pyi": "python", "pyw": "python", "rb": "ruby", "rake": "ruby", "gemspec": "ruby",
        "pl": "perl", "pm": "perl", "t": "perl", "raku": "raku", "lua": "lua", "sh": "shellscript", "bash": "shellscript",
        "zsh": "shellscript", "ksh": "shellscript", "fish": "fish", "ps1": "powershell", "psm1": "powershell",
        "psd1": "powershell", "sql": "sql", "html": "html", "htm": "html", "xhtml": "html", "xml": "xml", "xsd": "xml",
        "xsl": "xsl", "xslt": "xsl", "svg": "xml", "plist": "xml", "csproj": "xml", "md": "markdown",
        "markdown": "markdown", "vue": "vue", "svelte": "svelte", "astro": "astro", "css": "css", "scss": "scss",
        "sass": "sass", "less": "less", "hs": "haskell", "lhs": "haskell", "purs": "purescript", "elm": "elm",
        "ml": "ocaml", "mli": "ocaml", "re": "reason", "fs": "fsharp", "fsi": "fsharp", "fsx": "fsharp", "ex": "elixir",
        "exs": "elixir", "erl": "erlang", "hrl": "erlang", "clj": "clojure", "cljs": "clojure", "cljc": "clojure",
        "edn": "clojure", "scm": "scheme", "ss": "scheme", "rkt": "racket", "lisp": "lisp", "lsp": "lisp", "cl": "lisp",
        "el": "elisp", "r": "r", "jl": "julia", "yaml": "yaml", "yml": "yaml", "toml": "toml", "ini": "ini",
        "cfg": "ini", "conf": "ini", "properties": "properties", "mk": "makefile", "cmake": "cmake",
        "dockerfile": "dockerfile", "vb": "vb", "bas": "vb", "vbs": "vbscript", "zig": "zig", "tex": "latex",
        "sty": "latex", "cls": "latex", "bib": "bibtex", "graphql": "graphql", "gql": "graphql",
        "coffee": "coffeescript", "d": "d", "nim": "nim", "f90": "fortran-modern", "f95": "fortran-modern",
        "f03": "fortran-modern", "f": "fortran", "for": "fortran", "pas": "pascal", "pp": "pascal", "dpr": "pascal",
        "glsl": "glsl", "vert": "glsl", "frag": "glsl", "hlsl": "hlsl", "txt": "plaintext", "log": "log",
    ]
}

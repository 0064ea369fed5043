// What a language's comments and strings look like, as a table of openers.
//
// This is not a parser: each language is described by the delimiters that
// open a comment or a string, tried in table order at every position of code
// (so longer openers are listed first: `"""` before `"`, `--[[` before `--`).
// What opens decides how the region closes:
//
//     line comment     //  #  --  ;  %        to the end of the line
//     block comment    /* */  (* *)  {- -}    optionally nested
//     string           "  '  `  """           closing delimiter, an escape byte, one line or many
//     raw string       r#"…"#  #"…"#  R"d(…)d"  [==[…]==]   the closing text is computed when it opens
//
// Conditions keep common false openers out: `#` only after a space in shell
// (`$#`), `'` only when it closes within a few bytes (Rust lifetimes, OCaml
// type variables), `r"` only at a word start.
//
// Documentation counts as comment: a string opener can say that what it opens
// is documentation (a Python docstring: a string that starts its line), and a
// language of prose (Markdown) says that its text outside every opener is.

/// The kind of text a byte is in: code, a comment or a string.
public enum Scope: UInt8, Sendable, Hashable, CaseIterable {
    case code
    case comment
    case string
}

/// A comment or string region, as a range of UTF-8 byte offsets (delimiters included).
struct ScopeRegion: Sendable, Hashable {
    /// The bytes of the region, delimiters included.
    public var utf8Range: Range<Int>
    /// `.comment` or `.string`.
    public var scope: Scope

    /// Creates a region.
    init(utf8Range: Range<Int>, scope: Scope) {
        self.utf8Range = utf8Range
        self.scope = scope
    }
}

/// The comment and string syntax of one language: openers tried in order at every position of code.
public struct LanguageSyntax: Sendable, Hashable {
    /// Where an opener may start.
    public enum Condition: Sendable, Hashable {
        /// Anywhere in code.
        case anywhere
        /// Not right after a letter, digit, `_` or non-ASCII byte (`r"` in Rust, `'` in YAML).
        case notAfterWordCharacter
        /// At the line start or after a space or tab (`#` in shell).
        case afterSpace
        /// Only spaces or tabs before it on the line (`=begin` in Ruby, `#` in INI).
        case lineStart
        /// A string that stands alone on its line, as a docstring does: only spaces or tabs before it
        /// (then at most two of `prefixLetters`, as in `r"""`), and, when it closes on the same line,
        /// nothing after it but spaces, tabs and a line comment.
        case standaloneString(prefixLetters: [UInt8])
    }

    /// What an opener opens.
    enum Kind: Sendable, Hashable {
        /// A comment to the end of the line.
        case lineComment
        /// A comment up to `close`; nested pairs count when `nests`.
        case blockComment(close: String, nests: Bool)
        /// A string up to `close`. `escape` skips the next byte. A string that is not `multiline`
        /// ends at the line end (unless the line ends with the escape byte).
        case string(close: String, escape: UInt8?, multiline: Bool)
        /// A character literal: the opener, then one character or an escape (`\` and up to 10 bytes),
        /// then the opener again; anything else (a Rust lifetime `'a`, an OCaml type variable) is code.
        case characterLiteral(escape: UInt8)
        /// A string to the end of the line (Zig's `\\` lines).
        case lineString
        /// Rust's `r"…"`, `r#"…"#`: the opener is the prefix (`r`, `br`); the `#`s are counted.
        case hashedRawString
        /// Swift's `#"…"#` and `#"""…"""#`: one or more `#` before the quote, as many after.
        case swiftRawString
        /// C++'s `R"delim(…)delim"`.
        case cppRawString
        /// Lua's long brackets `[[…]]`, `[==[…]==]`: the opener is `[` for a string, `--` for a comment.
        case longBracket(Scope)
    }

    /// One way a comment or string can open.
    struct Opener: Sendable, Hashable {
        /// The opening text (ASCII).
        public var text: [UInt8]
        public var kind: Kind
        var condition: Condition
        /// The scope of what it opens: `.comment` for comments and for documentation written as a
        /// string (a docstring), `.string` for other strings.
        public var scope: Scope
        /// The closing bytes of a block comment or string (empty for other kinds), computed once.
        let closing: [UInt8]

        /// Creates an opener; `documentation` makes a string opener open documentation, which is in comment scope.
        init(_ text: String, _ kind: Kind, _ condition: Condition = .anywhere, documentation: Bool = false) {
            self.text = Array(text.utf8)
            self.kind = kind
            self.condition = condition
            switch kind {
            case .blockComment(let close, _), .string(let close, _, _): closing = Array(close.utf8)
            default: closing = []
            }
            switch kind {
            case .lineComment, .blockComment: scope = .comment
            case .longBracket(let bracketScope): scope = documentation ? .comment : bracketScope
            default: scope = documentation ? .comment : .string
            }
        }
    }

    /// The language ids (LSP `languageId`) this syntax describes.
    var languageIDs: [String]
    /// Tried in order at each position of code; the first that matches wins.
    var openers: [Opener]
    /// A byte that, in code, makes the next byte ordinary (`\` in shell and LaTeX), or nil.
    var codeEscape: UInt8?
    /// The scope of text outside every comment and string: `.code` in a programming language,
    /// `.comment` in a language of prose (Markdown), where all text is documentation.
    var textScope: Scope
    /// The bytes that can start an opener (or are the code escape), to skip the others in code.
    let codeSearch: ByteSearch
    /// For each opener of a multi-line string or a block comment, the bytes that can end (or, nested, deepen) what it
    /// opens, to skip the lines inside it that hold none (see `LazyScopes`); nil for the other openers.
    let spanSearches: [ByteSearch?]

    /// Creates a syntax from its openers.
    init(languageIDs: [String], openers: [Opener], codeEscape: UInt8? = nil, textScope: Scope = .code) {
        self.languageIDs = languageIDs
        self.openers = openers
        self.codeEscape = codeEscape
        self.textScope = textScope
        var first = [Bool](repeating: false, count: 256)
        for opener in openers {
            if let byte = opener.text.first { first[Int(byte)] = true }
        }
        if let codeEscape { first[Int(codeEscape)] = true }
        codeSearch = ByteSearch((0...255).filter { first[$0] }.map { UInt8($0) })
        spanSearches = openers.map { opener in
            guard let close = opener.closing.first else { return nil }
            switch opener.kind {
            case .string(_, let escape, true): return ByteSearch([close] + (escape.map { [$0] } ?? []))
            case .blockComment(_, let nests): return ByteSearch([close] + (nests ? opener.text.prefix(1) : []))
            default: return nil
            }
        }
    }
}

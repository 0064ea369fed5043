/// Where a rule applies and what else its matches are for: `scope`, `languages`, `files`, `list`, `blocking`.
///
/// The configuration only states these; the server and the command line decide per document
/// (language id and path) and per match (comment, string or code).
public struct RuleApplicability: Sendable, Hashable {
    /// The kinds of text a rule matches in.
    public struct Scopes: OptionSet, Sendable, Hashable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }

        /// Inside comments (delimiters included).
        public static let comments = Scopes(rawValue: 1)
        /// Inside string literals (quotes included).
        static let strings = Scopes(rawValue: 2)
        /// Everywhere else.
        public static let code = Scopes(rawValue: 4)
        /// Everywhere: the default.
        public static let anywhere: Scopes = [.comments, .strings, .code]

        /// The names used in configuration files, in this order.
        static let names: [(name: String, scopes: Scopes)] = [
            ("comments", .comments), ("strings", .strings), ("code", .code), ("anywhere", .anywhere),
        ]
    }

    /// Where in a document the rule matches (default: anywhere).
    public var scopes: Scopes = .anywhere
    /// The LSP language ids the rule applies to, lowercased; nil for every language.
    var languages: [String]?
    /// Globs relative to the workspace folder; a `!` pattern excludes. Nil for every file.
    public var files: [String]?
    /// Whether `workspace/symbol` lists the rule's matches (default false; the built-in `fixme`,
    /// `todo` and `hack` say true).
    public var list: Bool = false
    /// Whether `highlight-ls check` fails when the rule matches (default false).
    public var blocking: Bool = false
    /// Whether the fields written after a match are read: owner, tickets and a deadline (`MarkerFields`; default
    /// false, the built-in word rules say true). An overdue match is then blocking in `check`, whatever `blocking` says.
    public var readsFields: Bool = false

    /// Where a rule applies and what its matches are for; by default everywhere, not listed, not blocking.
    init(scopes: Scopes = .anywhere, languages: [String]? = nil, files: [String]? = nil, list: Bool = false, blocking: Bool = false) {
        self.scopes = scopes
        self.languages = languages
        self.files = files
        self.list = list
        self.blocking = blocking
    }

    /// Whether the rule applies to documents of `languageID` (case-insensitive).
    func appliesToLanguage(_ languageID: String) -> Bool {
        guard let languages else { return true }
        return languages.contains(languageID.lowercased())
    }

    /// Whether the rule is limited by language, file or scope at all.
    var isRestricted: Bool {
        languages != nil || files != nil || scopes != .anywhere
    }
}

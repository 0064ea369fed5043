// API contract (implementation pending): see the signatures below.

/// Options for `JSONParser`.
public struct JSONParseOptions: Sendable {
    /// Accept `//` and `/* */` comments.
    public var allowsComments: Bool
    /// Accept a trailing comma before `]` and `}`.
    public var allowsTrailingCommas: Bool
    /// Nesting deeper than this is a syntax error (protects the stack).
    public var maximumDepth: Int

    public init(allowsComments: Bool = false, allowsTrailingCommas: Bool = false, maximumDepth: Int = 512) {
        self.allowsComments = allowsComments
        self.allowsTrailingCommas = allowsTrailingCommas
        self.maximumDepth = maximumDepth
    }

    /// RFC 8259 JSON, as on the wire.
    public static let strict = JSONParseOptions()
    /// JSON with comments and trailing commas, as in config files.
    public static let lenient = JSONParseOptions(allowsComments: true, allowsTrailingCommas: true)
}

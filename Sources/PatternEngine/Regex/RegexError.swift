/// Why a pattern was rejected, and where: `patternUTF8Offset` is a UTF-8 byte offset into the pattern text.
public struct RegexError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of problem it is.
    public enum Kind: Sendable, Equatable {
        /// The pattern is not a regex this engine reads.
        case syntax
        /// The pattern is valid, but its automaton costs more than the budget allows.
        case overBudget
    }

    /// A human-readable explanation, e.g. "look-around is not supported".
    public var message: String
    /// The UTF-8 byte offset in the pattern where the problem was found (zero-based).
    public var patternUTF8Offset: Int
    public var kind: Kind

    /// Creates an error with a message and the pattern offset it refers to.
    init(message: String, patternUTF8Offset: Int, kind: Kind = .syntax) {
        self.message = message
        self.patternUTF8Offset = patternUTF8Offset
        self.kind = kind
    }

    /// A pattern over budget: "pattern too large: " and what was exceeded.
    static func overBudget(_ problem: String, patternUTF8Offset: Int) -> RegexError {
        RegexError(message: "pattern too large: \(problem)", patternUTF8Offset: patternUTF8Offset, kind: .overBudget)
    }

    /// The message followed by the offset, e.g. "unclosed group (at pattern offset 3)".
    public var description: String {
        "\(message) (at pattern offset \(patternUTF8Offset))"
    }
}

/// Why a pattern was rejected, and where: `patternUTF8Offset` is a UTF-8 byte offset into the pattern text.
public struct RegexError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A human-readable explanation, e.g. "look-around is not supported".
    public var message: String
    /// The UTF-8 byte offset in the pattern where the problem was found (zero-based).
    public var patternUTF8Offset: Int

    /// Creates an error with a message and the pattern offset it refers to.
    public init(message: String, patternUTF8Offset: Int) {
        self.message = message
        self.patternUTF8Offset = patternUTF8Offset
    }

    /// The message followed by the offset, e.g. "unclosed group (at pattern offset 3)".
    public var description: String {
        "\(message) (at pattern offset \(patternUTF8Offset))"
    }
}

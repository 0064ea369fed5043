/// A zero-based line and character in a text, as in LSP.
///
/// `character` is counted in the units of a `PositionEncoding`; a position means nothing
/// without knowing which.
public struct Position: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The zero-based line.
    public var line: Int
    /// The zero-based column, in the units of the position's encoding.
    public var character: Int

    /// A position from a zero-based line and character.
    public init(line: Int, character: Int) {
        self.line = line
        self.character = character
    }

    /// Orders positions by line, then character.
    public static func < (lhs: Position, rhs: Position) -> Bool {
        (lhs.line, lhs.character) < (rhs.line, rhs.character)
    }

    /// `line:character`, both zero-based.
    public var description: String { "\(line):\(character)" }
}

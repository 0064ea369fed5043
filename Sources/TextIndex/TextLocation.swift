/// A one-based line and column in a UTF-8 text, for messages read by people
/// ("settings.json:3:14: expected ':'").
///
/// `column` counts Unicode scalars, so `é` written as one precomposed scalar is one column and
/// `e` followed by a combining accent is two. `\n`, `\r\n` and a lone `\r` each end a line.
public struct TextLocation: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The one-based line number.
    public var line: Int
    /// The one-based column, counted in Unicode scalars.
    public var column: Int

    /// A location from a one-based line and column.
    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    /// The location of the byte at `utf8Offset` in `utf8`; see `LineIndex.textLocation(ofUTF8Offset:)`.
    ///
    /// - Complexity: O(*n*) in the length of `utf8`, to index it; index once for many locations.
    public init(utf8Offset: Int, in utf8: UnsafeBufferPointer<UInt8>) {
        self = LineIndex(utf8: utf8).textLocation(ofUTF8Offset: utf8Offset)
    }

    /// The location of the byte at `utf8Offset` in `utf8`; see `LineIndex.textLocation(ofUTF8Offset:)`.
    public init(utf8Offset: Int, in utf8: [UInt8]) {
        self = utf8.withUnsafeBufferPointer { TextLocation(utf8Offset: utf8Offset, in: $0) }
    }

    /// `line:column`, as used in compiler-style messages.
    public var description: String { "\(line):\(column)" }

    /// Orders locations by line, then column.
    public static func < (lhs: TextLocation, rhs: TextLocation) -> Bool {
        (lhs.line, lhs.column) < (rhs.line, rhs.column)
    }
}

extension LineIndex {
    /// The one-based line and column (in Unicode scalars) of `utf8Offset`, for messages read by
    /// people: the zero-based UTF-32 position, plus one each.
    ///
    /// Clamped like `position(ofUTF8Offset:encoding:)`: an offset inside a multi-byte character
    /// names that character, and one between `\r` and `\n` names the end of the line's content.
    ///
    /// - Complexity: O(log *L* + log *k*) for *L* lines and *k* non-ASCII characters on the line.
    public func textLocation(ofUTF8Offset utf8Offset: Int) -> TextLocation {
        let position = position(ofUTF8Offset: utf8Offset, encoding: .utf32)
        return TextLocation(line: position.line + 1, column: position.character + 1)
    }
}

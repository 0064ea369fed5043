import UTF8Decoding

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

    /// The location of the byte at `utf8Offset` in `utf8`.
    ///
    /// Offsets are clamped to `0...utf8.count`. An offset inside a multi-byte character, or
    /// between the `\r` and `\n` of a `\r\n` pair, names the start of that character or pair.
    ///
    /// - Complexity: O(*n*) where *n* is `utf8Offset`; meant for error messages.
    init(utf8Offset: Int, in utf8: UnsafeBufferPointer<UInt8>) {
        let end = min(max(utf8Offset, 0), utf8.count)
        var line = 1
        var column = 1
        var index = 0
        while index < end {
            let byte = utf8[index]
            if byte == 0x0A {
                line += 1
                column = 1
            } else if byte == 0x0D {
                // A `\r\n` pair is one terminator; an offset between its two bytes stays on the
                // line that the pair ends.
                let next = index + 1
                if next < utf8.count, utf8[next] == 0x0A {
                    if next == end { break }
                    index = next
                }
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                // Every byte that is not a continuation byte starts a scalar. An offset inside a
                // scalar therefore reports the column of that scalar.
                column += 1
            }
            index += 1
        }
        // An offset inside a well-formed multi-byte scalar names that scalar, which the loop
        // has already counted; a stray continuation byte (invalid input) keeps its own column.
        if end < utf8.count, utf8[end] & 0xC0 == 0x80 {
            var lead = end - 1
            while lead >= 0, end - lead < 4, utf8[lead] & 0xC0 == 0x80 { lead -= 1 }
            if lead >= 0, UTF8Decoding.sequenceLength(announcedBy: utf8[lead]) > end - lead, column > 1 {
                column -= 1
            }
        }
        self.init(line: line, column: column)
    }

    /// The location of the byte at `utf8Offset` in `utf8`; see `init(utf8Offset:in:)`.
    ///
    /// - Complexity: O(*n*) where *n* is `utf8Offset`.
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

import TextIndex

/// A JSON text that could not be parsed, with the place where the parser gave up.
public struct JSONSyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong, as a lower-case phrase without a location ("expected ':' after an object key").
    public var message: String
    /// The UTF-8 byte offset (zero-based) of the offending byte, or of the end of the input.
    public var utf8Offset: Int
    /// The one-based line of `utf8Offset`.
    public var line: Int
    /// The one-based column of `utf8Offset`, counted in Unicode scalars.
    public var column: Int

    /// An error at a known offset and location.
    init(message: String, utf8Offset: Int, line: Int, column: Int) {
        self.message = message
        self.utf8Offset = utf8Offset
        self.line = line
        self.column = column
    }

    /// An error at `utf8Offset` in `utf8`, with the line and column computed from the text.
    init(message: String, utf8Offset: Int, in utf8: UnsafeBufferPointer<UInt8>) {
        let location = TextLocation(utf8Offset: utf8Offset, in: utf8)
        self.init(message: message, utf8Offset: utf8Offset, line: location.line, column: location.column)
    }

    /// The one-based location of the error.
    var location: TextLocation { TextLocation(line: line, column: column) }

    /// `line:column: message`, ready to be prefixed with a file name.
    public var description: String { "\(line):\(column): \(message)" }
}

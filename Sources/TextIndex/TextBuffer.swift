
/// The text of a document, stored once as UTF-8, together with its `LineIndex`; edits keep
/// the two in step.
///
/// Offsets are UTF-8 byte offsets. Every method clamps its input: ranges are cut to the text,
/// reversed bounds are swapped, and a bound inside a multi-byte character moves back to that
/// character's start, so the text stays valid UTF-8 if the inserted bytes are.
public struct TextBuffer: Sendable {
    /// The text as UTF-8 bytes.
    public private(set) var utf8: [UInt8]
    /// The line index of `utf8`.
    public private(set) var lineIndex: LineIndex

    /// A buffer holding `utf8`.
    ///
    /// - Complexity: O(*n*) to build the index.
    public init(utf8: [UInt8]) {
        self.utf8 = utf8
        self.lineIndex = LineIndex(utf8: utf8)
    }

    /// How many `\r`s are not followed by `\n`: line breaks that a pattern such as `[^\n]` can cross.
    public var loneCarriageReturnCount: Int { lineIndex.loneCarriageReturnCount }

    /// A buffer holding the UTF-8 of `text`.
    ///
    /// - Complexity: O(*n*) to build the index.
    public init(_ text: String) {
        self.init(utf8: Array(text.utf8))
    }

    /// The length of the text in UTF-8 bytes.
    public var utf8Count: Int { utf8.count }

    /// The text as a `String`.
    public var text: String { String(decoding: utf8, as: UTF8.self) }

    /// Calls `body` with the text's UTF-8 bytes, without copying them.
    public func withUnsafeBytes<Result, Failure: Error>(
        _ body: (UnsafeBufferPointer<UInt8>) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        let result = utf8.withUnsafeBufferPointer { buffer in
            Swift.Result { () throws(Failure) -> Result in try body(buffer) }
        }
        return try result.get()
    }

    // MARK: Editing

    /// Replaces the bytes in `utf8Range` with `newText` and updates the index.
    ///
    /// - Complexity: O(*n*) to move the bytes after the range, plus the index update (see
    ///   `LineIndex.replace(utf8Range:withUTF8Count:in:)`).
    public mutating func replace(utf8Range: Range<Int>, with newText: some Collection<UInt8>) {
        replace(fromUTF8Offset: utf8Range.lowerBound, toUTF8Offset: utf8Range.upperBound, with: newText)
    }

    /// Replaces the bytes between two offsets, in either order, with `newText`.
    ///
    /// - Complexity: as `replace(utf8Range:with:)`.
    public mutating func replace(
        fromUTF8Offset start: Int, toUTF8Offset end: Int, with newText: some Collection<UInt8>
    ) {
        let lower = characterStart(atOrBefore: min(start, end))
        let upper = characterStart(atOrBefore: max(start, end))
        let range = lower..<upper
        let insertedCount = newText.count
        utf8.replaceSubrange(range, with: newText)
        let bytes = utf8
        bytes.withUnsafeBufferPointer { buffer in
            lineIndex.replace(utf8Range: range, withUTF8Count: insertedCount, in: buffer)
        }
    }

    /// Replaces the text between two positions (in either order) with `newText`.
    ///
    /// - Complexity: as `replace(utf8Range:with:)`.
    public mutating func replace(
        from start: Position, to end: Position, encoding: PositionEncoding, with newText: some Collection<UInt8>
    ) {
        replace(
            fromUTF8Offset: lineIndex.utf8Offset(of: start, encoding: encoding),
            toUTF8Offset: lineIndex.utf8Offset(of: end, encoding: encoding), with: newText)
    }

    /// Replaces the whole text.
    ///
    /// - Complexity: O(*n*) to build the index.
    mutating func replaceAll(with newText: [UInt8]) {
        self = TextBuffer(utf8: newText)
    }

    /// `offset` clamped to the text and moved back to the start of the character it is in.
    private func characterStart(atOrBefore offset: Int) -> Int {
        var result = min(max(offset, 0), utf8.count)
        var steps = 0
        while result > 0, result < utf8.count, steps < 3, utf8[result] & 0xC0 == 0x80 {
            result -= 1
            steps += 1
        }
        return result
    }

    // MARK: Lines

    /// The content of the zero-based `line` without its terminator; empty for a line outside
    /// the text.
    ///
    /// - Complexity: O(*m*) in the length of the line.
    func lineText(_ line: Int) -> String {
        guard line >= 0, line < lineIndex.lineCount else { return "" }
        let range = lineIndex.utf8ContentRange(ofLine: line)
        return String(decoding: utf8[range], as: UTF8.self)
    }
}

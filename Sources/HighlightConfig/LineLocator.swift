import JSONValue

/// Turns UTF-8 offsets of one file into 1-based lines and columns quickly.
///
/// `JSONSourceMap.textLocation(ofUTF8Offset:)` scans from the start of the file, which is fine
/// for one error but quadratic when every rule of a 10,000-rule file records where it was
/// written. This table of line starts finds the line by binary search and lets `TextLocation`
/// count columns within that line only, so columns mean the same thing (Unicode scalars) and
/// line ends the same (`\n`, `\r\n`, lone `\r`).
struct LineLocator: Sendable {
    /// The text.
    private let bytes: [UInt8]
    /// The offset of the first byte of each line; line 1 starts at 0.
    private let lineStartUTF8Offsets: [Int]

    /// A locator for `bytes`.
    ///
    /// - Complexity: O(*n*) in the length of `bytes`.
    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        var starts = [0]
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0x0A {
                starts.append(index + 1)
            } else if byte == 0x0D {
                if index + 1 < bytes.count, bytes[index + 1] == 0x0A { index += 1 }
                starts.append(index + 1)
            }
            index += 1
        }
        lineStartUTF8Offsets = starts
    }

    /// The 1-based line and column (in Unicode scalars) of `utf8Offset`, clamped to the text.
    ///
    /// - Complexity: O(log *l* + *c*) for *l* lines and an offset *c* bytes into its line.
    func textLocation(ofUTF8Offset utf8Offset: Int) -> TextLocation {
        let offset = min(max(utf8Offset, 0), bytes.count)
        // The last line start at or before `offset`.
        var low = 0
        var high = lineStartUTF8Offsets.count - 1
        while low < high {
            let middle = low + (high - low + 1) / 2
            if lineStartUTF8Offsets[middle] <= offset { low = middle } else { high = middle - 1 }
        }
        let lineStart = lineStartUTF8Offsets[low]
        let lineEnd = low + 1 < lineStartUTF8Offsets.count ? lineStartUTF8Offsets[low + 1] : bytes.count
        let withinLine = TextLocation(utf8Offset: offset - lineStart, in: Array(bytes[lineStart..<lineEnd]))
        return TextLocation(line: low + withinLine.line, column: withinLine.column)
    }
}

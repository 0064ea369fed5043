import JSONValue

/// Turns UTF-8 offsets of one file into 1-based lines and columns quickly.
///
/// `JSONSourceMap.textLocation(ofUTF8Offset:)` scans from the start of the file, which is fine
/// for one error but quadratic when every rule of a 10,000-rule file records where it was
/// written. This table of line starts finds the line by binary search and lets `TextLocation`
/// count columns within that line only, so columns mean the same thing (Unicode scalars) and
/// line ends the same (`\n`, `\r\n`, lone `\r`). Columns come from a table of scalar counts at
/// every 256th byte, so a file written on one long line (a minified configuration) costs at most
/// 256 bytes of counting per location, not the length of the line.
struct LineLocator: Sendable {
    /// The text.
    private let bytes: [UInt8]
    /// The offset of the first byte of each line; line 1 starts at 0.
    private let lineStartUTF8Offsets: [Int]
    /// `scalarStarts[k]` is the number of bytes that start a scalar (not continuation bytes) in `bytes[0..<k * 256]`.
    private let scalarStarts: [Int]
    private static let blockSize = 256

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
        var counts = [0]
        counts.reserveCapacity(bytes.count / Self.blockSize + 1)
        var running = 0
        for (offset, byte) in bytes.enumerated() {
            if byte & 0xC0 != 0x80 { running += 1 }
            if (offset + 1) % Self.blockSize == 0 { counts.append(running) }
        }
        scalarStarts = counts
    }

    /// The number of bytes that start a scalar in `bytes[0..<utf8Offset]`, in O(block size).
    private func scalarStartCount(before utf8Offset: Int) -> Int {
        let block = utf8Offset / Self.blockSize
        var count = scalarStarts.indices.contains(block) ? scalarStarts[block] : 0
        var index = block * Self.blockSize
        while index < utf8Offset {
            if bytes[index] & 0xC0 != 0x80 { count += 1 }
            index += 1
        }
        return count
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
        // The common case: an offset at the start of a scalar, not between `\r` and `\n`. The column is one plus the
        // scalars before it on its line (a line holds no terminator before its end).
        let atScalarStart = offset >= bytes.count || bytes[offset] & 0xC0 != 0x80
        let afterCarriageReturn = offset > lineStart && bytes[offset - 1] == 0x0D
        if atScalarStart && !afterCarriageReturn {
            return TextLocation(line: low + 1, column: 1 + scalarStartCount(before: offset) - scalarStartCount(before: lineStart))
        }
        let lineEnd = low + 1 < lineStartUTF8Offsets.count ? lineStartUTF8Offsets[low + 1] : bytes.count
        let withinLine = TextLocation(utf8Offset: offset - lineStart, in: Array(bytes[lineStart..<lineEnd]))
        return TextLocation(line: low + withinLine.line, column: withinLine.column)
    }
}

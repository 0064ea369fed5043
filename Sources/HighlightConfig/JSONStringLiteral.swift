/// Maps a UTF-8 offset in a decoded JSON string back to the byte in the file that produced it.
///
/// An invalid regex reports an offset into the decoded pattern, but the file holds the pattern
/// as a JSON string literal, where `\\` is two bytes for one and `\u00e9` six bytes for two:
///
///     file:     " \ \ b [ A - Z ] "
///     decoded:    \     b [ A - Z
///     offset:     0     1 2 3 4 5
///
/// The walk below decodes escapes just far enough to count the bytes each one produces.
public enum JSONStringLiteral {
    /// The file offset of the byte (or escape) that produced byte `decodedUTF8Offset` of the string
    /// whose literal starts (at its opening quote) at `literalUTF8Offset`.
    ///
    /// An offset at or past the end of the decoded string maps to the closing quote. When the
    /// bytes at `literalUTF8Offset` are not a string literal, `literalUTF8Offset` is returned.
    ///
    /// - Complexity: O(*n*) in the length of the literal.
    public static func fileUTF8Offset(
        ofDecodedUTF8Offset decodedUTF8Offset: Int, literalUTF8Offset: Int, in bytes: [UInt8]
    ) -> Int {
        guard literalUTF8Offset >= 0, literalUTF8Offset < bytes.count,
            bytes[literalUTF8Offset] == UInt8(ascii: "\"")
        else { return literalUTF8Offset }
        var index = literalUTF8Offset + 1
        var decoded = 0
        while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
            let (rawLength, decodedLength) = escapeLengths(at: index, in: bytes)
            if decodedUTF8Offset < decoded + decodedLength { return index }
            decoded += decodedLength
            index += rawLength
        }
        return min(index, bytes.count)
    }

    /// How many file bytes the character at `index` takes, and how many decoded bytes it makes.
    private static func escapeLengths(at index: Int, in bytes: [UInt8]) -> (raw: Int, decoded: Int) {
        guard bytes[index] == UInt8(ascii: "\\") else { return (1, 1) }
        guard index + 1 < bytes.count else { return (1, 1) }
        guard bytes[index + 1] == UInt8(ascii: "u") else { return (2, 1) }
        guard let unit = hexQuad(at: index + 2, in: bytes) else { return (2, 1) }
        switch unit {
        case 0..<0x80: return (6, 1)
        case 0x80..<0x800: return (6, 2)
        case 0xD800..<0xDC00:
            // A high surrogate followed by an escaped low surrogate makes one 4-byte scalar.
            if index + 7 < bytes.count, bytes[index + 6] == UInt8(ascii: "\\"), bytes[index + 7] == UInt8(ascii: "u"),
                let low = hexQuad(at: index + 8, in: bytes), (0xDC00..<0xE000).contains(low)
            {
                return (12, 4)
            }
            return (6, 3)  // A lone surrogate decodes to U+FFFD, three bytes.
        default: return (6, 3)
        }
    }

    private static func hexQuad(at index: Int, in bytes: [UInt8]) -> Int? {
        guard index >= 0, index + 4 <= bytes.count else { return nil }
        var value = 0
        for byte in bytes[index..<(index + 4)] {
            let digit: Int
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = Int(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = Int(byte - UInt8(ascii: "a")) + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = Int(byte - UInt8(ascii: "A")) + 10
            default: return nil
            }
            value = value << 4 | digit
        }
        return value
    }
}

// One UTF-8 character read from bytes that may not be valid, by RFC 3629: no overlong forms, no
// UTF-16 surrogates (U+D800...U+DFFF), nothing above U+10FFFF, nothing cut off. The one place
// that answers it: word boundaries and look-around in the engine, the walk's display of file
// names and the last bytes of the whole-text check (UTF8Validation.swift), and the JSON parser's
// report of where invalid input starts.

/// Decoding UTF-8 that may not be valid, one character at a time.
public enum UTF8Decoding {
    /// The scalar of the valid UTF-8 sequence that begins at `index` and ends at or before `end`
    /// (the end of `bytes` when nil), and its length in bytes; nil when the bytes there are not one.
    ///
    /// - Complexity: O(1).
    @inlinable
    public static func scalar(
        at index: Int, in bytes: UnsafeBufferPointer<UInt8>, end: Int? = nil
    ) -> (scalar: Unicode.Scalar, length: Int)? {
        let end = min(end ?? bytes.count, bytes.count)
        guard index >= 0, index < end else { return nil }
        let lead = bytes[index]
        if lead < 0x80 { return (Unicode.Scalar(lead), 1) }
        let length: Int
        let lowest: UInt32
        switch lead {
        case 0xC2...0xDF: length = 2; lowest = 0x80
        case 0xE0...0xEF: length = 3; lowest = 0x800
        case 0xF0...0xF4: length = 4; lowest = 0x1_0000
        default: return nil
        }
        guard end - index >= length else { return nil }
        var value = UInt32(lead) & (0xFF >> (length + 1))
        for offset in 1..<length {
            let byte = bytes[index + offset]
            guard byte & 0xC0 == 0x80 else { return nil }
            value = value << 6 | UInt32(byte & 0x3F)
        }
        // Overlong forms are below the length's lowest value; `Unicode.Scalar` refuses
        // surrogates and values past U+10FFFF.
        guard value >= lowest, let scalar = Unicode.Scalar(value) else { return nil }
        return (scalar, length)
    }

    /// The length of the sequence that `lead` announces, whether or not the bytes after it follow:
    /// 2, 3 or 4 for a lead byte, 1 for ASCII and for a byte that cannot lead (a continuation byte
    /// or 0xF8...0xFF), so that stepping by it always moves on.
    ///
    /// - Complexity: O(1).
    @inlinable
    public static func sequenceLength(announcedBy lead: UInt8) -> Int {
        switch lead {
        case 0xC0...0xDF: return 2
        case 0xE0...0xEF: return 3
        case 0xF0...0xF7: return 4
        default: return 1
        }
    }

    /// The offset of the first byte in `range` that does not start a valid sequence ending within
    /// it, or nil when the bytes in `range` are valid UTF-8.
    ///
    /// - Complexity: O(*n*) in the length of `range`.
    public static func firstInvalidOffset(in bytes: UnsafeBufferPointer<UInt8>, range: Range<Int>) -> Int? {
        let end = min(range.upperBound, bytes.count)
        var offset = max(range.lowerBound, 0)
        let raw = UnsafeRawBufferPointer(bytes)
        while offset < end {
            // ASCII, the usual case, eight bytes at a time.
            while end - offset >= 8, raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self) & 0x8080_8080_8080_8080 == 0 {
                offset += 8
            }
            guard offset < end else { break }
            guard let (_, length) = scalar(at: offset, in: bytes, end: end) else { return offset }
            offset += length
        }
        return nil
    }
}

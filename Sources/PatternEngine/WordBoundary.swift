// Whole-word boundaries over UTF-8 bytes.
//
// A word character is what `(?u)\w` matches: a Unicode alphabetic scalar
// (letters, letter numbers, ...), a mark (M*), a decimal digit (Nd), connector
// punctuation such as `_` (Pc), or a join control (ZWJ, ZWNJ). Marks count so
// that `cafe` does not match inside `cafe\u{301}`. One definition serves the
// literal words, whole-word regex rules and `(?u)\b`.
//
// A whole-word match [start, end) is accepted when the character before start
// and the character at end are not word characters, whatever the match's own
// first and last characters are, so `foo` must stand alone, `-x` is not found
// in `a-x` and `x:` not in `x:y`. Invalid UTF-8 and the edges of the text
// count as non-word characters. The scalar before an offset is found by
// walking back over at most three continuation bytes, so a check costs O(1).
//
// Regex rules get the same check inside the automaton: the pattern is wrapped
// in the assertions `notAfterWordCharacter` and `notBeforeWordCharacter`, so a
// regex offers its preferred match that passes the check (`a-b|a` on `a-bc`
// gives `a`), as a list of words does.

/// Classification of scalars and UTF-8 positions as word characters, for whole-word matching.
public enum WordBoundary {
    /// Whether `scalar` is a word character (the set of `(?u)\w`).
    public static func isWordCharacter(_ scalar: Unicode.Scalar) -> Bool {
        UnicodeClasses.isWordScalar(scalar.value)
    }

    /// Whether an ASCII byte is a word character (`[A-Za-z0-9_]`).
    @inline(__always)
    static func isASCIIWordByte(_ byte: UInt8) -> Bool {
        let lowered = byte | 0x20
        return (lowered >= 0x61 && lowered <= 0x7A) || (byte >= 0x30 && byte <= 0x39) || byte == 0x5F
    }

    /// Whether the character that starts at `utf8Offset` is a word character (false at the end or on invalid UTF-8).
    static func isWordCharacter(in text: UnsafeBufferPointer<UInt8>, startingAt utf8Offset: Int) -> Bool {
        guard utf8Offset >= 0, utf8Offset < text.count else { return false }
        let byte = text[utf8Offset]
        if byte < 0x80 { return isASCIIWordByte(byte) }
        guard let (scalar, _) = UTF8Decoding.scalar(in: text, at: utf8Offset) else { return false }
        return isWordCharacter(scalar)
    }

    /// Whether the character that ends at `utf8Offset` is a word character (false at the start or on invalid UTF-8).
    static func isWordCharacter(in text: UnsafeBufferPointer<UInt8>, endingAt utf8Offset: Int) -> Bool {
        guard utf8Offset > 0, utf8Offset <= text.count else { return false }
        let last = text[utf8Offset - 1]
        if last < 0x80 { return isASCIIWordByte(last) }
        // Walk back to the lead byte; a valid sequence is at most four bytes long.
        var leadOffset = utf8Offset - 1
        while leadOffset > 0, utf8Offset - leadOffset < 4, text[leadOffset] & 0xC0 == 0x80 {
            leadOffset -= 1
        }
        guard let (scalar, length) = UTF8Decoding.scalar(in: text, at: leadOffset),
              leadOffset + length == utf8Offset else { return false }
        return isWordCharacter(scalar)
    }

    /// Whether a match `utf8Range` satisfies the whole-word condition: no word character right before or right after it.
    @inline(__always)
    static func accepts(_ text: UnsafeBufferPointer<UInt8>, utf8Range: Range<Int>) -> Bool {
        !isWordCharacter(in: text, endingAt: utf8Range.lowerBound) && !isWordCharacter(in: text, startingAt: utf8Range.upperBound)
    }
}

/// Strict UTF-8 decoding of single scalars (no overlongs, no surrogates, nothing above U+10FFFF).
enum UTF8Decoding {
    /// The scalar that starts at `utf8Offset` and its length in bytes, or nil when the bytes there are not valid UTF-8.
    static func scalar(in text: UnsafeBufferPointer<UInt8>, at utf8Offset: Int) -> (Unicode.Scalar, Int)? {
        guard utf8Offset >= 0, utf8Offset < text.count else { return nil }
        let lead = UInt32(text[utf8Offset])
        let length: Int
        var value: UInt32
        var minimum: UInt32
        switch lead {
        case 0x00..<0x80: return Unicode.Scalar(lead).map { ($0, 1) }
        case 0xC2..<0xE0: length = 2; value = lead & 0x1F; minimum = 0x80
        case 0xE0..<0xF0: length = 3; value = lead & 0x0F; minimum = 0x800
        case 0xF0..<0xF5: length = 4; value = lead & 0x07; minimum = 0x1_0000
        default: return nil
        }
        guard text.count - utf8Offset >= length else { return nil }
        for index in 1..<length {
            let byte = UInt32(text[utf8Offset + index])
            guard byte & 0xC0 == 0x80 else { return nil }
            value = (value << 6) | (byte & 0x3F)
        }
        guard value >= minimum, let scalar = Unicode.Scalar(value) else { return nil }
        return (scalar, length)
    }
}

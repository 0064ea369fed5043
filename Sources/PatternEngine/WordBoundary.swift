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

import UTF8Decoding

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
        guard let (scalar, _) = UTF8Decoding.scalar(at: utf8Offset, in: text) else { return false }
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
        guard let (scalar, length) = UTF8Decoding.scalar(at: leadOffset, in: text),
              leadOffset + length == utf8Offset else { return false }
        return isWordCharacter(scalar)
    }

    /// Whether a match `utf8Range` satisfies the whole-word condition: no word character right before or right after it.
    @inline(__always)
    static func accepts(_ text: UnsafeBufferPointer<UInt8>, utf8Range: Range<Int>) -> Bool {
        !isWordCharacter(in: text, endingAt: utf8Range.lowerBound) && !isWordCharacter(in: text, startingAt: utf8Range.upperBound)
    }
}

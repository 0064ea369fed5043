import UTF8Decoding

// Evaluating zero-width assertions.
//
// Every assertion depends only on what lies on each side of a position, and
// only on a coarse class of it: the text edge, `\n`, `\r`, an ASCII word
// character, a non-ASCII word scalar (for Unicode `\b` only) or anything else. All engines classify both sides the same way, so they agree
// exactly; the lazy DFA stores the class of the side behind it in its states.
//
// A non-ASCII byte is classified by the scalar that contains it. Positions
// inside a scalar are never the start or end of a match (every match consumes
// whole scalars), so what assertions say there cannot change a result; using
// the containing scalar just keeps the engines identical even there.

/// The class of what lies on one side of a position.
enum SideClass: UInt8, Sendable, CaseIterable {
    /// The start or end of the text.
    case edge = 0
    /// `\n`.
    case lineFeed = 1
    /// `\r`.
    case carriageReturn = 2
    /// An ASCII word character, `[0-9A-Za-z_]` (RE2's `\w`).
    case word = 3
    /// A non-ASCII scalar that Unicode `\w` contains; a word scalar only for `(?u)\b`.
    case unicodeWord = 4
    /// Anything else.
    case other = 5

    /// The class of an ASCII byte.
    @inline(__always)
    static func ofASCII(_ byte: UInt8) -> SideClass {
        if byte == 0x0A { return .lineFeed }
        if byte == 0x0D { return .carriageReturn }
        return UnicodeClasses.isASCIIWordByte(byte) ? .word : .other
    }

    /// The class of the scalar that contains `text[index]` (which must be a valid index).
    @inline(__always)
    static func ofByte(at index: Int, in text: UnsafeBufferPointer<UInt8>) -> SideClass {
        let byte = text[index]
        if byte < 0x80 {
            return ofASCII(byte)
        }
        return UnicodeClasses.isWordScalar(scalarValue(containing: index, in: text)) ? .unicodeWord : .other
    }

    /// Whether the side is a word character for Unicode `\b`.
    @inline(__always)
    var isUnicodeWord: Bool { self == .word || self == .unicodeWord }

    /// The class of the side before `position` (the edge at 0).
    static func before(_ position: Int, in text: UnsafeBufferPointer<UInt8>) -> SideClass {
        guard position > 0 && position <= text.count else { return .edge }
        return ofByte(at: position - 1, in: text)
    }

    /// The class of the side after `position` (the edge at the end).
    static func after(_ position: Int, in text: UnsafeBufferPointer<UInt8>) -> SideClass {
        guard position >= 0 && position < text.count else { return .edge }
        return ofByte(at: position, in: text)
    }
}

extension LookKind {
    /// Whether the assertion holds at a position with `left` before it and `right` after it (in text order).
    @inline(__always)
    func holds(left: SideClass, right: SideClass) -> Bool {
        switch self {
        case .startText:
            return left == .edge
        case .endText:
            return right == .edge
        case .startLine:
            // Never between `\r` and `\n`: that pair is one line terminator.
            return left == .edge || left == .lineFeed || (left == .carriageReturn && right != .lineFeed)
        case .endLine:
            return right == .edge || right == .carriageReturn || (right == .lineFeed && left != .carriageReturn)
        case .startLineLF:
            return left == .edge || left == .lineFeed
        case .endLineLF:
            return right == .edge || right == .lineFeed
        case .wordBoundary:
            return left.isUnicodeWord != right.isUnicodeWord
        case .notWordBoundary:
            return left.isUnicodeWord == right.isUnicodeWord
        case .wordBoundaryASCII:
            return (left == .word) != (right == .word)
        case .notWordBoundaryASCII:
            return (left == .word) == (right == .word)
        case .notAfterWordCharacter:
            return !left.isUnicodeWord
        case .notBeforeWordCharacter:
            return !right.isUnicodeWord
        }
    }
}

/// Decodes the scalar whose encoding contains `text[index]`; U+FFFD for malformed input.
///
/// - Complexity: O(1): at most three bytes back and four forward.
func scalarValue(containing index: Int, in text: UnsafeBufferPointer<UInt8>) -> UInt32 {
    var start = index
    while start > 0 && index - start < 3 && text[start] & 0xC0 == 0x80 {
        start -= 1
    }
    return UTF8Decoding.scalar(at: start, in: text)?.scalar.value ?? 0xFFFD
}

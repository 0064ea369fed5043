// A line index over UTF-8 text, converting between UTF-8 byte offsets and LSP positions.
//
// The index stores where each line starts and one byte about it (how its terminator ends it,
// and whether it has a non-ASCII character). The non-ASCII characters of the whole text are
// kept apart, by where they start, with their UTF-8 length:
//
//     text:   "a👍b\r\ncd\n"
//     starts: 0, 8, 11                     lines end in "\r\n", "\n" and nothing
//     wide:   at 1, 4 bytes                (only line 0 has one)
//
// So the index costs nine bytes a line however long the text, plus sixteen per non-ASCII
// character. On an ASCII line, bytes, UTF-16 units and scalars coincide, so a conversion is one
// subtraction. On other lines the conversion binary-searches that line's wide characters,
// which carry running totals of the units the line's earlier ones take beyond one per byte.
// `\n`, `\r\n` and a lone `\r` each end a line; `\r\n` is one terminator, so no position
// ever points between its two bytes. An edit replaces the records of the lines it touches;
// the starts after it, of lines and of wide characters alike, move lazily (`ShiftingOffsets`).

/// Line starts plus the non-ASCII characters of a UTF-8 text, for converting between UTF-8 byte
/// offsets and zero-based LSP positions in any `PositionEncoding`.
///
/// The index does not keep the text. Every query clamps its input instead of trapping.
public struct LineIndex: Sendable, Equatable {
    /// A character that takes more than one UTF-8 byte, with running totals of the earlier wide
    /// characters on its line, so that a conversion binary-searches instead of walking them.
    ///
    /// Packed in eight bytes: the length in bits 0-2, the surrogate pairs before it in bits 3-32
    /// and the excess before it in bits 33-63. A line over 2 GiB (which no LSP message can carry)
    /// would convert wrongly, but never trap.
    struct WideCharacter: Sendable, Equatable {
        private var bits: UInt64

        /// The character of `utf8Length` bytes after `previous`, the one before it on its line.
        init(utf8Length: Int, after previous: WideCharacter?) {
            let excess = previous.map { $0.utf32ExcessBefore &+ $0.length &- 1 } ?? 0
            let pairs = previous.map { $0.surrogatePairsBefore &+ ($0.length == 4 ? 1 : 0) } ?? 0
            bits = UInt64(min(max(utf8Length, 1), 4)) | (UInt64(truncatingIfNeeded: pairs) & 0x3FFF_FFFF) &<< 3
                | UInt64(truncatingIfNeeded: excess) &<< 33
        }

        /// The UTF-8 length of the character: 2, 3 or 4 (1 for a stray byte of invalid input).
        var length: Int { Int(bits & 7) }
        /// Bytes minus scalars of the line's wide characters before this one.
        var utf32ExcessBefore: Int { Int(bits &>> 33) }
        /// How many of the line's wide characters before this one are 4 bytes long (a UTF-16
        /// surrogate pair each).
        var surrogatePairsBefore: Int { Int(bits &>> 3 & 0x3FFF_FFFF) }

        /// The character's length in `encoding`'s units.
        @inline(__always)
        func length(in encoding: PositionEncoding) -> Int {
            switch encoding {
            case .utf8: return length
            case .utf16: return length == 4 ? 2 : 1
            case .utf32: return 1
            }
        }

        /// Bytes minus `encoding`'s units of the line's wide characters before this one.
        @inline(__always)
        func excessBefore(in encoding: PositionEncoding) -> Int {
            switch encoding {
            case .utf8: return 0
            case .utf16: return utf32ExcessBefore - surrogatePairsBefore
            case .utf32: return utf32ExcessBefore
            }
        }

        /// Bytes minus `encoding`'s units of the line's wide characters up to and including this one.
        @inline(__always)
        func excessThrough(in encoding: PositionEncoding) -> Int {
            excessBefore(in: encoding) + length - length(in: encoding)
        }
    }

    /// What the index keeps about one line besides where it starts: one byte.
    struct LineShape: Sendable, Equatable {
        private var bits: UInt8

        /// How a line ends.
        enum Terminator: UInt8 {
            /// The last line, which runs to the end of the text.
            case none = 0
            case lineFeed = 1
            /// A `\r` not followed by `\n`.
            case loneCarriageReturn = 2
            case carriageReturnLineFeed = 3

            /// The terminator's length in bytes.
            var utf8Count: Int { self == .carriageReturnLineFeed ? 2 : Int(rawValue != 0 ? 1 : 0) }
        }

        init(_ terminator: Terminator, hasWideCharacters: Bool) {
            bits = terminator.rawValue | (hasWideCharacters ? 4 : 0)
        }

        var terminator: Terminator { Terminator(rawValue: bits & 3) ?? .none }
        /// Whether the line has a character of more than one byte (or a stray byte of invalid input).
        var hasWideCharacters: Bool { bits & 4 != 0 }
    }

    /// Where each line starts; never empty, since even an empty text has one line.
    var starts: ShiftingOffsets
    /// The shape of each line, in step with `starts`.
    var shapes: [LineShape]
    /// Where each wide character starts, in text order.
    var wideStarts: ShiftingOffsets
    /// The wide characters, in step with `wideStarts`.
    var wideCharacters: [WideCharacter]

    /// The length of the indexed text in UTF-8 bytes.
    public internal(set) var utf8Count: Int

    /// How many lines end in a `\r` not followed by `\n`: line breaks that a pattern such as
    /// `[^\n]` can cross.
    public internal(set) var loneCarriageReturnCount: Int

    /// Indexes `text`, which should be UTF-8 (invalid bytes count as one character each).
    ///
    /// - Complexity: O(*n*) in the length of `text`, taking sixty-four plain bytes at a time.
    init(utf8 text: UnsafeBufferPointer<UInt8>) {
        var scanned = ScannedLines(expectedLineCount: text.count / 32 + 1)
        _ = scanned.scan(text, utf8Range: 0..<text.count, isDocumentEnd: true)
        starts = ShiftingOffsets(scanned.starts)
        shapes = scanned.shapes
        wideStarts = ShiftingOffsets(scanned.wideStarts)
        wideCharacters = scanned.wideCharacters
        utf8Count = text.count
        loneCarriageReturnCount = scanned.loneCarriageReturnCount
    }

    /// Indexes `text`, which should be UTF-8 (invalid bytes count as one character each).
    ///
    /// - Complexity: O(*n*) in the length of `text`.
    public init(utf8 text: [UInt8]) {
        self = text.withUnsafeBufferPointer { LineIndex(utf8: $0) }
    }

    // MARK: Lines

    /// The number of lines: one more than the number of line terminators, so an empty text
    /// has one line and a text ending in a terminator has an empty last line.
    public var lineCount: Int { shapes.count }

    /// The UTF-8 offset where the zero-based `line` starts; 0 for a negative line and the end
    /// of the text for a line past the last.
    ///
    /// - Complexity: O(1).
    public func utf8Offset(ofLineStart line: Int) -> Int {
        guard line >= 0 else { return 0 }
        guard line < shapes.count else { return utf8Count }
        return starts[line]
    }

    /// The UTF-8 offset where the content of the zero-based `line` ends, before its terminator;
    /// 0 for a negative line and the end of the text for a line past the last.
    ///
    /// - Complexity: O(1).
    public func utf8Offset(ofLineContentEnd line: Int) -> Int {
        guard line >= 0 else { return 0 }
        guard line < shapes.count else { return utf8Count }
        return contentEnd(ofLine: line)
    }

    /// Where the content of `line` (in the text) ends.
    @inline(__always)
    private func contentEnd(ofLine line: Int) -> Int {
        (line + 1 < shapes.count ? starts[line + 1] : utf8Count) - shapes[line].terminator.utf8Count
    }

    /// The UTF-8 range of the content of the zero-based `line`, without its terminator
    /// (clamped like `utf8Offset(ofLineStart:)`).
    ///
    /// - Complexity: O(1).
    public func utf8ContentRange(ofLine line: Int) -> Range<Int> {
        utf8Offset(ofLineStart: line)..<utf8Offset(ofLineContentEnd: line)
    }

    /// The zero-based line that contains `utf8Offset`, including its terminator. Offsets are
    /// clamped to the text, so the end of the text is on the last line.
    ///
    /// - Complexity: O(log *L*) for *L* lines.
    public func line(containingUTF8Offset utf8Offset: Int) -> Int {
        // The last line whose start is at or before the offset (the first starts at 0).
        max(0, starts.lastIndex(atOrBefore: utf8Offset))
    }

    /// The zero-based line that contains `utf8Offset`, searched forward from `line`, which must be
    /// at or before it: offsets in ascending order cost the distance between them, not a search of
    /// the whole index each.
    ///
    /// - Complexity: O(log *d*) for *d* lines between `line` and the answer.
    public func line(containingUTF8Offset utf8Offset: Int, atOrAfter line: Int) -> Int {
        max(0, starts.lastIndex(atOrBefore: utf8Offset, from: min(max(line, 0), shapes.count - 1)))
    }

    /// A line (in the text) as conversions need it: where it starts, its content's length and
    /// its wide characters (indices into `wideStarts` and `wideCharacters`).
    private struct LineRecord {
        var start: Int
        var contentLength: Int
        var wide: Range<Int>
    }

    /// The record of `line`, which must be in the text.
    ///
    /// - Complexity: O(1) for an ASCII line; O(log *W*) for *W* wide characters in the text otherwise.
    private func record(ofLine line: Int) -> LineRecord {
        let start = starts[line]
        let end = contentEnd(ofLine: line)
        guard shapes[line].hasWideCharacters else { return LineRecord(start: start, contentLength: end - start, wide: 0..<0) }
        let first = wideStarts.lastIndex(atOrBefore: start - 1) + 1
        let afterLast = wideStarts.lastIndex(atOrBefore: end - 1, from: first - 1) + 1
        return LineRecord(start: start, contentLength: end - start, wide: first..<afterLast)
    }

    /// The length of the content of the zero-based `line` in `encoding`'s units; 0 for a line
    /// outside the text.
    ///
    /// - Complexity: O(1) on an ASCII line; O(log *W*) for *W* wide characters in the text otherwise.
    public func characterCount(ofLine line: Int, encoding: PositionEncoding) -> Int {
        guard line >= 0, line < shapes.count else { return 0 }
        let record = record(ofLine: line)
        guard let last = record.wide.last else { return record.contentLength }
        return record.contentLength - wideCharacters[last].excessThrough(in: encoding)
    }

    // MARK: Conversions

    /// The position of `utf8Offset` with its character counted in `encoding`'s units.
    ///
    /// The offset is clamped to the text. An offset inside a multi-byte character names that
    /// character; an offset inside a line terminator (such as between `\r` and `\n`) names the
    /// end of the line's content.
    ///
    /// - Complexity: O(log *L* + log *W*) for *L* lines and *W* non-ASCII characters in the text.
    public func position(ofUTF8Offset utf8Offset: Int, encoding: PositionEncoding) -> Position {
        let clamped = min(max(utf8Offset, 0), utf8Count)
        let lineNumber = line(containingUTF8Offset: clamped)
        return Position(line: lineNumber, character: character(ofUTF8Offset: clamped, onLine: lineNumber, encoding: encoding))
    }

    /// The character, in `encoding`'s units, of `utf8Offset` on the zero-based `line` that holds it
    /// (found already, as by `line(containingUTF8Offset:atOrAfter:)`), clamped to the line's content
    /// as `position(ofUTF8Offset:encoding:)` clamps.
    ///
    /// - Complexity: O(1) on an ASCII line; O(log *W*) for *W* non-ASCII characters in the text otherwise.
    public func character(ofUTF8Offset utf8Offset: Int, onLine line: Int, encoding: PositionEncoding) -> Int {
        guard line >= 0, line < shapes.count else { return 0 }
        let record = record(ofLine: line)
        let column = min(max(utf8Offset - record.start, 0), record.contentLength)
        // The wide characters that start before `column`.
        let before = record.wide.partitionPoint { wideStarts[$0] - record.start >= column }
        guard before > record.wide.lowerBound else { return column }
        let last = wideCharacters[before - 1]
        let lastOffset = wideStarts[before - 1] - record.start
        if column < lastOffset + last.length {
            // Inside a multi-byte character: the position of its start.
            return lastOffset - last.excessBefore(in: encoding)
        }
        return column - last.excessThrough(in: encoding)
    }

    /// The UTF-8 offset of `position`, whose character is counted in `encoding`'s units.
    ///
    /// Never traps: a negative line gives 0 and a line past the last gives the end of the
    /// text; a negative character gives the line start and one past the line's content gives
    /// the content end (never a spot inside the terminator); a character inside a multi-byte
    /// character (such as between the two UTF-16 units of 👍) gives that character's start.
    ///
    /// - Complexity: O(1) on an ASCII line; O(log *W*) for *W* non-ASCII characters in the text otherwise.
    public func utf8Offset(of position: Position, encoding: PositionEncoding) -> Int {
        guard position.line >= 0 else { return 0 }
        guard position.line < shapes.count else { return utf8Count }
        let record = record(ofLine: position.line)
        // A line has no more units than bytes, so this clamp loses nothing and keeps the
        // additions below from overflowing.
        let character = min(max(position.character, 0), record.contentLength)
        // The wide characters whose first unit comes before `character`.
        let before = record.wide.partitionPoint {
            wideStarts[$0] - record.start - wideCharacters[$0].excessBefore(in: encoding) >= character
        }
        guard before > record.wide.lowerBound else { return record.start + character }
        let last = wideCharacters[before - 1]
        let lastOffset = wideStarts[before - 1] - record.start
        if character < lastOffset - last.excessBefore(in: encoding) + last.length(in: encoding) {
            return record.start + lastOffset
        }
        return record.start + min(character + last.excessThrough(in: encoding), record.contentLength)
    }
}

extension Range<Int> {
    /// The first index whose predicate holds, which must be false and then true along the range;
    /// `upperBound` when it never holds.
    ///
    /// - Complexity: O(log *n*).
    @inlinable
    public func partitionPoint(_ predicate: (Int) -> Bool) -> Int {
        var low = lowerBound
        var high = upperBound
        while low < high {
            let middle = low + (high - low) / 2
            if predicate(middle) { high = middle } else { low = middle + 1 }
        }
        return low
    }
}

extension Array {
    /// The first index whose element satisfies `predicate`, which must be false and then true
    /// along the array.
    ///
    /// - Complexity: O(log *n*).
    @inlinable
    public func partitionPoint(_ predicate: (Element) -> Bool) -> Int {
        indices.partitionPoint { predicate(self[$0]) }
    }
}

// A line index over UTF-8 text, converting between UTF-8 byte offsets and LSP positions.
//
// The index stores, per line, where it starts, how long its content is (without the
// terminator) and, only for lines that have any, the non-ASCII characters with their offset
// inside the line and their UTF-8 length:
//
//     text:   "a👍b\r\ncd\n"
//     line 0: start 0, content 6 bytes, wide characters [(offset 1, 4 bytes)]
//     line 1: start 8, content 2 bytes, no wide characters
//     line 2: start 11, content 0 bytes (the text ends with a terminator)
//
// On an ASCII line, bytes, UTF-16 units and scalars coincide, so a conversion is one
// subtraction. On other lines the conversion binary-searches that line's wide characters,
// which carry running totals of the units they take beyond one per byte.
// `\n`, `\r\n` and a lone `\r` each end a line; `\r\n` is one terminator, so no position
// ever points between its two bytes.

/// Line starts plus the non-ASCII characters of each line of a UTF-8 text, for converting
/// between UTF-8 byte offsets and zero-based LSP positions in any `PositionEncoding`.
///
/// The index does not keep the text. Every query clamps its input instead of trapping.
public struct LineIndex: Sendable, Equatable {
    /// A character that takes more than one UTF-8 byte, with running totals of the line's
    /// earlier wide characters so that a conversion binary-searches instead of walking them.
    ///
    /// The fields are 32-bit to keep the record at 16 bytes; a line over 2 GiB (which no LSP
    /// message can carry) would convert wrongly, but never trap.
    struct WideCharacter: Sendable, Equatable {
        /// The UTF-8 offset of the character from the start of its line.
        var utf8OffsetInLine: Int32
        /// Bytes minus scalars of the line's wide characters before this one.
        var utf32ExcessBefore: Int32
        /// How many of the line's wide characters before this one are 4 bytes long (a UTF-16
        /// surrogate pair each).
        var surrogatePairsBefore: Int32
        /// The UTF-8 length of the character: 2, 3 or 4 (1 for a stray byte of invalid input).
        var utf8Length: UInt8

        init(utf8OffsetInLine: Int, utf8Length: Int, after previous: WideCharacter?) {
            self.utf8OffsetInLine = Int32(clamping: utf8OffsetInLine)
            self.utf8Length = UInt8(clamping: utf8Length)
            utf32ExcessBefore = previous.map { $0.utf32ExcessBefore &+ Int32($0.utf8Length) &- 1 } ?? 0
            surrogatePairsBefore = previous.map { $0.surrogatePairsBefore &+ ($0.utf8Length == 4 ? 1 : 0) } ?? 0
        }

        var offset: Int { Int(utf8OffsetInLine) }
        var length: Int { Int(utf8Length) }

        /// The character's length in `encoding`'s units.
        @inline(__always)
        func length(in encoding: PositionEncoding) -> Int {
            switch encoding {
            case .utf8: return length
            case .utf16: return utf8Length == 4 ? 2 : 1
            case .utf32: return 1
            }
        }

        /// Bytes minus `encoding`'s units of the line's wide characters before this one.
        @inline(__always)
        func excessBefore(in encoding: PositionEncoding) -> Int {
            switch encoding {
            case .utf8: return 0
            case .utf16: return Int(utf32ExcessBefore) - Int(surrogatePairsBefore)
            case .utf32: return Int(utf32ExcessBefore)
            }
        }

        /// Bytes minus `encoding`'s units of the line's wide characters up to and including this one.
        @inline(__always)
        func excessThrough(in encoding: PositionEncoding) -> Int {
            excessBefore(in: encoding) + length - length(in: encoding)
        }
    }

    /// One line of the text, apart from where it starts.
    struct Line: Sendable, Equatable {
        /// The UTF-8 length of the line without its terminator.
        var utf8ContentLength: Int
        /// The line's non-ASCII characters in order; empty (and unallocated) for ASCII lines.
        var wideCharacters: [WideCharacter]
    }

    /// All lines in order; never empty, since even an empty text has one line.
    var lines: [Line]
    /// The UTF-8 offset of each line's first byte, kept apart so that an edit moves the starts
    /// after it lazily (see `ShiftingOffsets`).
    var starts: ShiftingOffsets

    /// The length of the indexed text in UTF-8 bytes.
    public internal(set) var utf8Count: Int

    /// Indexes `text`, which should be UTF-8 (invalid bytes count as one character each).
    ///
    /// - Complexity: O(*n*) in the length of `text`, skipping ASCII eight bytes at a time.
    init(utf8 text: UnsafeBufferPointer<UInt8>) {
        var lines: [Line] = []
        var starts: [Int] = []
        lines.reserveCapacity(text.count / 32 + 1)
        starts.reserveCapacity(text.count / 32 + 1)
        _ = LineIndex.scanLines(in: text, utf8Range: 0..<text.count, isDocumentEnd: true, into: &lines, starts: &starts)
        self.lines = lines
        self.starts = ShiftingOffsets(starts)
        self.utf8Count = text.count
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
    public var lineCount: Int { lines.count }

    /// The UTF-8 offset where the zero-based `line` starts; 0 for a negative line and the end
    /// of the text for a line past the last.
    ///
    /// - Complexity: O(1).
    public func utf8Offset(ofLineStart line: Int) -> Int {
        guard line >= 0 else { return 0 }
        guard line < lines.count else { return utf8Count }
        return starts[line]
    }

    /// The UTF-8 offset where the content of the zero-based `line` ends, before its terminator;
    /// 0 for a negative line and the end of the text for a line past the last.
    ///
    /// - Complexity: O(1).
    public func utf8Offset(ofLineContentEnd line: Int) -> Int {
        guard line >= 0 else { return 0 }
        guard line < lines.count else { return utf8Count }
        return starts[line] + lines[line].utf8ContentLength
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
        max(0, starts.lastIndex(atOrBefore: utf8Offset, from: min(max(line, 0), lines.count - 1)))
    }

    /// The length of the content of the zero-based `line` in `encoding`'s units; 0 for a line
    /// outside the text.
    ///
    /// - Complexity: O(*k*) for the *k* non-ASCII characters of the line.
    public func characterCount(ofLine line: Int, encoding: PositionEncoding) -> Int {
        guard line >= 0, line < lines.count else { return 0 }
        let record = lines[line]
        return record.utf8ContentLength - (record.wideCharacters.last?.excessThrough(in: encoding) ?? 0)
    }

    // MARK: Conversions

    /// The position of `utf8Offset` with its character counted in `encoding`'s units.
    ///
    /// The offset is clamped to the text. An offset inside a multi-byte character names that
    /// character; an offset inside a line terminator (such as between `\r` and `\n`) names the
    /// end of the line's content.
    ///
    /// - Complexity: O(log *L* + log *k*) for *L* lines and *k* non-ASCII characters on the line.
    public func position(ofUTF8Offset utf8Offset: Int, encoding: PositionEncoding) -> Position {
        let clamped = min(max(utf8Offset, 0), utf8Count)
        let lineNumber = line(containingUTF8Offset: clamped)
        return Position(line: lineNumber, character: character(ofUTF8Offset: clamped, onLine: lineNumber, encoding: encoding))
    }

    /// The character, in `encoding`'s units, of `utf8Offset` on the zero-based `line` that holds it
    /// (found already, as by `line(containingUTF8Offset:atOrAfter:)`), clamped to the line's content
    /// as `position(ofUTF8Offset:encoding:)` clamps.
    ///
    /// - Complexity: O(log *k*) for *k* non-ASCII characters on the line; O(1) on an ASCII line.
    public func character(ofUTF8Offset utf8Offset: Int, onLine line: Int, encoding: PositionEncoding) -> Int {
        guard line >= 0, line < lines.count else { return 0 }
        let record = lines[line]
        let column = min(max(utf8Offset - starts[line], 0), record.utf8ContentLength)
        let wide = record.wideCharacters
        // The wide characters that start before `column`.
        let before = wide.partitionPoint { $0.offset >= column }
        guard before > 0 else { return column }
        let last = wide[before - 1]
        if column < last.offset + last.length {
            // Inside a multi-byte character: the position of its start.
            return last.offset - last.excessBefore(in: encoding)
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
    /// - Complexity: O(log *k*) for the *k* non-ASCII characters on the line; O(1) on an ASCII line.
    public func utf8Offset(of position: Position, encoding: PositionEncoding) -> Int {
        guard position.line >= 0 else { return 0 }
        guard position.line < lines.count else { return utf8Count }
        let record = lines[position.line]
        let lineStart = starts[position.line]
        // A line has no more units than bytes, so this clamp loses nothing and keeps the
        // additions below from overflowing.
        let character = min(max(position.character, 0), record.utf8ContentLength)
        let wide = record.wideCharacters
        // The wide characters whose first unit comes before `character`.
        let before = wide.partitionPoint { $0.offset - $0.excessBefore(in: encoding) >= character }
        guard before > 0 else { return lineStart + character }
        let last = wide[before - 1]
        if character < last.offset - last.excessBefore(in: encoding) + last.length(in: encoding) {
            return lineStart + last.offset
        }
        return lineStart + min(character + last.excessThrough(in: encoding), record.utf8ContentLength)
    }
}

extension Array {
    /// The first index whose element satisfies `predicate`, which must be false and then true
    /// along the array.
    ///
    /// - Complexity: O(log *n*).
    @inline(__always)
    func partitionPoint(_ predicate: (Element) -> Bool) -> Int {
        var low = 0
        var high = count
        while low < high {
            let middle = low + (high - low) / 2
            if predicate(self[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }
}
